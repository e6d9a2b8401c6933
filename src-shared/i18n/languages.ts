export const languages = ['en', 'zh-CN'] as const;
export type Language = (typeof languages)[number];

/** The UI language for an OS locale such as "zh-Hans-CN" or "en-GB": Chinese for zh-*, else English. */
export function languageForLocale(locale: string | null | undefined): Language {
  return locale && /^zh\b/i.test(locale) ? 'zh-CN' : 'en';
}

/**
 * The UI language for a browser's preferred locales (navigator.languages), best first: the first
 * that names Chinese or English decides; none of them, English.
 */
export function languageForLocales(locales: readonly string[]): Language {
  const decided = locales.find((locale) => /^(zh|en)\b/i.test(locale));
  return languageForLocale(decided);
}
