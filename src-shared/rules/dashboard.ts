import { DateTime } from 'luxon';

// The performance dashboard's ranges (spec 2, spec 9): the reminder board by week covers today and
// the 6 days after it, by month 30 days from today; the counts take any range up to a year.

export const boardViews = ['week', 'month'] as const;
export type BoardView = (typeof boardViews)[number];

const boardDays: Record<BoardView, number> = { week: 7, month: 30 };

/** The longest range the counts and the board take (a year), so one call stays small. */
export const maxDashboardDays = 366;

export const addDays = (day: string, days: number): string => DateTime.fromISO(day, { zone: 'utc' }).plus({ days }).toISODate()!;

const dayMs = 86_400_000;

/** The days from `startDate` to `endDate`, both included. */
export function daysOf(range: { startDate: string; endDate: string }): string[] {
  // Plain UTC milliseconds (no DST, every day 86,400,000 ms): the board asks for this on every read.
  const days: string[] = [];
  const end = Date.parse(`${range.endDate}T00:00:00Z`);
  for (let at = Date.parse(`${range.startDate}T00:00:00Z`); at <= end; at += dayMs) days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

/** The board's range for a view, from `today` (yyyy-MM-dd in the organisation's calendar). */
export function boardRange(view: BoardView, today: string): { startDate: string; endDate: string } {
  return { startDate: today, endDate: addDays(today, boardDays[view] - 1) };
}

/** The number of days of a range, both ends included. */
export function rangeDays(range: { startDate: string; endDate: string }): number {
  return DateTime.fromISO(range.endDate, { zone: 'utc' }).diff(DateTime.fromISO(range.startDate, { zone: 'utc' }), 'days').days + 1;
}

/** Where a task opens (spec 2): its contract's performance tab; a quick task has no contract and none. */
export function taskRoute(contractId: string | null): string | null {
  if (contractId === null) return null;
  return `/contractApproval/detail?id=${encodeURIComponent(contractId)}&flowId=0&tab=PERFORMANCE_TAB&active=0`;
}
