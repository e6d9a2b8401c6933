import type { AppInfo, Settings } from '../../src-shared/ipc/channels';
import { languageForLocale, languageForLocales, languages, type Language } from '../../src-shared/i18n/languages';

/**
 * The UI language: the saved choice, else the system's. The system is the browser in the web
 * edition (its preferred languages: the host's locale is the server's, not the user's) and the
 * operating system's locale (from the core) on the desktop; the browser's while the core has not
 * answered.
 */
export function uiLanguage(settings: Settings | undefined, appInfo: AppInfo | undefined, browserLocales: readonly string[]): Language {
  if (settings?.language) return settings.language;
  return appInfo && appInfo.host === 'electron' ? languageForLocale(appInfo.systemLocale) : languageForLocales(browserLocales);
}

/** The language i18next shows (i18n.language) as one of the app's: English before one is applied. */
export function shownLanguage(language: string): Language {
  return (languages as readonly string[]).includes(language) ? (language as Language) : 'en';
}
