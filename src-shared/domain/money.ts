import Decimal from 'decimal.js';
import { z } from 'zod';

// Money is an integer number of hundredths plus a currency unit (spec 3 and 9): no floats ever
// hold an amount, and display divides by 100 with decimal.js.

export const currencyUnits = ['CNY', 'USD', 'EUR', 'HKD', 'JPY'] as const;
export type CurrencyUnit = (typeof currencyUnits)[number];

export const moneySchema = z.object({
  amount: z.number().int().safe(),
  unit: z.string().min(1).max(16),
});
export type Money = z.infer<typeof moneySchema>;

/** "12345678" hundredths → "123,456.78" (grouped, two decimals). */
export function formatMinorUnits(amount: number): string {
  const value = new Decimal(amount).dividedBy(100).toFixed(2);
  const [whole = '0', fraction = '00'] = value.split('.');
  const negative = whole.startsWith('-');
  const digits = negative ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}.${fraction}`;
}

/** Amount shown divided by 100, formatted, followed by the unit (spec 3, cooperative info row). */
export function formatMoney(money: Money): string {
  return `${formatMinorUnits(money.amount)} ${money.unit}`;
}

/** A decimal amount in major units ("1234.5") → integer hundredths, rounding half up. */
export function toMinorUnits(major: Decimal.Value): number {
  return new Decimal(major).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}
