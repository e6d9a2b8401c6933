import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripContractName } from '../../../src-shared/form/contract-name';
import { changeNumberRange, parseNumberInput, sanitizeNumberInput } from '../../../src-shared/form/number-range';

describe('number input', () => {
  it.each([
    ['1.123456789', '1.12345678'],
    ['1.999999999', '1.99999999'],
    ['-0.000000019', '-0.00000001'],
    ['12a3.4b5', '123.45'],
    ['1.2.3', '1.23'],
    ['1.', '1.'],
    ['-', '-'],
    ['1234567890123456789', '123456789012345'],
    ['12345678901.123456789', '12345678901.123'],
  ])('%j keeps %j (8 decimals truncated, 15 characters)', (typed, kept) => {
    expect(sanitizeNumberInput(typed)).toBe(kept);
  });

  it('never keeps more than 8 decimals or 15 characters, and never rounds', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', 'x') }), (typed) => {
        const kept = sanitizeNumberInput(typed);
        expect(kept.length).toBeLessThanOrEqual(15);
        expect((kept.split('.')[1] ?? '').length).toBeLessThanOrEqual(8);
        expect(kept.replace('-', '').replace('.', '')).toBe(typed.replace(/[^\d]/g, '').slice(0, kept.replace('-', '').replace('.', '').length));
      }),
    );
  });

  it.each([
    ['', null],
    ['  ', null],
    ['12.5', '12.5'],
    ['-3', '-3'],
  ])('%j parses to %j', (text, expected) => {
    const parsed = parseNumberInput(text);
    expect(parsed.ok && (parsed.value?.toString() ?? null)).toBe(expected);
  });

  it.each(['1.', '-', 'abc', '1e5'])('%j is not a number', (text) => {
    const parsed = parseNumberInput(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message.key).toBe('invalidNumber');
  });
});

describe('number range', () => {
  it.each([
    ['min below max', { min: '', max: '10' }, 'min', '5', { min: '5', max: '10' }, undefined],
    ['equal bounds', { min: '', max: '10' }, 'min', '10', { min: '10', max: '10' }, undefined],
    ['min above max clears min', { min: '1', max: '10' }, 'min', '11', { min: '', max: '10' }, 'The minimum cannot be greater than the maximum'],
    ['max below min clears max', { min: '5', max: '' }, 'max', '4.99999999', { min: '5', max: '' }, 'The minimum cannot be greater than the maximum'],
    ['one side empty', { min: '', max: '' }, 'max', '-1', { min: '', max: '-1' }, undefined],
    ['partial input is kept', { min: '1', max: '' }, 'max', '1.', { min: '1', max: '1.' }, undefined],
    ['decimals truncated before comparing', { min: '1.00000001', max: '' }, 'max', '1.000000009', { min: '1.00000001', max: '' }, 'The minimum cannot be greater than the maximum'],
  ] as const)('%s', (_, range, side, typed, expected, message) => {
    const change = changeNumberRange(range, side, typed);
    if (message) {
      expect(change.message?.text).toBe(message);
      expect(change.range[side]).toBe('');
      expect(change.range[side === 'min' ? 'max' : 'min']).toBe(range[side === 'min' ? 'max' : 'min']);
    } else {
      expect(change).toEqual({ range: expected });
    }
  });
});

describe('contract name', () => {
  it.each([
    ['a\\b/c:d*e?f"g<h>i|j', 'abcdefghij'],
    ['采购合同：第一批？', '采购合同第一批'],
    ['plain name 2026', 'plain name 2026'],
    ['：？', ''],
  ])('%j is typed as %j', (typed, kept) => {
    expect(stripContractName(typed)).toBe(kept);
  });
});
