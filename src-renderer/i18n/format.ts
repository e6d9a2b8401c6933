const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** An ISO timestamp in the UI language, e.g. "2025年3月4日 14:05" or "Mar 4, 2025, 2:05 PM". */
export function formatDateTime(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = dateTimeFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(language, format);
  }
  return format.format(date);
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

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A calendar day "yyyy-MM-dd" in the UI language, e.g. "2025年3月4日" or "Mar 4, 2025"; the day as it is written, whatever the time zone. */
export function formatDate(isoDate: string, language: string): string {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
    dateFormats.set(language, format);
  }
  return format.format(date);
}
