import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CalculationOperator } from '../../../src-shared/domain/enums';
import {
  buildCalculationGraph,
  CalcDecimal,
  evaluateExpression,
  initialCalculation,
  recalculate,
  type CalculationGraph,
} from '../../../src-shared/form/calculation';
import type { CalculationValue, FormField } from '../../../src-shared/form/field-config';

// ----- helpers -----

const ref = (fieldId: string): CalculationValue => ({ valueMethod: 1, fieldId });
const constant = (value: string): CalculationValue => ({ valueMethod: 2, value });

type Field = Pick<FormField, 'id' | 'name' | 'type' | 'privateConfig' | 'fieldConfig'>;
const input = (id: string, type: FormField['type'] = 'number', privateConfig?: FormField['privateConfig']): Field => ({ id, name: `field ${id}`, type, privateConfig });
const calculated = (
  id: string,
  valueList: CalculationValue[],
  calculationWays: CalculationOperator[],
  extra: { type?: FormField['type']; contentType?: number; privateConfig?: FormField['privateConfig'] } = {},
): Field => ({
  id,
  name: `field ${id}`,
  type: extra.type ?? 'number',
  privateConfig: extra.privateConfig,
  fieldConfig: { fieldContent: { contentType: extra.contentType ?? 1 }, calculationConditionGroup: { valueList, calculationWays } },
});

function graphOf(fields: Field[]): CalculationGraph {
  const built = buildCalculationGraph(fields);
  if (!built.ok) throw new Error(built.message.text);
  return built.graph;
}

const d = (text: string) => new CalcDecimal(text);

/**
 * The reference: the same expression written out with explicit brackets, read by a separate
 * recursive-descent parser with the usual precedence, computed with decimal.js.
 */
function referenceText(operands: string[], operators: CalculationOperator[]): string {
  const items = [`(${operands[0]})`];
  const symbols: string[] = [];
  operators.forEach((op, i) => {
    const next = `(${operands[i + 1]})`;
    if (op === 5 || op === 6) {
      const last = items.pop()!;
      const inner = last.startsWith('[') ? last.slice(1, -1) : last;
      items.push(`[${inner} ${op === 5 ? '+' : '-'} ${next}]`);
    } else {
      items.push(next);
      symbols.push({ 1: '+', 2: '-', 3: '*', 4: '/' }[op]);
    }
  });
  const text = items[0] + symbols.map((symbol, i) => ` ${symbol} ${items[i + 1]}`).join('');
  return text.replace(/\[/g, '(').replace(/\]/g, ')');
}

function referenceEvaluate(text: string): CalcDecimal {
  const tokens = text.match(/\(-?\d+(\.\d+)?\)|[()+\-*/]/g)!.map((t) => (t.length > 1 && t.startsWith('(') ? t.slice(1, -1) : t));
  let at = 0;
  const primary = (): CalcDecimal => {
    const token = tokens[at++]!;
    if (token === '(') {
      const value = sum();
      at++; // ')'
      return value;
    }
    return new CalcDecimal(token);
  };
  const product = (): CalcDecimal => {
    let value = primary();
    while (tokens[at] === '*' || tokens[at] === '/') {
      const op = tokens[at++];
      const right = primary();
      if (op === '/' && right.isZero()) throw new Error('division by zero');
      value = op === '*' ? value.times(right) : value.dividedBy(right);
    }
    return value;
  };
  const sum = (): CalcDecimal => {
    let value = product();
    while (tokens[at] === '+' || tokens[at] === '-') {
      value = tokens[at++] === '+' ? value.plus(product()) : value.minus(product());
    }
    return value;
  };
  return sum();
}

const decimalText = fc
  .tuple(fc.integer({ min: -99999, max: 99999 }), fc.integer({ min: 0, max: 3 }))
  .map(([n, scale]) => new CalcDecimal(n).dividedBy(10 ** scale).toFixed());
const operator = fc.constantFrom<CalculationOperator>(1, 2, 3, 4, 5, 6);
const expression = fc
  .array(fc.tuple(operator, decimalText), { maxLength: 8 })
  .chain((rest) => decimalText.map((first) => ({ operands: [first, ...rest.map(([, v]) => v)], operators: rest.map(([op]) => op) })));

