import { formatDateDisplay, formatDateRangeDisplay } from '../../src-shared/form/dates';
import { dayFormat, dayTimeFormat, formatInstantIn } from '../../src-shared/i18n/days';
import { languageForLocale } from '../../src-shared/i18n/languages';

// Every date the app shows is formatted here, with luxon, per UI language (UI.md "Dates"), in the
// formats src-shared/i18n/days.ts gives: zh-CN yyyy年MM月dd日, English d MMM yyyy, or the field's own.

/** A stored day (yyyy-MM-dd, yyyy/MM/dd or yyyy-MM-dd HH:mm:ss) as a day; '' when it is not one. */
export function formatDay(value: string, language: string, dateFormat?: string): string {
  return formatDateDisplay(value, dayFormat(language, dateFormat), languageForLocale(language));
}

/** A stored day and time (yyyy-MM-dd HH:mm:ss) to the second. */
export function formatDayTime(value: string, language: string, dateFormat?: string): string {
  return formatDateDisplay(value, dayTimeFormat(language, dateFormat), languageForLocale(language));
}

/** A stored range of days, both bounds joined by ' ~ '. */
export function formatDayRange(range: readonly [string, string], language: string, dateFormat?: string): string {
  return formatDateRangeDisplay(range, dayFormat(language, dateFormat), languageForLocale(language));
}

/** An ISO instant in this device's time zone, to the minute, e.g. "2025年03月04日 14:05" or "4 Mar 2025, 14:05". */
export function formatDateTime(iso: string, language: string): string {
  return formatInstantIn(iso, language);
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
