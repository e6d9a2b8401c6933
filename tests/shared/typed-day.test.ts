import { describe, expect, it } from 'vitest';
import { dayFormat, dayTimeFormat, parseTypedDay } from '../../src-shared/i18n/days';

// What a person types into a date input (issue 30): the language's own way of writing a day, or
// an ISO day whatever the language; nothing else, and no day the calendar lacks.

const typed = (text: string, language: string, withTime = false) =>
  parseTypedDay(text, withTime ? dayTimeFormat(language) : dayFormat(language), language, withTime)?.toFormat(withTime ? 'yyyy-MM-dd HH:mm:ss' : 'yyyy-MM-dd') ?? null;

describe('a day typed into a date input', () => {
  it('takes the language’s own format and ISO days alike, in both languages', () => {
    for (const language of ['zh-CN', 'en']) {
      expect(typed('2026-12-01', language)).toBe('2026-12-01');
      expect(typed(' 2026/12/1 ', language)).toBe('2026-12-01');
      expect(typed('20261201', language)).toBe('2026-12-01');
    }
    expect(typed('2026年12月01日', 'zh-CN')).toBe('2026-12-01');
    expect(typed('2026年12月1日', 'en')).toBe('2026-12-01');
    expect(typed('1 Dec 2026', 'en')).toBe('2026-12-01');
  });

  it('takes a day and time as the language writes it or in ISO', () => {
    expect(typed('2026-12-01 09:30', 'en', true)).toBe('2026-12-01 09:30:00');
    expect(typed('2026-12-01T09:30:15', 'zh-CN', true)).toBe('2026-12-01 09:30:15');
    expect(typed('1 Dec 2026, 09:30:15', 'en', true)).toBe('2026-12-01 09:30:15');
    expect(typed('2026年12月01日 09:30:15', 'zh-CN', true)).toBe('2026-12-01 09:30:15');
  });

  it('refuses what is no real day', () => {
    for (const text of ['', '2026-02-30', '2026-13-01', 'tomorrow', '12/01/2026', '2026-12']) expect(typed(text, 'en')).toBeNull();
    expect(typed('2026年02月30日', 'zh-CN')).toBeNull();
  });
});
