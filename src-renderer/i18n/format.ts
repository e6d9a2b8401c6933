import { DateTime } from 'luxon';
import { formatDateDisplay, formatDateRangeDisplay } from '../../src-shared/form/dates';

// Every date the app shows is formatted here, with luxon, per UI language (UI.md "Dates"):
// zh-CN yyyy年MM月dd日, English d MMM yyyy. A form field's own dateFormat (spec 9) wins, except
// that English does not take a Chinese pattern such as YYYY年MM月DD日.

type DateLanguage = 'zh-CN' | 'en';
const dateLanguage = (language: string): DateLanguage => (/^zh\b/i.test(language) ? 'zh-CN' : 'en');

const dayFormats: Record<DateLanguage, string> = { 'zh-CN': 'yyyy年MM月dd日', en: 'd MMM yyyy' };
const timeSeparator: Record<DateLanguage, string> = { 'zh-CN': ' ', en: ', ' };
const cjk = /[\u3000-\u303f\u3400-\u9fff]/;

/** The field's dateFormat when this language can show it. */
function fieldFormat(language: DateLanguage, dateFormat: string | undefined): string | undefined {
  return dateFormat && !(language === 'en' && cjk.test(dateFormat)) ? dateFormat : undefined;
}

/** The luxon format of a day, e.g. "yyyy年MM月dd日" or "d MMM yyyy". */
export function dayFormat(language: string, dateFormat?: string): string {
  const lang = dateLanguage(language);
  return fieldFormat(lang, dateFormat) ?? dayFormats[lang];
}

/** The luxon format of a day and time to the second. */
export function dayTimeFormat(language: string, dateFormat?: string): string {
  const lang = dateLanguage(language);
  return fieldFormat(lang, dateFormat) ?? `${dayFormats[lang]}${timeSeparator[lang]}HH:mm:ss`;
}

/** A stored day (yyyy-MM-dd, yyyy/MM/dd or yyyy-MM-dd HH:mm:ss) as a day; '' when it is not one. */
export function formatDay(value: string, language: string, dateFormat?: string): string {
  return formatDateDisplay(value, dayFormat(language, dateFormat), dateLanguage(language));
}

/** A stored day and time (yyyy-MM-dd HH:mm:ss) to the second. */
export function formatDayTime(value: string, language: string, dateFormat?: string): string {
  return formatDateDisplay(value, dayTimeFormat(language, dateFormat), dateLanguage(language));
}

/** A stored range of days, both bounds joined by ' ~ '. */
export function formatDayRange(range: readonly [string, string], language: string, dateFormat?: string): string {
  return formatDateRangeDisplay(range, dayFormat(language, dateFormat), dateLanguage(language));
}

/** An ISO instant in this device's time zone, to the minute, e.g. "2025年03月04日 14:05" or "4 Mar 2025, 14:05". */
export function formatDateTime(iso: string, language: string): string {
  const instant = DateTime.fromISO(iso);
  if (!instant.isValid) return iso;
  const lang = dateLanguage(language);
  return instant.setLocale(lang).toFormat(`${dayFormats[lang]}${timeSeparator[lang]}HH:mm`);
}

/** How long ago an ISO instant was, in the UI language, e.g. "5 minutes ago" or "5分钟前". */
export function formatAge(iso: string, language: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Number.isNaN(seconds)) return iso;
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}
