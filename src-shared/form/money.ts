import Decimal from 'decimal.js';
import { formatMinorUnits, type Money } from '../domain/money';
import type { FormField, PrivateConfig } from './field-config';
import { fail, ok, type RuleResult } from './messages';
import { numberMaxLength } from './number-range';

// Money fields hold integer hundredths plus a unit (spec 3); everything here is decimal.js
// arithmetic on text, never floats. numberFormat and roundingWay values other than the spec's
// defaults (2 and 2) and percentages (5 and 6) are defined here: see numberFormats/roundingWays.

export const defaultNumberFormat = 2;
export const defaultRoundingWay = 2;

export interface NumberFormatRule {
  decimals: number;
  percent: boolean;
}

/** numberFormat → decimals shown; 5 and 6 are percentages (spec 9). */
export const numberFormats: Record<number, NumberFormatRule> = {
  1: { decimals: 0, percent: false },
  2: { decimals: 2, percent: false },
  3: { decimals: 3, percent: false },
  4: { decimals: 4, percent: false },
  5: { decimals: 0, percent: true },
  6: { decimals: 2, percent: true },
};

/** roundingWay → decimal.js rounding mode: 1 half up, 2 truncate, 3 away from zero. */
export const roundingWays: Record<number, Decimal.Rounding> = {
  1: Decimal.ROUND_HALF_UP,
  2: Decimal.ROUND_DOWN,
  3: Decimal.ROUND_UP,
};

export interface ResolvedNumberFormat extends NumberFormatRule {
  rounding: Decimal.Rounding;
}

export function resolveNumberFormat(config: PrivateConfig | undefined): ResolvedNumberFormat {
  const format = numberFormats[config?.numberFormat ?? defaultNumberFormat] ?? numberFormats[defaultNumberFormat]!;
  const rounding = roundingWays[config?.roundingWay ?? defaultRoundingWay] ?? roundingWays[defaultRoundingWay]!;
  return { ...format, rounding };
}

/** Rounds a value the way the field's privateConfig says (for calculated results). */
export function roundByConfig(value: Decimal.Value, config: PrivateConfig | undefined): Decimal {
  const { decimals, rounding } = resolveNumberFormat(config);
  return new Decimal(value).toDecimalPlaces(decimals, rounding);
}

/** A number as the field shows it: its decimals, and '%' after percentages. */
export function formatNumberByConfig(value: Decimal.Value, config: PrivateConfig | undefined): string {
  const { decimals, percent, rounding } = resolveNumberFormat(config);
  const text = new Decimal(value).toDecimalPlaces(decimals, rounding).toFixed(decimals);
  return percent ? `${text}%` : text;
}

/** Typed amount ('1,234.5') → hundredths; decimals beyond cents are cut; empty is no amount. */
export function parseAmountInput(text: string): RuleResult<number | null> {
  const cleaned = text.replace(/[,\s]/g, '');
  if (cleaned === '') return ok(null);
  if (!/^-?\d+(\.\d*)?$/.test(cleaned) || cleaned.length > numberMaxLength) return fail('invalidNumber');
  const hundredths = new Decimal(cleaned).times(100).toDecimalPlaces(0, Decimal.ROUND_DOWN);
  if (!hundredths.abs().lessThanOrEqualTo(Number.MAX_SAFE_INTEGER)) return fail('invalidNumber');
  return ok(hundredths.toNumber());
}

/** Hundredths → the text an amount input starts from ('1234.50'). */
export function amountToInput(amount: number | null | undefined): string {
  return amount == null ? '' : new Decimal(amount).dividedBy(100).toFixed(2);
}

const capitalDigits = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const placeUnits = ['', '拾', '佰', '仟'];
const groupUnits = ['', '万', '亿', '万亿'];

/** The whole-yuan part in capitals, with one 零 for each run of zeros inside the number. */
function yuanInWords(yuan: string): string {
  const groups: string[] = [];
  for (let end = yuan.length; end > 0; end -= 4) groups.unshift(yuan.slice(Math.max(0, end - 4), end).padStart(4, '0'));
  let words = '';
  let zeroPending = false;
  groups.forEach((group, index) => {
    const groupUnit = groupUnits[groups.length - 1 - index] ?? '';
    if (group === '0000') {
      zeroPending = words !== '';
      return;
    }
    [...group].forEach((digit, place) => {
      if (digit === '0') {
        zeroPending = zeroPending || words !== '';
        return;
      }
      if (zeroPending) words += '零';
      zeroPending = false;
      words += `${capitalDigits[Number(digit)]}${placeUnits[3 - place]}`;
    });
    words += groupUnit;
  });
  return words;
}

/**
 * A currency's own words for an amount in capitals (defined here): renminbi in 元, 角 and 分;
 * others in their major unit and their hundredth (美元 and 美分 for USD), so that a USD contract
 * never reads as yuan. A unit not listed reads by its code.
 */
const currencyWords: Record<string, { major: string; minor: string }> = {
  USD: { major: '美元', minor: '美分' },
  EUR: { major: '欧元', minor: '欧分' },
  HKD: { major: '港元', minor: '港仙' },
  JPY: { major: '日元', minor: '钱' },
};

/** Hundredths → the amount in Chinese capitals in the currency's words (壹佰元整, 叁元零伍分, 壹佰美元贰拾美分, 负…). */
export function amountInWords(amount: number, unit: string = 'CNY'): string {
  const value = new Decimal(amount);
  const sign = value.isNegative() && !value.isZero() ? '负' : '';
  const digits = value.abs().toFixed(0).padStart(3, '0');
  const yuan = digits.slice(0, -2).replace(/^0+/, '');
  const jiao = Number(digits.at(-2));
  const fen = Number(digits.at(-1));
  const words = unit === 'CNY' ? null : (currencyWords[unit] ?? { major: unit, minor: `${unit}/100` });
  const major = words?.major ?? '元';
  const yuanWords = yuan === '' ? '' : `${yuanInWords(yuan)}${major}`;
  if (jiao === 0 && fen === 0) return `${sign}${yuanWords || `零${major}`}整`;
  if (words) return `${sign}${yuanWords}${yuanInWords(String(jiao * 10 + fen))}${words.minor}`;
  const jiaoWords = jiao > 0 ? `${capitalDigits[jiao]}角` : yuanWords ? '零' : '';
  const fenWords = fen > 0 ? `${capitalDigits[fen]}分` : '';
  return `${sign}${yuanWords}${jiaoWords}${fenWords}`;
}

export interface MoneyDisplay {
  /** '1,234.50' */
  amount: string;
  /** The unit's label, when the field shows it (isWithUnit). */
  unit?: string;
  /** The amount in Chinese capitals, when the field shows it (isWordAmount). */
  words?: string;
}

/** How a money value reads in preview and beside the input. */
export function moneyDisplay(value: Money, field: Pick<FormField, 'fieldConfig'>, unitLabel: (unit: string) => string = (u) => u): MoneyDisplay {
  const money = field.fieldConfig?.money;
  return {
    amount: formatMinorUnits(value.amount),
    ...(money?.isWithUnit ? { unit: unitLabel(value.unit) } : {}),
    ...(money?.isWordAmount ? { words: amountInWords(value.amount, value.unit) } : {}),
  };
}
