import { describe, expect, it } from 'vitest';
import type { FormMode } from '../../../src-shared/domain/enums';
import {
  addRow,
  canDeleteRow,
  checkValueRange,
  columnMinWidth,
  columnPlaceholder,
  cooperationAmount,
  cooperationTable,
  cooperationViewLink,
  deleteRow,
  fullScreenDialogWidth,
  nextRowIndex,
  tableHeight,
  validateSheet,
  type CooperativeInfoRow,
  type SheetColumn,
  type ValueRangeRule,
} from '../../../src-shared/form/performance-sheet';
import { checkSpecRoute } from '../../../src-shared/routes';

const columns: SheetColumn[] = [
  { id: 'index', name: 'index', type: 'index' },
  { id: 'id', name: 'id', type: 'id' },
  { id: 'content', name: 'performance content', type: 'text', isRequired: true },
  { id: 'amount', name: 'payment amount', type: 'money', isRequired: true, config: { valueRange: { mode: 1, conditions: [{ comparator: 'greater', value: '0' }, { comparator: 'lessOrEqual', value: '1000' }] } } },
  { id: 'time', name: 'receivable time', type: 'performanceTime' },
  { id: 'ratio', name: 'ratio', type: 'number', config: { valueRange: { mode: 2, conditions: [{ comparator: 'equal', value: '0' }, { comparator: 'greaterOrEqual', value: '50' }] } } },
  { id: 'due', name: 'due date', type: 'date' },
];
const row = (index: number, content = 'deliver', amount: unknown = { amount: 100, unit: 'CNY' }, time: unknown = { kind: 'date', date: '2026-05-01' }, ratio: unknown = null, due: unknown = null) => [
  index,
  `task-${index}`,
  content,
  amount,
  time,
  ratio,
  due,
];

describe('rows', () => {
  it.each([
    [[], 1],
    [[row(1)], 2],
    [[row(1), row(7), row(3)], 8],
  ])('after %j the new index is %i', (rows, next) => {
    expect(nextRowIndex(columns, rows)).toBe(next);
  });

  it('adds an empty row numbered max + 1', () => {
    expect(addRow(columns, [row(4)]).at(-1)).toEqual([5, null, null, null, null, null, null]);
  });

  it.each<[number, FormMode, boolean]>([
    [1, 'edit', false],
    [2, 'edit', true],
    [1, 'preview', true],
    [0, 'edit', false],
  ])('%i rows in %s mode: a row can be deleted %s', (count, mode, allowed) => {
    const rows = Array.from({ length: count }, (_, i) => row(i + 1));
    expect(canDeleteRow(rows, mode)).toBe(allowed);
    expect(deleteRow(rows, 0, mode)).toHaveLength(allowed ? count - 1 : count);
  });
});

describe('layout', () => {
  it.each([
    [6, '50%'],
    [7, '85%'],
    [1, '50%'],
  ])('%i columns → dialog width %s', (count, width) => {
    expect(fullScreenDialogWidth(count)).toBe(width);
  });

  it.each([
    [0, 100],
    [1, 100],
    [2, 200],
    [5, 200],
    [6, 300],
    [500, 300],
  ])('%i rows → height %i', (count, height) => {
    expect(tableHeight(count)).toBe(height);
  });

  it.each([
    ['receivable time', 300],
    ['payable time', 300],
    ['应付时间', 300],
    ['performance content', 190],
  ])('column %s is at least %i wide', (name, width) => {
    expect(columnMinWidth({ name })).toBe(width);
  });

  it.each<[SheetColumn['type'], string]>([
    ['text', 'Please fill in performance content'],
    ['date', 'Please fill in performance content'],
    ['money', 'Please enter the payment amount'],
  ])('%s placeholder reads %j', (type, text) => {
    expect(columnPlaceholder({ name: 'performance content', type }).text).toBe(text);
  });
});

