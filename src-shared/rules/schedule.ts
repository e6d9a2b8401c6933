import Decimal from 'decimal.js';
import { DateTime } from 'luxon';

// Periodic schedule generation (spec 4 "Condition types", spec 9): a plan whose condition type is
// periodicity gets one task per calendar period between a start and an end date. Periods follow
// the calendar (ISO weeks from Monday, months, quarters, half-years, years), so the first and the
// last may be cut short; each period's share of the total is weighted by the fraction of its
// calendar period it covers (a full period weighs 1), and the shares are rounded to whole
// hundredths so that they add up to the total exactly.

export const scheduleCycles = ['day', 'week', 'month', 'quarter', 'halfYear', 'year'] as const;
export type ScheduleCycle = (typeof scheduleCycles)[number];

/** More periods than this is a mistake (a daily cycle over years), not a plan. */
export const maxSchedulePeriods = 1000;

export interface ScheduleInput {
  cycle: ScheduleCycle;
  /** yyyy-MM-dd, the first day covered. */
  startDate: string;
  /** yyyy-MM-dd, the last day covered (inclusive). */
  endDate: string;
  /** The total in integer hundredths (spec 9), zero or more. */
  amount: number;
}

export interface SchedulePeriod {
  /** yyyy-MM-dd, first and last day of the period, both included. */
  startDate: string;
  endDate: string;
  /** The due date of the period's task: its last day. */
  dueDate: string;
  /** Days covered / days of the whole calendar period. */
  weight: Decimal;
  /** This period's share of the total, in hundredths. */
  amount: number;
}

const isoDate = 'yyyy-MM-dd';

/** The spec's 64-digit precision (spec 9), so shares of large totals stay exact before rounding. */
const Big = Decimal.clone({ precision: 64 });

function parseDay(value: string): DateTime {
  const day = DateTime.fromFormat(value, isoDate, { zone: 'utc' });
  if (!day.isValid) throw new RangeError(`not a date (yyyy-MM-dd): ${value}`);
  return day;
}

/** The calendar period of `cycle` containing `day`: [first day, last day]. */
function calendarPeriod(day: DateTime, cycle: ScheduleCycle): [DateTime, DateTime] {
  switch (cycle) {
    case 'day':
      return [day, day];
    case 'week':
      return [day.startOf('week'), day.endOf('week').startOf('day')];
    case 'month':
      return [day.startOf('month'), day.endOf('month').startOf('day')];
    case 'quarter':
      return [day.startOf('quarter'), day.endOf('quarter').startOf('day')];
    case 'halfYear': {
      const start = day.set({ month: day.month <= 6 ? 1 : 7, day: 1 });
      return [start, start.plus({ months: 6 }).minus({ days: 1 })];
    }
    case 'year':
      return [day.startOf('year'), day.endOf('year').startOf('day')];
  }
}

const daysBetweenInclusive = (from: DateTime, to: DateTime) => Math.round(to.diff(from, 'days').days) + 1;

/**
 * Splits [startDate, endDate] into calendar periods of `cycle` and the total among them. Throws a
 * RangeError for an end before the start, a negative or fractional amount, or too many periods.
 */
export function generatePeriodicSchedule(input: ScheduleInput): SchedulePeriod[] {
  const start = parseDay(input.startDate);
  const end = parseDay(input.endDate);
  if (end < start) throw new RangeError('the end date is before the start date');
  if (!Number.isSafeInteger(input.amount) || input.amount < 0) throw new RangeError('the amount must be whole hundredths, zero or more');

  const spans: { from: DateTime; to: DateTime; weight: Decimal }[] = [];
  for (let from = start; from <= end; ) {
    const [periodStart, periodEnd] = calendarPeriod(from, input.cycle);
    const to = periodEnd < end ? periodEnd : end;
    const weight = new Big(daysBetweenInclusive(from, to)).dividedBy(daysBetweenInclusive(periodStart, periodEnd));
    spans.push({ from, to, weight });
    if (spans.length > maxSchedulePeriods) throw new RangeError(`more than ${maxSchedulePeriods} periods`);
    from = to.plus({ days: 1 });
  }

  const amounts = apportion(input.amount, spans.map((s) => s.weight));
  return spans.map((span, i) => ({
    startDate: span.from.toFormat(isoDate),
    endDate: span.to.toFormat(isoDate),
    dueDate: span.to.toFormat(isoDate),
    weight: span.weight,
    amount: amounts[i]!,
  }));
}

/**
 * Splits a whole `total` in proportion to `weights` into whole parts that add up to it exactly
 * (largest remainder: every part is its exact share rounded down or up, the earliest first on ties).
 */
export function apportion(total: number, weights: readonly Decimal[]): number[] {
  const sum = weights.reduce((acc, w) => acc.plus(w), new Big(0));
  if (sum.isZero()) return weights.map(() => 0);
  const exact = weights.map((w) => new Big(total).times(w).dividedBy(sum));
  const parts = exact.map((share) => share.floor().toNumber());
  let left = total - parts.reduce((acc, p) => acc + p, 0);
  const byRemainder = exact
    .map((share, i) => ({ i, remainder: share.minus(share.floor()) }))
    .sort((a, b) => b.remainder.comparedTo(a.remainder) || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}
