import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isoDateSchema } from '../../src-shared/domain/dates';

// The day check is written by hand (a first sync checks 200,000 due dates): it must accept and
// refuse exactly what the calendar of a date library does, from year 1.

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const byLibrary = (value: string) => {
  const day = DateTime.fromISO(value, { zone: 'utc' });
  return day.isValid && day.year >= 1;
};

describe('isoDateSchema', () => {
  it('accepts a day exactly when the calendar has it: leap years, month lengths, year 0, months and days out of range', () => {
    const text = fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 39 })).map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
    fc.assert(
      fc.property(text, (value) => {
        expect(isoDateSchema.safeParse(value).success).toBe(byLibrary(value));
      }),
      { numRuns: 20_000, seed: 20261124 },
    );
    for (const value of ['2024-02-29', '2000-02-29', '0004-02-29', '0001-01-01', '9999-12-31']) expect(isoDateSchema.safeParse(value).success).toBe(true);
    for (const value of ['1900-02-29', '2023-02-29', '0000-01-01', '2025-04-31', '2025-13-01', '2025-00-10', '2025-01-00', '2025-1-01', '20250101', ' 2025-01-01']) {
      expect(isoDateSchema.safeParse(value).success).toBe(false);
    }
  });
});
