import { DateTime } from 'luxon';
import { formatDateDisplay } from '../form/dates';
import { languageForLocale, type Language } from './languages';

// How a day is written in each UI language (UI.md "Dates"): zh-CN yyyy年MM月dd日, English d MMM
// yyyy. One table for every place that writes a day for a person: the renderer's formatting
// (src-renderer/i18n/format.ts), the contract's document, the desktop notifications the core
// shows, and the task names a periodic schedule gives its rows. A form field's own dateFormat
// (spec 9) wins, except that English does not take a Chinese pattern such as yyyy年MM月dd日.

export const dayFormats: Readonly<Record<Language, string>> = { 'zh-CN': 'yyyy年MM月dd日', en: 'd MMM yyyy' };

/** Between a day and its time of day. */
export const timeSeparator: Readonly<Record<Language, string>> = { 'zh-CN': ' ', en: ', ' };

const cjk = /[\u3000-\u303f\u3400-\u9fff]/;

/** The field's dateFormat when this language can show it. */
function fieldFormat(language: Language, dateFormat: string | undefined): string | undefined {
  return dateFormat && !(language === 'en' && cjk.test(dateFormat)) ? dateFormat : undefined;
}

/** The luxon format of a day, e.g. "yyyy年MM月dd日" or "d MMM yyyy". */
export function dayFormat(language: string, dateFormat?: string): string {
  const lang = languageForLocale(language);
  return fieldFormat(lang, dateFormat) ?? dayFormats[lang];
}

/** The luxon format of a day and time to the second. */
export function dayTimeFormat(language: string, dateFormat?: string): string {
  const lang = languageForLocale(language);
  return fieldFormat(lang, dateFormat) ?? `${dayFormats[lang]}${timeSeparator[lang]}HH:mm:ss`;
}

/** A stored day (yyyy-MM-dd) as written in `language` (a UI language or an OS locale); '' when it is not a day. */
export function formatDayIn(day: string, language: string): string {
  const lang = languageForLocale(language);
  return formatDateDisplay(day, dayFormats[lang], lang);
}

/** An ISO instant to the minute as written in `language`, in `zone` (this device's by default), e.g. "2025年03月04日 14:05" or "4 Mar 2025, 14:05". */
export function formatInstantIn(iso: string, language: string, zone?: string): string {
  const instant = DateTime.fromISO(iso, zone ? { zone } : undefined);
  if (!instant.isValid) return iso;
  const lang = languageForLocale(language);
  return instant.setLocale(lang).toFormat(`${dayFormats[lang]}${timeSeparator[lang]}HH:mm`);
}

/** Besides the language's own way of writing a day: ISO days (and times), and the slashes of a range's bounds. */
const typedDayFormats = ['yyyy-M-d', 'yyyy/M/d', 'yyyy.M.d', 'yyyy年M月d日', 'yyyyMMdd'];
const typedTimeFormats = ['yyyy-MM-dd HH:mm:ss', "yyyy-MM-dd'T'HH:mm:ss", 'yyyy-MM-dd HH:mm', "yyyy-MM-dd'T'HH:mm", 'yyyy/M/d HH:mm:ss', 'yyyy/M/d HH:mm'];

/**
 * A day (or a day and time) as a person types it into a date input: in the language's own format
 * (`display`, e.g. 31 Jan 2026 or 2026年01月31日), or as an ISO day (2026-01-31, 2026-01-31 09:30)
 * whatever the language; null when it is no real day in any of them.
 */
export function parseTypedDay(text: string, display: string, language: string, withTime = false): DateTime | null {
  const typed = text.trim();
  if (typed === '') return null;
  const locale = languageForLocale(language);
  for (const format of [display, ...(withTime ? typedTimeFormats : typedDayFormats)]) {
    const parsed = DateTime.fromFormat(typed, format, { locale });
    if (parsed.isValid) return parsed;
  }
  return null;
}
