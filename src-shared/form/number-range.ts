import Decimal from 'decimal.js';
import { fail, formMessage, ok, type FormMessage, type RuleResult } from './messages';

// Spec 5 and 9: number inputs keep at most 8 decimals (truncated, never rounded) and 15
// characters; a range whose minimum exceeds its maximum loses the side just edited.

export const numberMaxDecimals = 8;
export const numberMaxLength = 15;

/**
 * What a number input keeps of the typed text: digits, one decimal point and a leading minus;
 * decimals cut (not rounded) to 8 and the whole cut to 15 characters. Partial input such as
 * '-' or '1.' survives so that typing can continue.
 */
export function sanitizeNumberInput(text: string): string {
  const negative = text.trimStart().startsWith('-');
  const [whole = '', ...rest] = text.replace(/[^\d.]/g, '').split('.');
  const hasPoint = rest.length > 0;
  const fraction = rest.join('').slice(0, numberMaxDecimals);
  const kept = `${negative ? '-' : ''}${whole}${hasPoint ? `.${fraction}` : ''}`;
  return kept.slice(0, numberMaxLength);
}

/** A finished number input as an exact decimal; empty text is no value. */
export function parseNumberInput(text: string): RuleResult<Decimal | null> {
  const trimmed = text.trim();
  if (trimmed === '') return ok(null);
  if (!/^-?\d+(\.\d+)?$/.test(trimmed)) return fail('invalidNumber');
  return ok(new Decimal(trimmed));
}

export interface NumberRange {
  min: string;
  max: string;
}

export interface NumberRangeChange {
  range: NumberRange;
  /** 'minimum cannot be greater than maximum' when the edited side was cleared. */
  message?: FormMessage;
}

/** Applies typing into one side of a number range (spec 5, "Number range"). */
export function changeNumberRange(range: NumberRange, side: keyof NumberRange, typed: string): NumberRangeChange {
  const next = { ...range, [side]: sanitizeNumberInput(typed) };
  const min = parseNumberInput(next.min);
  const max = parseNumberInput(next.max);
  if (min.ok && max.ok && min.value && max.value && min.value.greaterThan(max.value)) {
    return { range: { ...next, [side]: '' }, message: formMessage('minGreaterThanMax') };
  }
  return { range: next };
}