// ----- the expression -----

describe('evaluating an expression', () => {
  it.each<[string, string[], CalculationOperator[], string | null]>([
    ['add', ['1', '2'], [1], '3'],
    ['subtract', ['1', '2'], [2], '-1'],
    ['multiply', ['1.5', '2'], [3], '3'],
    ['divide', ['1', '4'], [4], '0.25'],
    ['× before +', ['2', '3', '4'], [1, 3], '14'],
    ['÷ before −', ['10', '6', '3'], [2, 4], '8'],
    ['add in brackets binds to the previous value', ['2', '3', '4'], [3, 5], '14'],
    ['subtract in brackets', ['10', '3', '4'], [2, 6], '11'],
    ['a run of brackets is one bracket', ['2', '3', '4', '1'], [3, 5, 6], '12'],
    ['a bracket after +', ['1', '2', '3'], [1, 5], '6'],
    ['plain left-to-right subtraction', ['10', '3', '4'], [2, 2], '3'],
    ['0.1 + 0.2 is exactly 0.3', ['0.1', '0.2'], [1], '0.3'],
    ['1 ÷ 3 × 3 keeps 64 digits (the field rounds it)', ['1', '3', '3'], [4, 3], `0.${'9'.repeat(64)}`],
    ['a single value', ['7.25'], [], '7.25'],
  ])('%s', (_, operands, operators, expected) => {
    const result = evaluateExpression(operands.map(d), operators);
    expect(result.ok && result.value?.toString()).toBe(expected);
  });

  it('keeps 64 significant digits', () => {
    const result = evaluateExpression([d('1'), d('3')], [4]);
    expect(result.ok && result.value?.toString()).toBe(`0.${'3'.repeat(64)}`);
  });

  it('reports division by zero', () => {
    expect(evaluateExpression([d('1'), d('0')], [4])).toEqual({ ok: false, reason: 'divisionByZero' });
  });

  it('has no result while a value is missing', () => {
    expect(evaluateExpression([d('1'), null], [1])).toEqual({ ok: true, value: null });
  });
});

describe('expression properties (decimal.js reference)', () => {
  it('agrees with the written-out expression', () => {
    fc.assert(
      fc.property(expression, ({ operands, operators }) => {
        const result = evaluateExpression(operands.map(d), operators);
        let expected: string;
        try {
          expected = referenceEvaluate(referenceText(operands, operators)).toString();
        } catch {
          expect(result).toEqual({ ok: false, reason: 'divisionByZero' });
          return;
        }
        expect(result.ok && result.value?.toString()).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('bracket operators group with the value before them: a × b +( c = a × (b + c), a − b −( c = a − (b − c)', () => {
    fc.assert(
      fc.property(decimalText, decimalText, decimalText, (a, b, c) => {
        const addIn = evaluateExpression([d(a), d(b), d(c)], [3, 5]);
        const subIn = evaluateExpression([d(a), d(b), d(c)], [2, 6]);
        expect(addIn.ok && addIn.value?.equals(d(a).times(d(b).plus(d(c))))).toBe(true);
        expect(subIn.ok && subIn.value?.equals(d(a).minus(d(b).minus(d(c))))).toBe(true);
      }),
    );
  });

  it('has no float drift: sums of tenths are exact', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 30 }), (tenths) => {
        const result = evaluateExpression(
          tenths.map((t) => d(`${t < 0 ? '-' : ''}${Math.floor(Math.abs(t) / 10)}.${Math.abs(t) % 10}`)),
          tenths.slice(1).map(() => 1 as const),
        );
        const exact = tenths.reduce((s, t) => s + t, 0);
        expect(result.ok && result.value?.times(10).toString()).toBe(String(exact));
      }),
    );
  });
});

// ----- fields and the graph -----

