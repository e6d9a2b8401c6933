import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDay, formatDayRange, formatDayTime } from '../../src-renderer/i18n/format';

// Every displayed date goes through one luxon module, per UI language (UI.md "Dates").

describe('date formatting per language', () => {
  it('shows a day as yyyy年MM月dd日 in Chinese and d MMM yyyy in English', () => {
    expect(formatDay('2026-03-04', 'zh-CN')).toBe('2026年03月04日');
    expect(formatDay('2026-03-04', 'en')).toBe('4 Mar 2026');
    expect(formatDay('2026/12/01', 'en')).toBe('1 Dec 2026');
    expect(formatDay('not a day', 'en')).toBe('');
  });

  it("follows the field's dateFormat, except a Chinese pattern in English", () => {
    expect(formatDay('2026-03-04', 'zh-CN', 'YYYY/MM/DD')).toBe('2026/03/04');
    expect(formatDay('2026-03-04', 'en', 'YYYY/MM/DD')).toBe('2026/03/04');
    expect(formatDay('2026-03-04', 'en', 'YYYY年MM月DD日')).toBe('4 Mar 2026');
  });

  it('shows date-times and ranges', () => {
    expect(formatDayTime('2026-03-04 05:06:07', 'zh-CN')).toBe('2026年03月04日 05:06:07');
    expect(formatDayTime('2026-03-04 05:06:07', 'en')).toBe('4 Mar 2026, 05:06:07');
    expect(formatDayRange(['2026/03/04', '2026/04/05'], 'en')).toBe('4 Mar 2026 ~ 5 Apr 2026');
  });

  it('shows an instant in local time to the minute, never as mm/dd/yyyy', () => {
    const local = new Date(2026, 2, 4, 14, 5).toISOString();
    expect(formatDateTime(local, 'zh-CN')).toBe('2026年03月04日 14:05');
    expect(formatDateTime(local, 'en')).toBe('4 Mar 2026, 14:05');
    expect(formatDateTime('garbage', 'en')).toBe('garbage');
  });
});
