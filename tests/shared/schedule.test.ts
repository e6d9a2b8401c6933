import Decimal from 'decimal.js';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { apportion, generatePeriodicSchedule, scheduleCycles, type ScheduleInput } from '../../src-shared/rules/schedule';

const day = (iso: string) => DateTime.fromISO(iso, { zone: 'utc' });
const dayAfter = (iso: string) => day(iso).plus({ days: 1 }).toISODate();

/** A start date in 2000–2039 and a span that keeps even a daily cycle under the period limit. */
const inputs: fc.Arbitrary<ScheduleInput> = fc
  .record({
    cycle: fc.constantFrom(...scheduleCycles),
    start: fc.integer({ min: 0, max: 40 * 365 }),
    span: fc.integer({ min: 0, max: 3 * 365 }),
    amount: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 2 ** 50 })),
  })
  .map(({ cycle, start, span, amount }) => {
    const from = day('2000-01-01').plus({ days: start });
    const days = cycle === 'day' ? Math.min(span, 900) : span;
    return { cycle, amount, startDate: from.toISODate()!, endDate: from.plus({ days }).toISODate()! };
  });

describe('periodic schedule generation', () => {
  it('parts sum exactly to the total', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const periods = generatePeriodicSchedule(input);
        expect(periods.reduce((sum, p) => sum + p.amount, 0)).toBe(input.amount);
        expect(periods.every((p) => Number.isInteger(p.amount) && p.amount >= 0)).toBe(true);
      }),
    );
  });

  it('periods tile [start, end] without gaps or overlaps, each inside one calendar period', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const periods = generatePeriodicSchedule(input);
        expect(periods[0]!.startDate).toBe(input.startDate);
        expect(periods.at(-1)!.endDate).toBe(input.endDate);
        periods.forEach((p, i) => {
          expect(p.startDate <= p.endDate).toBe(true);
          expect(p.dueDate).toBe(p.endDate);
          if (i > 0) expect(p.startDate).toBe(dayAfter(periods[i - 1]!.endDate));
          // Only the first and the last period may be partial.
          if (i > 0 && i < periods.length - 1) expect(p.weight.equals(1)).toBe(true);
        });
      }),
    );
  });

  it('prorates by days: every part is its exact day-weighted share, rounded to a neighbouring hundredth', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const periods = generatePeriodicSchedule(input);
        const totalWeight = periods.reduce((sum, p) => sum.plus(p.weight), new Decimal(0));
        for (const p of periods) {
          const exact = new Decimal(input.amount).times(p.weight).dividedBy(totalWeight);
          expect(exact.minus(p.amount).abs().lessThan(1)).toBe(true);
        }
      }),
    );
  });

  it("finds luxon's calendar periods, in any year, and refuses days that are not dates", () => {
    // The rule counts days as numbers (luxon was too slow for it): the periods are luxon's.
    const units = { day: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year' } as const;
    const luxonPeriods = ({ cycle, startDate, endDate }: ScheduleInput) => {
      const periods: [string, string][] = [];
      for (let from = day(startDate); from <= day(endDate); ) {
        const first = cycle === 'halfYear' ? from.set({ month: from.month <= 6 ? 1 : 7 }).startOf('month') : from.startOf(units[cycle]);
        const last = cycle === 'halfYear' ? first.plus({ months: 6 }).minus({ days: 1 }) : from.endOf(units[cycle]).startOf('day');
        const to = last < day(endDate) ? last : day(endDate);
        periods.push([from.toISODate()!, to.toISODate()!]);
        from = to.plus({ days: 1 });
      }
      return periods;
    };
    const anyYear = fc.record({ input: inputs, years: fc.integer({ min: -1900, max: 7900 }) }).map(({ input, years }) => ({
      ...input,
      startDate: day(input.startDate).plus({ years }).toISODate()!,
      endDate: day(input.endDate).plus({ years }).toISODate()!,
    }));
    fc.assert(
      fc.property(anyYear, (input) => {
        expect(generatePeriodicSchedule(input).map((p) => [p.startDate, p.endDate])).toEqual(luxonPeriods(input));
      }),
    );
    for (const bad of ['2026-02-30', '2026-13-01', '2026-1-05', '26-01-05', '2026-01-05T00:00', '']) {
      expect(() => generatePeriodicSchedule({ cycle: 'day', startDate: bad, endDate: '2026-12-31', amount: 0 })).toThrow(RangeError);
    }
    expect(generatePeriodicSchedule({ cycle: 'month', startDate: '2028-02-10', endDate: '2028-03-01', amount: 0 }).map((p) => p.endDate)).toEqual(['2028-02-29', '2028-03-01']);
  });

  it('splits a year of months with partial first and last months by days', () => {
    const periods = generatePeriodicSchedule({ cycle: 'month', startDate: '2026-01-16', endDate: '2026-03-15', amount: 200_000 });
    expect(periods.map((p) => [p.startDate, p.endDate])).toEqual([
      ['2026-01-16', '2026-01-31'],
      ['2026-02-01', '2026-02-28'],
      ['2026-03-01', '2026-03-15'],
    ]);
    // Weights 16/31, 1, 15/31: a full month gets 200000 / (1 + 31/31) = 100000.
    expect(periods.map((p) => p.amount)).toEqual([51_613, 100_000, 48_387]);
  });

  it('uses ISO weeks, calendar quarters and half-years', () => {
    expect(generatePeriodicSchedule({ cycle: 'week', startDate: '2026-11-18', endDate: '2026-11-30', amount: 0 }).map((p) => p.endDate))
      .toEqual(['2026-11-22', '2026-11-29', '2026-11-30']);
    expect(generatePeriodicSchedule({ cycle: 'quarter', startDate: '2026-02-01', endDate: '2026-12-31', amount: 0 }).map((p) => p.startDate))
      .toEqual(['2026-02-01', '2026-04-01', '2026-07-01', '2026-10-01']);
    expect(generatePeriodicSchedule({ cycle: 'halfYear', startDate: '2026-05-01', endDate: '2027-01-01', amount: 100 }).map((p) => [p.endDate, p.amount]))
      .toEqual([['2026-06-30', 25], ['2026-12-31', 75], ['2027-01-01', 0]]);
  });

  it('refuses an end before the start, fractional amounts and runaway period counts', () => {
    expect(() => generatePeriodicSchedule({ cycle: 'day', startDate: '2026-02-02', endDate: '2026-02-01', amount: 1 })).toThrow(RangeError);
    expect(() => generatePeriodicSchedule({ cycle: 'day', startDate: '2026-02-01', endDate: '2026-02-01', amount: 1.5 })).toThrow(RangeError);
    expect(() => generatePeriodicSchedule({ cycle: 'day', startDate: '2020-01-01', endDate: '2026-01-01', amount: 1 })).toThrow(RangeError);
  });

  it('apportions by largest remainder', () => {
    expect(apportion(10, [new Decimal(1), new Decimal(1), new Decimal(1)])).toEqual([4, 3, 3]);
    expect(apportion(5, [])).toEqual([]);
  });
});
