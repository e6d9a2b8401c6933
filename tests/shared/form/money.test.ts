import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountInWords,
  amountToInput,
  formatNumberByConfig,
  moneyDisplay,
  parseAmountInput,
  resolveNumberFormat,
  roundByConfig,
} from '../../../src-shared/form/money';

describe('amount input ↔ hundredths', () => {
  it.each([
    ['', null],
    ['0', 0],
    ['1', 100],
    ['0.1', 10],
    ['0.29', 29],
    ['1,234.56', 123456],
    ['1234.567', 123456],
    ['-12.5', -1250],
    ['12.', 1200],
  ])('%j → %j hundredths', (typed, hundredths) => {
    expect(parseAmountInput(typed)).toEqual({ ok: true, value: hundredths });
  });

  it.each(['abc', '1.2.3', '1e3', '9999999999999999'])('%j is refused', (typed) => {
    const parsed = parseAmountInput(typed);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message.key).toBe('invalidNumber');
  });

  it('round-trips every amount exactly (no float drift)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (amount) => {
        expect(parseAmountInput(amountToInput(amount))).toEqual({ ok: true, value: amount });
      }),
    );
  });

  it('starts an empty input from no amount', () => {
    expect(amountToInput(null)).toBe('');
    expect(amountToInput(5)).toBe('0.05');
  });
});

describe('amount in words', () => {
  it.each([
    [0, '零元整'],
    [100, '壹元整'],
    [1000, '壹拾元整'],
    [150, '壹元伍角'],
    [105, '壹元零伍分'],
    [5, '伍分'],
    [50, '伍角'],
    [123456, '壹仟贰佰叁拾肆元伍角陆分'],
    [1001000, '壹万零壹拾元整'],
    [10000000000, '壹亿元整'],
    [10000000100, '壹亿零壹元整'],
    [10001000000, '壹亿零壹万元整'],
    [100000000, '壹佰万元整'],
    [100000100, '壹佰万零壹元整'],
    [-250, '负贰元伍角'],
    [1000000000000000, '壹拾万亿元整'],
  ])('%i hundredths → %s', (amount, words) => {
    expect(amountInWords(amount)).toBe(words);
  });

  it.each([
    [10000, 'CNY', '壹佰元整'],
    [10000, 'USD', '壹佰美元整'],
    [12345, 'USD', '壹佰贰拾叁美元肆拾伍美分'],
    [5, 'USD', '伍美分'],
    [0, 'USD', '零美元整'],
    [100050, 'EUR', '壹仟欧元伍拾欧分'],
    [-2000, 'HKD', '负贰拾港元整'],
    [300, 'JPY', '叁日元整'],
    [100, 'XYZ', '壹XYZ整'],
  ])('%i hundredths of %s in its own words → %s', (amount, unit, words) => {
    expect(amountInWords(amount, unit)).toBe(words);
  });

  it('shows the words of the value’s own currency in preview', () => {
    expect(moneyDisplay({ amount: 10000, unit: 'USD' }, { fieldConfig: { money: { isWordAmount: true } } }).words).toBe('壹佰美元整');
  });
});

describe('number format and rounding way', () => {
  it('defaults to numberFormat 2 and roundingWay 2', () => {
    expect(resolveNumberFormat(undefined)).toEqual(resolveNumberFormat({ numberFormat: 2, roundingWay: 2 }));
    expect(resolveNumberFormat({ numberFormat: 99, roundingWay: 99 })).toEqual(resolveNumberFormat({}));
  });

  it.each([
    ['1.239', undefined, '1.23'],
    ['1.239', { roundingWay: 1 }, '1.24'],
    ['1.231', { roundingWay: 3 }, '1.24'],
    ['1.5', { numberFormat: 1, roundingWay: 1 }, '2'],
    ['12.345', { numberFormat: 5, roundingWay: 1 }, '12%'],
    ['12.345', { numberFormat: 6 }, '12.34%'],
    ['-1.239', { numberFormat: 2 }, '-1.23'],
    ['0.1', { numberFormat: 4 }, '0.1000'],
  ])('%s with %j shows %s', (value, config, shown) => {
    expect(formatNumberByConfig(value, config)).toBe(shown);
  });

  it('rounds calculated values the same way', () => {
    expect(roundByConfig('2.675', { roundingWay: 1 }).toString()).toBe('2.68');
  });
});

describe('money display', () => {
  it.each([
    [{}, { amount: '1,234,567.80' }],
    [{ money: { isWithUnit: true } }, { amount: '1,234,567.80', unit: '人民币' }],
    [{ money: { isWordAmount: true } }, { amount: '1,234,567.80', words: '壹佰贰拾叁万肆仟伍佰陆拾柒元捌角' }],
  ])('with %j', (fieldConfig, expected) => {
    expect(moneyDisplay({ amount: 123456780, unit: 'CNY' }, { fieldConfig }, (u) => (u === 'CNY' ? '人民币' : u))).toEqual(expected);
  });
});
