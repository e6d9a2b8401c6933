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
