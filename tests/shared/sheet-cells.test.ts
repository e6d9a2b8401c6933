import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScheduleConditionType } from '../../src-shared/domain/enums';
import { sheetColumnSchema, type SheetColumn } from '../../src-shared/domain/performance';
import { cellProblem, sheetCellIssues, sheetCellRefusal, sheetTextMaxLength } from '../../src-shared/rules/sheet-cells';
import { meetsValueRange, rangeComparators, valueRangeSatisfiable, valueRangeSchema, valueRangeText, type RangeComparator, type ValueRangeRule } from '../../src-shared/rules/value-range';

const column = (type: SheetColumn['type'], extra: Partial<SheetColumn> = {}): SheetColumn => ({ id: `c-${type}`, name: `the ${type}`, type, isRequired: false, isState: false, ...extra });
const rule = (mode: 1 | 2, ...conditions: [RangeComparator, string][]): ValueRangeRule & { mode: 1 | 2 } => ({ mode, conditions: conditions.map(([comparator, value]) => ({ comparator, value })) });

describe('the value-range rule (spec 5)', () => {
  it('applies each comparator', () => {
    const cases: [RangeComparator, number, boolean][] = [
      ['equal', 5, true], ['equal', 5.01, false],
      ['notEqual', 5, false], ['notEqual', 4, true],
      ['greater', 5, false], ['greater', 5.000001, true],
      ['greaterOrEqual', 5, true], ['greaterOrEqual', 4.99, false],
      ['less', 5, false], ['less', 4.99, true],
      ['lessOrEqual', 5, true], ['lessOrEqual', 5.01, false],
    ];
    for (const [comparator, value, meets] of cases) expect(meetsValueRange(value, rule(1, [comparator, '5'])), `${comparator} ${value}`).toBe(meets);
  });

  it('combines by and (mode 1) and by or (mode 2)', () => {
    const between = rule(1, ['greater', '0'], ['lessOrEqual', '100']);
    expect([0, 0.5, 100, 100.01].map((v) => meetsValueRange(v, between))).toEqual([false, true, true, false]);
    const outside = rule(2, ['less', '0'], ['greater', '100']);
    expect([-1, 0, 100, 101].map((v) => meetsValueRange(v, outside))).toEqual([true, false, false, true]);
    expect(valueRangeText(between, { and: 'and', or: 'or' })).toBe('> 0 and ≤ 100');
  });

  it('refuses rules no number can meet, and malformed ones', () => {
    expect(valueRangeSchema.safeParse(rule(1, ['greater', '10'], ['less', '5'])).success).toBe(false);
    expect(valueRangeSchema.safeParse(rule(1, ['greater', '5'], ['lessOrEqual', '5'])).success).toBe(false);
    expect(valueRangeSchema.safeParse(rule(1, ['equal', '5'], ['notEqual', '5'])).success).toBe(false);
    expect(valueRangeSchema.safeParse(rule(1, ['equal', '5'], ['equal', '6'])).success).toBe(false);
    expect(valueRangeSchema.safeParse(rule(1, ['greaterOrEqual', '5'], ['lessOrEqual', '5'])).success).toBe(true);
    expect(valueRangeSchema.safeParse(rule(2, ['greater', '10'], ['less', '5'])).success).toBe(true);
    expect(valueRangeSchema.safeParse(rule(1)).success).toBe(false);
    expect(valueRangeSchema.safeParse(rule(1, ['greater', '1.123456789'])).success).toBe(false);
    expect(valueRangeSchema.safeParse(rule(1, ['greater', 'ten'])).success).toBe(false);
    expect(valueRangeSchema.safeParse({ mode: 3, conditions: [{ comparator: 'equal', value: '1' }] }).success).toBe(false);
  });

  const bound = fc.integer({ min: -50, max: 50 }).map(String);
  const conditions = fc.array(fc.tuple(fc.constantFrom(...rangeComparators), bound), { minLength: 1, maxLength: 4 });

  it('calls an and-rule satisfiable exactly when some number meets it (property)', () => {
    fc.assert(
      fc.property(conditions, (list) => {
        const r = rule(1, ...list);
        // Bounds are whole numbers: a witness, if any, is a whole number or a half between two.
        const candidates = Array.from({ length: 221 }, (_, i) => new Decimal(i - 110).dividedBy(2));
        expect(valueRangeSatisfiable(r)).toBe(candidates.some((x) => meetsValueRange(x, r)));
      }),
    );
  });

  it('meets an or-rule exactly when it meets one of its conditions (property)', () => {
    fc.assert(
      fc.property(conditions, fc.integer({ min: -60, max: 60 }), (list, x) => {
        expect(meetsValueRange(x, rule(2, ...list))).toBe(list.some((c) => meetsValueRange(x, rule(1, c))));
      }),
    );
  });
});

