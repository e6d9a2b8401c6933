import Decimal from 'decimal.js';
import { z } from 'zod';
import { andMode, checkValueRange, rangeComparators, type RangeComparator, type ValueRangeRule } from '../form/performance-sheet';

// The value-range rule of number and money columns (spec 5 "Performance sheet and task forms"):
// conditions =, ≠, >, ≥, <, ≤ against constants, combined by and (mode 1) or by or (mode 2).
// A cell outside the rule, or a rule no value can meet, is 'value range invalid'.

export { andMode, rangeComparators, type RangeComparator, type ValueRangeRule };
export const orMode = 2;

/** The spec's message for a cell outside the rule and for a rule no value meets. */
export const valueRangeInvalid = 'value range invalid';

/** The comparators' signs, as the rule is written out for the user. */
export const comparatorSigns: Record<RangeComparator, string> = { equal: '=', notEqual: '≠', greater: '>', greaterOrEqual: '≥', less: '<', lessOrEqual: '≤' };

/** A bound: a decimal number with at most 8 decimals and 15 characters (spec 5, spec 9 "Number range"). */
export const rangeBoundSchema = z
  .string()
  .max(15)
  .regex(/^-?\d+(\.\d{1,8})?$/, valueRangeInvalid);

/** The smallest interval every condition of an and-rule leaves, and the points it rules out. */
interface Interval {
  low: Decimal | null;
  lowOpen: boolean;
  high: Decimal | null;
  highOpen: boolean;
  excluded: Decimal[];
}

function narrow(interval: Interval, comparator: RangeComparator, bound: Decimal): Interval {
  const raiseLow = (open: boolean) =>
    interval.low === null || bound.greaterThan(interval.low) || (bound.equals(interval.low) && open) ? { ...interval, low: bound, lowOpen: open } : interval;
  const lowerHigh = (open: boolean, from: Interval) =>
    from.high === null || bound.lessThan(from.high) || (bound.equals(from.high) && open) ? { ...from, high: bound, highOpen: open } : from;
  switch (comparator) {
    case 'equal':
      return lowerHigh(false, raiseLow(false));
    case 'notEqual':
      return { ...interval, excluded: [...interval.excluded, bound] };
    case 'greater':
      return raiseLow(true);
    case 'greaterOrEqual':
      return raiseLow(false);
    case 'less':
      return lowerHigh(true, interval);
    case 'lessOrEqual':
      return lowerHigh(false, interval);
  }
}

/** Whether some number meets the rule: an or-rule always can; an and-rule when its interval is not empty. */
export function valueRangeSatisfiable(rule: ValueRangeRule): boolean {
  // The schema runs this beside its own checks of the bounds: a malformed one is no rule.
  if (!rule.conditions.every((c) => rangeBoundSchema.safeParse(c.value).success)) return false;
  if (rule.mode !== andMode) return rule.conditions.length > 0;
  const start: Interval = { low: null, lowOpen: false, high: null, highOpen: false, excluded: [] };
  const { low, lowOpen, high, highOpen, excluded } = rule.conditions.reduce((interval, c) => narrow(interval, c.comparator, new Decimal(c.value)), start);
  if (low === null || high === null) return true;
  if (low.greaterThan(high)) return false;
  if (low.lessThan(high)) return true;
  // One point left: closed on both sides and not ruled out.
  return !lowOpen && !highOpen && !excluded.some((point) => point.equals(low));
}

/** A column's rule as stored: 1 to 10 conditions with well-formed bounds, that some number meets. */
export const valueRangeSchema = z
  .object({
    mode: z.union([z.literal(andMode), z.literal(orMode)]),
    conditions: z.array(z.object({ comparator: z.enum(rangeComparators), value: rangeBoundSchema }).strict()).min(1).max(10),
  })
  .strict()
  .refine(valueRangeSatisfiable, valueRangeInvalid);

/** Whether a number (money in major units) meets the rule. */
export const meetsValueRange = (value: Decimal.Value, rule: ValueRangeRule): boolean => checkValueRange(value, rule) === null;

/** The rule written out, e.g. "> 0 and ≤ 100" (the joining word in the user's language). */
export function valueRangeText(rule: ValueRangeRule, joiner: { and: string; or: string }): string {
  return rule.conditions.map((c) => `${comparatorSigns[c.comparator]} ${c.value}`).join(` ${rule.mode === andMode ? joiner.and : joiner.or} `);
}