describe('value range', () => {
  const rule = (mode: number, ...conditions: [ValueRangeRule['conditions'][number]['comparator'], string][]): ValueRangeRule => ({
    mode,
    conditions: conditions.map(([comparator, value]) => ({ comparator, value })),
  });
  it.each<[string, ValueRangeRule, string, boolean]>([
    ['equal', rule(1, ['equal', '5']), '5.0', true],
    ['equal fails', rule(1, ['equal', '5']), '5.01', false],
    ['not equal', rule(1, ['notEqual', '5']), '4', true],
    ['greater', rule(1, ['greater', '5']), '5', false],
    ['greater or equal', rule(1, ['greaterOrEqual', '5']), '5', true],
    ['less', rule(1, ['less', '5']), '4.99999999', true],
    ['less or equal', rule(1, ['lessOrEqual', '5']), '5.00000001', false],
    ['and: inside', rule(1, ['greater', '0'], ['less', '10']), '3', true],
    ['and: outside', rule(1, ['greater', '0'], ['less', '10']), '10', false],
    ['or: either', rule(2, ['less', '0'], ['greater', '10']), '11', true],
    ['or: neither', rule(2, ['less', '0'], ['greater', '10']), '5', false],
    ['no conditions', rule(1), '5', true],
    ['exact decimals', rule(1, ['equal', '0.3']), '0.30', true],
  ])('%s', (_, r, value, passes) => {
    expect(checkValueRange(value, r)?.text ?? null).toBe(passes ? null : 'The value range is invalid');
  });
});

describe('sheet validation', () => {
  it.each<[string, unknown[], string[]]>([
    ['a complete row', row(1), []],
    ['required text empty', row(1, ''), ['0.content: Please enter performance content']],
    ['money 0', row(1, 'x', { amount: 0, unit: 'CNY' }), ['0.amount: Please enter payment amount']],
    ['money empty', row(1, 'x', null), ['0.amount: Please enter payment amount']],
    ['money outside its range', row(1, 'x', { amount: 100001, unit: 'CNY' }), ['0.amount: The value range is invalid']],
    ['money at the top of its range', row(1, 'x', { amount: 100000, unit: 'CNY' }), []],
    ['condition time missing', row(1, 'x', undefined, { kind: 'condition', node: 'signing', days: null }), ['0.time: Please enter the condition time']],
    ['date time missing', row(1, 'x', undefined, { kind: 'date', date: '' }), ['0.time: Please enter the date and time']],
    ['no performance time', row(1, 'x', undefined, null), ['0.time: Please enter the date and time']],
    ['number outside an or-range', row(1, 'x', undefined, undefined, '20'), ['0.ratio: The value range is invalid']],
    ['number inside an or-range', row(1, 'x', undefined, undefined, 0), []],
    ['text over 1000', row(1, 'x'.repeat(1001)), ['0.content: At most 1000 characters']],
    ['Invalid date', row(1, 'x', undefined, undefined, null, '2026-02-30'), ['0.due: Invalid date']],
  ])('%s', (_, r, issues) => {
    expect(validateSheet(columns, [r]).map((i) => `${i.field}: ${i.message.text}`)).toEqual(issues);
  });

});

describe('Cooperation information', () => {
  const rows: CooperativeInfoRow[] = Array.from({ length: 4 }, (_, i) => ({
    contractID: `c${i}`,
    updateTime: '2026-01-01',
    state: 1,
    amount: { amount: 123456789, unit: 'CNY' },
    operatorList: ['alice'],
  }));

  it.each<[FormMode, number, boolean, number]>([
    ['preview', 2, false, 200],
    ['edit', 4, true, 200],
    ['disabled', 4, true, 200],
  ])('%s shows %i rows, action column %s, height %i', (mode, count, action, height) => {
    const table = cooperationTable(rows, mode);
    expect(table.rows).toHaveLength(count);
    expect(table.actionColumn).toBe(action);
    expect(table.height).toBe(height);
    expect(table.operationColumnWidth).toBe(110);
  });

  it('shows one entry in a 100 high table', () => {
    expect(cooperationTable(rows.slice(0, 1), 'edit').height).toBe(100);
  });

  it('shows the amount divided by 100, formatted, with its unit', () => {
    expect(cooperationAmount({ amount: 123456789, unit: 'CNY' })).toBe('1,234,567.89 CNY');
    expect(cooperationAmount(null)).toBe('');
  });

  it("links 'view' to /myContract/detail", () => {
    const link = cooperationViewLink('c1');
    expect(link).toBe('/myContract/detail?contractId=c1');
    const [path, search] = link.split('?');
    expect(checkSpecRoute(path ?? '', search ?? '').ok).toBe(true);
  });
});