describe('sheet columns keep their config backward compatible', () => {
  it('takes stored columns without the new config, and a rule only on number and money columns', () => {
    expect(sheetColumnSchema.safeParse({ id: 'leader', name: 'task leader', type: 'people', config: { singleSelect: true }, isRequired: false, isState: false }).success).toBe(true);
    expect(sheetColumnSchema.safeParse(column('number', { config: { valueRange: rule(1, ['greater', '0']) } })).success).toBe(true);
    expect(sheetColumnSchema.safeParse(column('text', { config: { valueRange: rule(1, ['greater', '0']) } })).success).toBe(false);
    expect(sheetColumnSchema.safeParse(column('performanceTime', { config: { referenceNodes: [{ id: 'accept', name: 'acceptance' }] } })).success).toBe(true);
    expect(sheetColumnSchema.safeParse(column('date', { config: { referenceNodes: [{ id: 'accept', name: 'acceptance' }] } })).success).toBe(false);
  });
});

describe('sheet cells (spec 3, 5, 9)', () => {
  it('asks for required cells: enter for typed ones, select for chosen ones, the payment amount for money', () => {
    const required = { isRequired: true };
    expect(cellProblem(column('text', required), '  ')).toBe('enter');
    expect(cellProblem(column('number', required), undefined)).toBe('enter');
    expect(cellProblem(column('date', required), null)).toBe('enter');
    expect(cellProblem(column('people', required), [])).toBe('select');
    expect(cellProblem(column('select', required), null)).toBe('select');
    expect(cellProblem(column('outerParty', required), [])).toBe('select');
    expect(cellProblem(column('money', required), null)).toBe('paymentAmount');
    expect(cellProblem(column('text'), '')).toBeNull();
  });

  it('refuses a money amount of 0 and takes a positive one; checks its range in major units', () => {
    expect(cellProblem(column('money'), { amount: 0, unit: 'CNY' })).toBe('paymentAmount');
    expect(cellProblem(column('money'), { amount: 1, unit: 'CNY' })).toBeNull();
    expect(cellProblem(column('money'), { amount: 1 })).toBe('invalid');
    const capped = column('money', { config: { valueRange: rule(1, ['lessOrEqual', '100']) } });
    expect(cellProblem(capped, { amount: 10_000, unit: 'CNY' })).toBeNull();
    expect(cellProblem(capped, { amount: 10_001, unit: 'CNY' })).toBe('valueRange');
  });

  it('takes numbers of at most 8 decimals within the range', () => {
    const n = column('number', { config: { valueRange: rule(2, ['equal', '1'], ['greater', '10']) } });
    expect(cellProblem(n, '1')).toBeNull();
    expect(cellProblem(n, '10.5')).toBeNull();
    expect(cellProblem(n, '5')).toBe('valueRange');
    expect(cellProblem(n, '1.123456789')).toBe('invalid');
    expect(cellProblem(n, 'abc')).toBe('invalid');
  });

  it('limits text to 1000 characters', () => {
    expect(cellProblem(column('textarea'), 'x'.repeat(sheetTextMaxLength))).toBeNull();
    expect(cellProblem(column('text'), 'x'.repeat(sheetTextMaxLength + 1))).toBe('tooLong');
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 1200 }), (text) => (cellProblem(column('text'), text) === 'tooLong') === (text.length > sheetTextMaxLength)));
  });

  it('takes choices from the column options, one person for a single-select column, at most 10 parties', () => {
    const options = { config: { options: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] } };
    expect(cellProblem(column('select', options), 'a')).toBeNull();
    expect(cellProblem(column('select', options), 'z')).toBe('invalid');
    expect(cellProblem(column('multiselect', options), ['a', 'b'])).toBeNull();
    expect(cellProblem(column('multiselect', options), ['a', 'a'])).toBe('invalid');
    const one = column('people', { config: { singleSelect: true } });
    expect(cellProblem(one, { id: 'u1', name: 'Alice' })).toBeNull();
    expect(cellProblem(one, [{ name: 'Alice' }, { name: 'Bob' }])).toBe('invalid');
    expect(cellProblem(column('people'), [{ name: 'Alice' }, { name: 'Bob' }])).toBeNull();
    const party = (i: number) => ({ id: `p${i}`, name: `Party ${i}` });
    expect(cellProblem(column('innerParty'), Array.from({ length: 10 }, (_, i) => party(i)))).toBeNull();
    expect(cellProblem(column('innerParty'), Array.from({ length: 11 }, (_, i) => party(i)))).toBe('invalid');
    expect(cellProblem(column('date'), '2026-02-30')).toBe('invalid');
  });

  it('asks a performance time for its condition time, or its date without a condition', () => {
    const time = column('performanceTime', { isRequired: true });
    const { None, SingleOrMultiple, Periodicity } = ScheduleConditionType;
    expect(cellProblem(time, { conditionType: None, date: '2026-12-01' })).toBeNull();
    expect(cellProblem(time, { conditionType: None, date: null })).toBe('select');
    expect(cellProblem(column('performanceTime'), { conditionType: None, date: null })).toBeNull();
    expect(cellProblem(time, { conditionType: SingleOrMultiple, nodeId: 'signDate', days: [] })).toBe('conditionTime');
    expect(cellProblem(time, { conditionType: SingleOrMultiple, nodeId: null, days: [30] })).toBe('conditionTime');
    expect(cellProblem(time, { conditionType: SingleOrMultiple, nodeId: 'signDate', days: [30, 60] })).toBeNull();
    expect(cellProblem(time, { conditionType: SingleOrMultiple, nodeId: 'nowhere', days: [30] })).toBe('invalid');
    expect(cellProblem(time, { conditionType: Periodicity, nodeId: 'signDate', days: [0], cycle: null })).toBe('conditionTime');
    expect(cellProblem(time, { conditionType: Periodicity, nodeId: 'signDate', days: [0], cycle: 'month' })).toBeNull();
    const own = column('performanceTime', { config: { referenceNodes: [{ id: 'accept', name: 'acceptance' }] } });
    expect(cellProblem(own, { conditionType: SingleOrMultiple, nodeId: 'accept', days: [5] })).toBeNull();
    expect(cellProblem(own, { conditionType: SingleOrMultiple, nodeId: 'signDate', days: [5] })).toBe('invalid');
  });

  it('checks every cell of a new row and the sent cells of a saved one, and names the first problem', () => {
    const columns = [column('text', { id: 'name', isRequired: true }), column('money', { id: 'receivableAmount', isRequired: true }), column('number', { id: 'qty', config: { valueRange: rule(1, ['greater', '0']) } })];
    // Required cells are asked of a new row wherever the rule runs (issue 28: the server and the core too).
    expect(sheetCellIssues(columns, [{ name: 'A' }]).map((i) => i.problem)).toEqual(['paymentAmount']);
    expect(sheetCellRefusal(columns, [{ name: 'A' }])?.error.message).toBe('rows.0.receivableAmount: please enter the money');
    // A saved row keeps what it does not send, but may not empty a required cell.
    expect(sheetCellIssues(columns, [{ id: 't1', name: 'A' }])).toEqual([]);
    expect(sheetCellIssues(columns, [{ id: 't1', receivableAmount: null }]).map((i) => [i.column.id, i.problem])).toEqual([['receivableAmount', 'paymentAmount']]);
    // A new plan's rows carry the ids their device made: every cell of each is asked for.
    expect(sheetCellIssues(columns, [{ id: 't1', name: 'A' }], true).map((i) => i.problem)).toEqual(['paymentAmount']);
    // A column that follows a contract field takes the contract's value: a row need not send it.
    const follows = [...columns.slice(0, 2), column('date', { id: 'signed', isRequired: true, config: { relatedFieldId: 'signDate' } })];
    expect(sheetCellIssues(follows, [{ name: 'A', receivableAmount: { amount: 1, unit: 'USD' } }])).toEqual([]);
    expect(sheetCellIssues(follows, [{ name: 'A', receivableAmount: { amount: 1, unit: 'USD' }, values: { signed: '' } }]).map((i) => i.problem)).toEqual(['enter']);
    expect(sheetCellIssues(columns, [{ id: 't1', values: { qty: '0' } }]).map((i) => [i.row, i.column.id, i.problem])).toEqual([[1, 'qty', 'valueRange']]);
    const refusal = sheetCellRefusal(columns, [{ name: 'A', receivableAmount: { amount: 500, unit: 'CNY' } }, { id: 't2', receivableAmount: { amount: 0, unit: 'CNY' } }]);
    expect(refusal?.error.code).toBe('validation_failed');
    expect(refusal?.error.reason).toEqual({ key: 'sheetCellInvalid', params: { row: 2, column: 'the money', problem: 'paymentAmount' } });
  });
});
