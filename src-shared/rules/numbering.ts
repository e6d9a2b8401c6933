import { DateTime } from 'luxon';
import { NumberDateFormat, ResetCycle } from '../domain/enums';

// Contract and template numbers (spec 3 "Numbering rule", spec 4 "Numbering enums"): a pure
// formatter, so the server allocator, the rule preview and the tests share one definition.
// A number is the abbreviation, the date part and the serial, joined by '-' (empty parts left out).

/** The organisation works in Beijing: periods and date parts are taken on its calendar. */
export const numberingZone = 'Asia/Shanghai';

export interface NumberingRule {
  /** Minimum width of the serial when it is not natural (zero padded). */
  digits: number;
  /** Natural: the serial is written as is (1, 2 … 10); otherwise zero padded to `digits`. */
  isNatural: boolean;
  /** The first serial ever handed out. */
  startNumber: number;
  /** The first serial of every later period, after a reset. */
  resetStartNumber: number;
  resetCycle: ResetCycle;
}

export interface NumberPrefix {
  /** The abbreviation, e.g. 'HT'; empty when none is set. */
  abbr: string;
  /** The date part's format; null leaves the date out. */
  dateFormat: NumberDateFormat | null;
}

/** The spec's defaults: digits 1, start 1, cycle never, restart 1, natural true. */
export const defaultNumberingRule: NumberingRule = {
  digits: 1,
  isNatural: true,
  startNumber: 1,
  resetStartNumber: 1,
  resetCycle: ResetCycle.Never,
};

/** When the cycle is never, recount is true (spec 3): the serial simply keeps counting. */
export function recountOf(resetCycle: ResetCycle): boolean {
  return resetCycle === ResetCycle.Never;
}

const dateFormatPatterns: Record<NumberDateFormat, string> = {
  [NumberDateFormat.YearMonthDay]: 'yyyyMMdd',
  [NumberDateFormat.YearMonth]: 'yyyyMM',
  [NumberDateFormat.MonthDay]: 'MMdd',
  [NumberDateFormat.Year]: 'yyyy',
};

const periodPatterns: Record<ResetCycle, string | null> = {
  [ResetCycle.Never]: null,
  [ResetCycle.Day]: 'yyyy-MM-dd',
  // ISO week-year and week: the last days of December may belong to week 1 of the next year.
  [ResetCycle.Week]: "kkkk-'W'WW",
  [ResetCycle.Month]: 'yyyy-MM',
  [ResetCycle.Year]: 'yyyy',
};

function local(at: Date): DateTime {
  return DateTime.fromJSDate(at, { zone: numberingZone });
}

/** The reset period `at` falls in ('' for never): one counter per rule, scope and period. */
export function periodKey(resetCycle: ResetCycle, at: Date): string {
  const pattern = periodPatterns[resetCycle];
  return pattern === null ? '' : local(at).toFormat(pattern);
}

/** The serial as written: natural, or zero padded to `digits` (a longer serial is never cut). */
export function formatSerial(rule: Pick<NumberingRule, 'digits' | 'isNatural'>, serial: number): string {
  const text = String(serial);
  return rule.isNatural ? text : text.padStart(rule.digits, '0');
}

export function formatDatePart(dateFormat: NumberDateFormat | null, at: Date): string {
  return dateFormat === null ? '' : local(at).toFormat(dateFormatPatterns[dateFormat]);
}

/** The whole number: abbreviation, date part and serial. */
export function formatNumber(rule: Pick<NumberingRule, 'digits' | 'isNatural'>, prefix: NumberPrefix, serial: number, at: Date): string {
  return [prefix.abbr, formatDatePart(prefix.dateFormat, at), formatSerial(rule, serial)].filter((part) => part !== '').join('-');
}

/**
 * The serial the counter of a period starts at: the start number for the rule's first period,
 * the restart number for every period after a reset.
 */
export function firstSerial(rule: Pick<NumberingRule, 'startNumber' | 'resetStartNumber'>, isFirstPeriod: boolean): number {
  return isFirstPeriod ? rule.startNumber : rule.resetStartNumber;
}

/** The serials handed out one after another in the periods of `dates` (a model of the allocator). */
export function serialsOver(rule: NumberingRule, dates: readonly Date[]): number[] {
  const last = new Map<string, number>();
  return dates.map((at) => {
    const period = periodKey(rule.resetCycle, at);
    const previous = last.get(period);
    const serial = previous === undefined ? firstSerial(rule, last.size === 0) : previous + 1;
    last.set(period, serial);
    return serial;
  });
}
