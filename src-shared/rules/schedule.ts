import Decimal from 'decimal.js';

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

/** The spec's 64-digit precision (spec 9), so shares of large totals stay exact before rounding. */
const Big = Decimal.clone({ precision: 64 });

// Days are whole numbers counted from 1970-01-01 (UTC), and calendar periods are found with
// Date.UTC: a plan of 24 months is generated several times per queued plan (the dialog, the
// core's check, its optimistic rows), and luxon's date objects took milliseconds for each.
const dayMs = 86_400_000;

/** The day number of a UTC calendar date (any year, unlike Date.UTC's two-digit ones). */
function dayNumber(year: number, monthIndex: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return Math.round(date.getTime() / dayMs);
}

function parseDay(value: string): number {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const [year, month, day] = (parts ?? []).slice(1).map(Number) as [number, number, number];
  const found = parts ? dayNumber(year, month - 1, day) : NaN;
  // A day past its month's end (2026-02-30) rolls over: not the date written.
  if (!parts || formatDay(found) !== value) throw new RangeError(`not a date (yyyy-MM-dd): ${value}`);
  return found;
}

function formatDay(day: number): string {
  const date = new Date(day * dayMs);
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}

/** The calendar period of `cycle` containing `day`: [first day, last day] (a month's last day is day 0 of the next). */
function calendarPeriod(day: number, cycle: ScheduleCycle): [number, number] {
  const date = new Date(day * dayMs);
  const [year, month] = [date.getUTCFullYear(), date.getUTCMonth()];
  const months = (first: number, count: number): [number, number] => [dayNumber(year, first, 1), dayNumber(year, first + count, 0)];
  switch (cycle) {
    case 'day':
      return [day, day];
    case 'week': {
      // ISO weeks start on Monday (getUTCDay: Sunday 0).
      const monday = day - ((date.getUTCDay() + 6) % 7);
      return [monday, monday + 6];
    }
    case 'month':
      return months(month, 1);
    case 'quarter':
      return months(month - (month % 3), 3);
    case 'halfYear':
      return months(month < 6 ? 0 : 6, 6);
    case 'year':
      return months(0, 12);
  }
}

/**
 * Splits [startDate, endDate] into calendar periods of `cycle` and the total among them. Throws a
 * RangeError for an end before the start, a negative or fractional amount, or too many periods.
 */
export function generatePeriodicSchedule(input: ScheduleInput): SchedulePeriod[] {
  const start = parseDay(input.startDate);
  const end = parseDay(input.endDate);
  if (end < start) throw new RangeError('the end date is before the start date');
  if (!Number.isSafeInteger(input.amount) || input.amount < 0) throw new RangeError('the amount must be whole hundredths, zero or more');

  const spans: { from: number; to: number; weight: Decimal }[] = [];
  for (let from = start; from <= end; ) {
    const [periodStart, periodEnd] = calendarPeriod(from, input.cycle);
    const to = Math.min(periodEnd, end);
    const weight = new Big(to - from + 1).dividedBy(periodEnd - periodStart + 1);
    spans.push({ from, to, weight });
    if (spans.length > maxSchedulePeriods) throw new RangeError(`more than ${maxSchedulePeriods} periods`);
    from = to + 1;
  }

  const amounts = apportion(input.amount, spans.map((s) => s.weight));
  return spans.map((span, i) => ({
    startDate: formatDay(span.from),
    endDate: formatDay(span.to),
    dueDate: formatDay(span.to),
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
