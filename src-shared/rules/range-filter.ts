import Decimal from 'decimal.js';

// A number or money range filter's bounds as the user types them (spec 5 "Generic form" number
// range, spec 9): at most 8 decimals (more are cut off), at most 15 characters, and the minimum
// never above the maximum. The ledger search refuses the same inverted range with the same message.

export const rangeDecimalsMax = 8;
export const rangeInputMax = 15;
export const rangeInvertedMessage = 'minimum cannot be greater than maximum' as const;

/** The typed text kept as a bound: a number's characters only, decimals past 8 cut off, 15 characters at most. */
export function rangeBoundText(typed: string): string {
  const kept = typed.trim().replace(/[^\d.-]/g, '');
  const negative = kept.startsWith('-');
  const [whole = '', ...rest] = kept.replace(/-/g, '').split('.');
  const decimals = rest.join('').slice(0, rangeDecimalsMax);
  const text = `${negative ? '-' : ''}${whole}${rest.length > 0 ? `.${decimals}` : ''}`;
  return text.slice(0, rangeInputMax);
}

/** A bound's value; undefined when it is empty or not (yet) a number, such as '-' or '.'. */
export function rangeBoundValue(text: string): Decimal | undefined {
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) return undefined;
  return new Decimal(text);
}

/** Why the two bounds cannot stand together; null when they can (either may be empty). */
export function rangeProblem(minimum: Decimal.Value | undefined, maximum: Decimal.Value | undefined): typeof rangeInvertedMessage | null {
  const bound = (value: Decimal.Value | undefined) => (value === undefined || value === '' ? undefined : new Decimal(value));
  const [low, high] = [bound(minimum), bound(maximum)];
  return low && high && low.greaterThan(high) ? rangeInvertedMessage : null;
}
