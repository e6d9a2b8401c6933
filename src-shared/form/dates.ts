import { DateTime } from 'luxon';
import { fail, ok, type RuleResult } from './messages';

// Spec 9: a date field's value is yyyy-MM-dd, a range's bounds are yyyy/MM/dd, and the display is
// yyyy年MM月dd日 unless the field's dateFormat says otherwise. Dates are calendar days: no zone.

export const dateValueFormat = 'yyyy-MM-dd';
export const dateRangeValueFormat = 'yyyy/MM/dd';
export const dateTimeValueFormat = 'yyyy-MM-dd HH:mm:ss';
export const defaultDateDisplayFormat = 'yyyy年MM月dd日';

/**
 * Field dateFormats come from templates written with dayjs-style tokens (YYYY-MM-DD); luxon
 * spells years and days in lower case. Luxon formats pass through unchanged.
 */
export function toLuxonFormat(dateFormat: string): string {
  return dateFormat.replace(/Y/g, 'y').replace(/D/g, 'd');
}

/** Strict parse: the text must be a real day written exactly in the format (no 2026-2-30). */
export function parseDate(text: string, format: string = dateValueFormat): RuleResult<DateTime> {
  const parsed = DateTime.fromFormat(text.trim(), format, { zone: 'utc' });
  if (!parsed.isValid || parsed.toFormat(format) !== text.trim()) return fail('invalidDate');
  return ok(parsed);
}

export function toDateValue(date: DateTime): string {
  return date.toFormat(dateValueFormat);
}

export type DateRangeValue = [string, string];

/** Both bounds in yyyy/MM/dd, the start not after the end. */
export function parseDateRange(range: readonly [string, string]): RuleResult<[DateTime, DateTime]> {
  const start = parseDate(range[0], dateRangeValueFormat);
  const end = parseDate(range[1], dateRangeValueFormat);
  if (!start.ok) return start;
  if (!end.ok) return end;
  if (start.value > end.value) return fail('invalidDateRange');
  return ok([start.value, end.value]);
}

export function toDateRangeValue(start: DateTime, end: DateTime): DateRangeValue {
  return [start.toFormat(dateRangeValueFormat), end.toFormat(dateRangeValueFormat)];
}

/** A stored day (yyyy-MM-dd, yyyy/MM/dd or a date-time) as luxon reads it; null when it is not a day. */
export function parseStoredDate(value: string): DateTime | null {
  for (const valueFormat of [dateValueFormat, dateRangeValueFormat, dateTimeValueFormat]) {
    const parsed = parseDate(value, valueFormat);
    if (parsed.ok) return parsed.value;
  }
  return null;
}

/**
 * A stored day as the field shows it, month names in `locale` (luxon's default when absent);
 * '' when it is not a day.
 */
export function formatDateDisplay(value: string, dateFormat?: string, locale?: string): string {
  const format = dateFormat ? toLuxonFormat(dateFormat) : defaultDateDisplayFormat;
  const parsed = parseStoredDate(value);
  if (!parsed) return '';
  return (locale ? parsed.setLocale(locale) : parsed).toFormat(format);
}

/** A range as the field shows it: both bounds in the display format joined by ' ~ '. */
export function formatDateRangeDisplay(range: readonly [string, string], dateFormat?: string, locale?: string): string {
  return `${formatDateDisplay(range[0], dateFormat, locale)} ~ ${formatDateDisplay(range[1], dateFormat, locale)}`;
}
