import { z } from 'zod';

/**
 * A calendar day "yyyy-MM-dd" that exists (spec 9 value format), from year 1: PostgreSQL's date
 * has no year 0, and a day like 2025-02-30 must be refused, not stored as something else.
 */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date yyyy-MM-dd')
  .refine(isCalendarDay, 'must be a date yyyy-MM-dd');

/**
 * Whether "yyyy-MM-dd" names a day of the proleptic Gregorian calendar from year 1. By hand, not
 * through a date library: a first sync checks a due date on each of 200,000 tasks.
 */
function isCalendarDay(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= days;
}
