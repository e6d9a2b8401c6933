import { describe, expect, it } from 'vitest';
import {
  formatDateDisplay,
  formatDateRangeDisplay,
  parseDate,
  parseDateRange,
  toDateRangeValue,
  toDateValue,
  toLuxonFormat,
} from '../../../src-shared/form/dates';

describe('date values', () => {
  it.each(['2026-01-31', '2024-02-29', '2026-12-01'])('%s is a date value', (text) => {
    const parsed = parseDate(text);
    expect(parsed.ok && toDateValue(parsed.value)).toBe(text);
  });

  it.each(['2026-02-29', '2026-02-30', '2026-13-01', '2026-2-3', '2026/02/03', '', 'tomorrow', '2026-02-03T00:00'])(
    '%j is rejected',
    (text) => {
      const parsed = parseDate(text);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message.text).toBe('Invalid date');
    },
  );
});

describe('date range values', () => {
  it('keeps both bounds in yyyy/MM/dd', () => {
    const parsed = parseDateRange(['2026/01/01', '2026/03/31']);
    expect(parsed.ok && toDateRangeValue(...parsed.value)).toEqual(['2026/01/01', '2026/03/31']);
  });

  it.each([
    [['2026-01-01', '2026/03/31'], 'Invalid date'],
    [['2026/01/01', '2026/02/30'], 'Invalid date'],
    [['2026/04/01', '2026/03/31'], 'The start date cannot be after the end date'],
  ] as const)('%j is rejected with %j', (range, message) => {
    const parsed = parseDateRange(range);
    expect(!parsed.ok && parsed.message.text).toBe(message);
  });
});

describe('date display', () => {
  it.each([
    ['2026-03-05', undefined, '2026年03月05日'],
    ['2026/03/05', undefined, '2026年03月05日'],
    ['2026-03-05 14:30:00', undefined, '2026年03月05日'],
    ['2026-03-05', 'YYYY-MM-DD', '2026-03-05'],
    ['2026-03-05', 'yyyy.MM.dd', '2026.03.05'],
    ['2026-03-05', 'YYYY年M月D日', '2026年3月5日'],
    ['not a date', undefined, ''],
  ])('%j with format %j shows %j', (value, format, shown) => {
    expect(formatDateDisplay(value, format)).toBe(shown);
  });

  it('shows a range with both bounds', () => {
    expect(formatDateRangeDisplay(['2026/01/01', '2026/03/31'])).toBe('2026年01月01日 ~ 2026年03月31日');
  });

  it('translates dayjs-style tokens', () => {
    expect(toLuxonFormat('YYYY-MM-DD HH:mm')).toBe('yyyy-MM-dd HH:mm');
  });
});
