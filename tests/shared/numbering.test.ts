import { describe, expect, it } from 'vitest';
import { NumberDateFormat, ResetCycle } from '../../src-shared/domain/enums';
import {
  defaultNumberingRule,
  formatDatePart,
  formatNumber,
  formatSerial,
  periodKey,
  recountOf,
  serialsOver,
  type NumberingRule,
} from '../../src-shared/rules/numbering';
import { autoSelectedStatement, formValueIssues, isAlterable, selectableStatements, stripContractName } from '../../src-shared/rules/contract-forms';
import type { FieldConfig } from '../../src-shared/domain/contract-forms';

// 2026-11-21 12:00 UTC is 20:00 on Saturday 21 November in Beijing.
const at = new Date('2026-11-21T12:00:00Z');

describe('numbering rules', () => {
  it('has the spec defaults: digits 1, start 1, cycle never, restart 1, natural true', () => {
    expect(defaultNumberingRule).toEqual({ digits: 1, isNatural: true, startNumber: 1, resetStartNumber: 1, resetCycle: ResetCycle.Never });
    expect(recountOf(ResetCycle.Never)).toBe(true);
    expect(recountOf(ResetCycle.Month)).toBe(false);
  });

  it.each([
    { digits: 4, isNatural: false, serial: 7, expected: '0007' },
    { digits: 4, isNatural: false, serial: 12345, expected: '12345' },
    { digits: 1, isNatural: false, serial: 3, expected: '3' },
    { digits: 4, isNatural: true, serial: 7, expected: '7' },
    { digits: 9, isNatural: true, serial: 120, expected: '120' },
  ])('writes serial $serial with $digits digits, natural $isNatural, as $expected', ({ digits, isNatural, serial, expected }) => {
    expect(formatSerial({ digits, isNatural }, serial)).toBe(expected);
  });

  it.each([
    { format: NumberDateFormat.YearMonthDay, expected: '20261121' },
    { format: NumberDateFormat.YearMonth, expected: '202611' },
    { format: NumberDateFormat.MonthDay, expected: '1121' },
    { format: NumberDateFormat.Year, expected: '2026' },
    { format: null, expected: '' },
  ])('writes the date part of format $format as "$expected"', ({ format, expected }) => {
    expect(formatDatePart(format, at)).toBe(expected);
  });

  it('takes the date on the Beijing calendar (16:30 UTC on 31 December is already next year there)', () => {
    const newYear = new Date('2026-12-31T16:30:00Z');
    expect(formatDatePart(NumberDateFormat.YearMonthDay, newYear)).toBe('20270101');
    expect(periodKey(ResetCycle.Year, newYear)).toBe('2027');
  });

  it.each([
    { abbr: 'CG', dateFormat: NumberDateFormat.YearMonthDay, serial: 5, expected: 'CG-20261121-005' },
    { abbr: '', dateFormat: NumberDateFormat.Year, serial: 5, expected: '2026-005' },
    { abbr: 'HT', dateFormat: null, serial: 1234, expected: 'HT-1234' },
    { abbr: '', dateFormat: null, serial: 1, expected: '001' },
  ])('formats $abbr / $dateFormat / $serial as $expected', ({ abbr, dateFormat, serial, expected }) => {
    expect(formatNumber({ digits: 3, isNatural: false }, { abbr, dateFormat }, serial, at)).toBe(expected);
  });

  it.each([
    { cycle: ResetCycle.Never, expected: '' },
    { cycle: ResetCycle.Day, expected: '2026-11-21' },
    { cycle: ResetCycle.Week, expected: '2026-W47' },
    { cycle: ResetCycle.Month, expected: '2026-11' },
    { cycle: ResetCycle.Year, expected: '2026' },
  ])('puts the instant in period "$expected" for cycle $cycle', ({ cycle, expected }) => {
    expect(periodKey(cycle, at)).toBe(expected);
  });

  it('uses ISO weeks: 28 December 2026 is in week 53 of 2026, 4 January 2027 in week 1 of 2027', () => {
    expect(periodKey(ResetCycle.Week, new Date('2026-12-28T04:00:00Z'))).toBe('2026-W53');
    expect(periodKey(ResetCycle.Week, new Date('2027-01-04T04:00:00Z'))).toBe('2027-W01');
  });

  const days = ['2026-11-20T02:00:00Z', '2026-11-20T09:00:00Z', '2026-11-21T02:00:00Z', '2026-11-23T02:00:00Z', '2026-12-01T02:00:00Z', '2027-01-02T02:00:00Z'].map((d) => new Date(d));
  const rule = (resetCycle: ResetCycle): NumberingRule => ({ digits: 3, isNatural: false, startNumber: 100, resetStartNumber: 1, resetCycle });

  it.each([
    { cycle: ResetCycle.Never, expected: [100, 101, 102, 103, 104, 105] },
    { cycle: ResetCycle.Day, expected: [100, 101, 1, 1, 1, 1] },
    { cycle: ResetCycle.Week, expected: [100, 101, 102, 1, 1, 1] },
    { cycle: ResetCycle.Month, expected: [100, 101, 102, 103, 1, 1] },
    { cycle: ResetCycle.Year, expected: [100, 101, 102, 103, 104, 1] },
  ])('counts from the start number and restarts per cycle $cycle', ({ cycle, expected }) => {
    expect(serialsOver(rule(cycle), days)).toEqual(expected);
  });
});