describe('calculated fields', () => {
  it.each([
    [1, true],
    [2, true],
    [5, true],
    [6, true],
    [3, false],
    [4, false],
  ])('content type %i is calculated: %s', (contentType, isCalculated) => {
    const graph = graphOf([input('a'), calculated('c', [ref('a'), constant('2')], [3], { contentType })]);
    expect(recalculate(graph, { a: '5' }, 'a').values.c).toBe(isCalculated ? '10.00' : undefined);
  });

  it.each<[string, Field, Record<string, unknown>, unknown]>([
    ['money × rate into money keeps the unit', calculated('c', [ref('m'), ref('r')], [3], { type: 'money', contentType: 2 }), { m: { amount: 12345, unit: 'USD' }, r: '0.1', c: { amount: 0, unit: 'USD' } }, { amount: 1234, unit: 'USD' }],
    ['rounded half up with roundingWay 1 (unit defaults to CNY)', calculated('c', [ref('m'), ref('r')], [3], { type: 'money', privateConfig: { roundingWay: 1 } }), { m: { amount: 12345, unit: 'USD' }, r: '0.1' }, { amount: 1235, unit: 'CNY' }],
    ['a percent rate takes part as its fraction', calculated('c', [ref('m'), ref('p')], [3]), { m: { amount: 20000, unit: 'CNY' }, p: '12.5' }, '25.00'],
    ['a percent result is shown as a percent', calculated('c', [ref('r'), constant('4')], [4], { privateConfig: { numberFormat: 6 } }), { r: '1' }, '25.00'],
    ['an empty operand empties the result', calculated('c', [ref('r'), constant('4')], [1]), { r: '' }, ''],
    ['numbers as numbers', calculated('c', [ref('r'), constant('0.2')], [1], { privateConfig: { numberFormat: 4 } }), { r: 0.1 }, '0.3000'],
  ])('%s', (_, field, values, expected) => {
    const graph = graphOf([input('m', 'money'), input('r'), input('p', 'number', { numberFormat: 6 }), field]);
    const changed = Object.keys(values)[0]!;
    expect(recalculate(graph, values, changed).values.c).toEqual(expected);
  });

  it('reports division by zero for the field and leaves it empty', () => {
    const graph = graphOf([input('a'), calculated('c', [constant('1'), ref('a')], [4])]);
    const result = recalculate(graph, { a: '0', c: '9' }, 'a');
    expect(result.values.c).toBe('');
    expect(result.issues.map((i) => `${i.field}: ${i.message.text}`)).toEqual(['c: Division by zero while calculating field c']);
  });

  it('names a reference to a missing field', () => {
    const built = buildCalculationGraph([calculated('c', [ref('ghost'), constant('1')], [1])]);
    expect(built.ok && built.issues.map((i) => i.message.text)).toEqual(['The calculation of field c refers to a missing field ghost']);
  });

  it('cascades to dependants in dependency order', () => {
    const fields = [
      calculated('total', [ref('net'), ref('tax')], [1]),
      calculated('tax', [ref('net'), constant('0.13')], [3]),
      calculated('net', [ref('price'), ref('qty')], [3]),
      input('price'),
      input('qty'),
      input('other'),
      calculated('unrelated', [ref('other'), constant('1')], [1]),
    ];
    const graph = graphOf(fields);
    const result = recalculate(graph, { price: '10', qty: '3' }, 'qty');
    expect(result.updated).toEqual(['net', 'tax', 'total']);
    expect(result.values).toMatchObject({ net: '30.00', tax: '3.90', total: '33.90' });
    expect(result.values.unrelated).toBeUndefined();
  });

  it('calculates constant-only fields on load, then their dependants', () => {
    const graph = graphOf([
      calculated('rate', [constant('1'), constant('3')], [4], { privateConfig: { numberFormat: 4, roundingWay: 1 } }),
      calculated('fee', [ref('rate'), constant('3')], [3]),
      calculated('needsInput', [ref('x'), constant('1')], [1]),
      input('x'),
    ]);
    const result = initialCalculation(graph, {});
    expect(result.updated).toEqual(['rate', 'fee']);
    expect(result.values).toEqual({ rate: '0.3333', fee: '0.99' });
  });

  it.each<[string, Field[], string]>([
    ['a field using itself', [calculated('a', [ref('a'), constant('1')], [1])], 'field a → field a'],
    ['two fields', [calculated('a', [ref('b')], []), calculated('b', [ref('a')], []), input('x')], 'field a → field b → field a'],
    ['a cycle behind a chain', [calculated('a', [ref('b')], []), calculated('b', [ref('c')], []), calculated('c', [ref('b')], [])], 'field b → field c → field b'],
  ])('reports a cycle of %s naming the fields', (_, fields, names) => {
    const built = buildCalculationGraph(fields);
    expect(!built.ok && built.message.text).toBe(`Calculated fields depend on each other in a cycle: ${names}`);
  });
});

