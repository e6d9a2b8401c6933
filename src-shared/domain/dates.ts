import { DateTime } from 'luxon';
import { z } from 'zod';

/**
 * A calendar day "yyyy-MM-dd" that exists (spec 9 value format), from year 1: PostgreSQL's date
 * has no year 0, and a day like 2025-02-30 must be refused, not stored as something else.
 */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date yyyy-MM-dd')
  .refine((value) => {
    const day = DateTime.fromISO(value, { zone: 'utc' });
    return day.isValid && day.year >= 1;
  }, 'must be a date yyyy-MM-dd');