describe('contract form rules', () => {
  const fields: FieldConfig[] = [
    { id: 'title', name: 'contract name', type: 'text', required: true, alterEditStatus: 2 },
    { id: 'parties', name: 'counterparty', type: 'inputSelectV2', required: true },
    { id: 'related', name: 'related contracts', type: 'relatedContracts', alterEditStatus: 2 },
    { id: 'bank', name: 'bank account', type: 'bankAccount', alterEditStatus: 2 },
    { id: 'amount', name: 'amount', type: 'money' },
    { id: 'file', name: 'attachment', type: 'upload', required: true, alterEditStatus: 2 },
    { id: 'price', name: 'price', type: 'number' },
    { id: 'area', name: 'area', type: 'number', rawType: 'numberRange', required: true },
  ];
  const party = (name: string) => ({ id: 0, name });
  const base = { title: 'x', parties: [party('a')], file: { id: 'f', name: 'f.pdf' }, area: { min: '1', max: '' } };

  it('strips \\ / : * ? " < > | and full-width ：？ from contract names', () => {
    expect(stripContractName('a\\b/c:d*e?f"g<h>i|j：k？l')).toBe('abcdefghijkl');
  });

  it.each([
    { values: base, messages: [] },
    { values: { ...base, title: '' }, messages: ['please enter contract name'] },
    { values: { ...base, file: null }, messages: ['please select attachment'] },
    { values: { ...base, parties: Array.from({ length: 11 }, (_, i) => party(`p${i}`)) }, messages: ['at most 10 parties can be added'] },
    { values: { ...base, related: [{ relationType: 1, relatedContracts: [{ contractName: 'a', relationshipID: 1 }] }] }, messages: ['related contracts must contain at least two items'] },
    { values: { ...base, bank: '12345678' }, messages: ['please enter 9-24 characters'] },
    { values: { ...base, bank: '1234-5678_9' }, messages: [] },
    { values: { ...base, bank: '123456789 0' }, messages: ['please enter 9-24 characters'] },
    { values: { ...base, amount: { amount: 1.5, unit: 'CNY' } }, messages: ['must be an amount in hundredths with a unit'] },
    { values: { ...base, other: 1 }, messages: ['is not a field of this form'] },
    // Numbers are kept as the form keeps them: decimal text (8 decimals, 15 characters) or a JSON number.
    { values: { ...base, price: '123456.12345678' }, messages: [] },
    { values: { ...base, price: -3.5 }, messages: [] },
    { values: { ...base, price: '1.123456789' }, messages: ['must be a number'] },
    { values: { ...base, price: '1e5' }, messages: ['must be a number'] },
    { values: { ...base, price: '1234567890123456' }, messages: ['must be a number'] },
    { values: { ...base, area: { min: '', max: '' } }, messages: ['please enter area'] },
    { values: { ...base, area: { min: '5.5', max: '10' } }, messages: [] },
    { values: { ...base, area: { min: '10', max: '9.99' } }, messages: ['minimum cannot be greater than maximum'] },
    { values: { ...base, area: { min: 'x', max: '1' } }, messages: ['must be a number range'] },
    { values: { ...base, area: { min: '1', max: '2', step: '1' } }, messages: ['must be a number range'] },
  ])('checks $values', ({ values, messages }) => {
    expect(formValueIssues(fields, values).map((issue) => issue.message)).toEqual(messages);
  });

  it('lets alteration change only fields with alterEditStatus 2, never uploads or the contract name', () => {
    expect(fields.filter(isAlterable).map((f) => f.id)).toEqual(['related', 'bank']);
  });

  it("offers 'do not show this clause' (id -1) only for a nullable clause with several statements, and auto-selects a single one", () => {
    const statement = (id: number) => ({ id, name: `s${id}`, content: [], fieldList: [], labelItemList: [] });
    expect(selectableStatements({ isNullable: true, statementList: [statement(1), statement(2)] }).map((s) => s.id)).toEqual([1, 2, -1]);
    expect(selectableStatements({ isNullable: true, statementList: [statement(1)] }).map((s) => s.id)).toEqual([1]);
    expect(selectableStatements({ isNullable: false, statementList: [statement(1), statement(2)] }).map((s) => s.id)).toEqual([1, 2]);
    expect(autoSelectedStatement({ statementList: [statement(7)] })?.id).toBe(7);
    expect(autoSelectedStatement({ statementList: [statement(1), statement(2)] })).toBeUndefined();
  });
});