describe('graph properties', () => {
  // Field i may use any input and any calculated field j < i (a DAG), or with a back edge a cycle.
  const dag = fc.integer({ min: 1, max: 12 }).chain((n) =>
    fc.array(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 4 }), { minLength: n, maxLength: n }),
  );
  const dagFields = (uses: number[][]): Field[] => [
    input('in0'),
    input('in1'),
    ...uses.map((picks, i) => {
      const names = picks.map((p) => (p % (i + 2) < 2 ? `in${p % 2}` : `c${(p % (i + 2)) - 2}`));
      return calculated(`c${i}`, names.map(ref), names.slice(1).map(() => 1 as const));
    }),
  ];

  it('cascades terminate: each dependant is computed once, after what it uses, and agrees with a full recomputation', () => {
    fc.assert(
      fc.property(dag, fc.integer({ min: 0, max: 1 }), fc.integer({ min: -50, max: 50 }), (uses, changed, value) => {
        const fields = dagFields(uses);
        const graph = graphOf(fields);
        const base = { in0: '1', in1: '2' };
        const everything = initialCalculationOfAll(graph, base);
        const result = recalculate(graph, { ...everything, [`in${changed}`]: String(value) }, `in${changed}`);
        expect(new Set(result.updated).size).toBe(result.updated.length);
        const full = initialCalculationOfAll(graph, { ...base, [`in${changed}`]: String(value) });
        expect(result.values).toEqual(full);
      }),
    );
  });

  it('cycles are always reported, and the reported fields do form a cycle', () => {
    fc.assert(
      fc.property(dag, fc.nat(), (uses, pick) => {
        const fields = dagFields(uses);
        const last = uses.length - 1;
        const target = pick % uses.length;
        // Make field c<target> also use the last calculated field: a back edge (or a self loop).
        const withCycle = fields.map((f) =>
          f.id === `c${target}` ? calculated(f.id, [...f.fieldConfig!.calculationConditionGroup!.valueList, ref(`c${last}`)], [...f.fieldConfig!.calculationConditionGroup!.calculationWays, 1]) : f,
        );
        const reachesTarget = target === last || dependsOn(withCycle, `c${last}`, `c${target}`);
        const built = buildCalculationGraph(withCycle);
        expect(built.ok).toBe(!reachesTarget);
        if (built.ok) return;
        const cycle = built.cycle;
        expect(cycle[0]).toBe(cycle.at(-1));
        for (let i = 0; i + 1 < cycle.length; i++) expect(usedFields(withCycle, cycle[i]!)).toContain(cycle[i + 1]);
      }),
    );
  });
});

function usedFields(fields: Field[], id: string): string[] {
  return (fields.find((f) => f.id === id)?.fieldConfig?.calculationConditionGroup?.valueList ?? []).flatMap((v) => (v.valueMethod === 1 ? [v.fieldId] : []));
}

function dependsOn(fields: Field[], from: string, to: string, seen = new Set<string>()): boolean {
  if (seen.has(from)) return false;
  seen.add(from);
  return usedFields(fields, from).some((u) => u === to || dependsOn(fields, u, to, seen));
}

/** Every calculated field computed from scratch, in order. */
function initialCalculationOfAll(graph: CalculationGraph, values: Record<string, unknown>) {
  return ['in0', 'in1'].reduce((v, id) => recalculate(graph, v, id).values, values);
}
