import Decimal from 'decimal.js';
import { CalculationOperator } from '../domain/enums';
import type { Money } from '../domain/money';
import { hasAmount, ValueMethod, type CalculationConditionGroup, type FormField } from './field-config';
import { formMessage, type FormIssue, type FormMessage } from './messages';
import { resolveNumberFormat } from './money';

// Spec 4 "Calculated fields" and spec 9: fields whose value is computed from other fields and
// constants with 64-digit decimals, recalculated (with everything that depends on them, in
// dependency order) when a field they use changes.
//
// How an expression reads (defined here, the spec names only the operators): valueList[i] and
// valueList[i + 1] are joined by calculationWays[i]. The bracket operators 5 and 6 add or subtract
// the next value inside a bracket opened before the previous value, so a run of them forms one
// bracketed sum: a × b +( c −( d is a × (b + c − d). Outside brackets × and ÷ bind before + and −.
// A referenced field without a value leaves the result empty. Percent fields (numberFormat 5, 6)
// hold the number shown (12.5 for 12.5%) and take part as their fraction (0.125).

export const CalcDecimal = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_UP });
export type CalcDecimal = InstanceType<typeof CalcDecimal>;

/** Field content types that may be calculated (spec 4). */
export const calculableContentTypes: readonly number[] = [1, 2, 5, 6];

type CalcField = Pick<FormField, 'id' | 'name' | 'type' | 'privateConfig' | 'fieldConfig'>;

export function calculationGroup(field: CalcField): CalculationConditionGroup | null {
  const contentType = field.fieldConfig?.fieldContent?.contentType;
  const group = field.fieldConfig?.calculationConditionGroup;
  return group && contentType !== undefined && calculableContentTypes.includes(contentType) ? group : null;
}

const isBracket = (op: CalculationOperator) => op === CalculationOperator.AddInBrackets || op === CalculationOperator.SubtractInBrackets;
const isAdditive = (op: CalculationOperator) => op === CalculationOperator.Add || op === CalculationOperator.Subtract;

export type EvaluationResult = { ok: true; value: CalcDecimal | null } | { ok: false; reason: 'divisionByZero' };

/** Evaluates operands joined by operators (operators.length === operands.length − 1). */
export function evaluateExpression(operands: readonly (CalcDecimal | null)[], operators: readonly CalculationOperator[]): EvaluationResult {
  if (operands.some((o) => o === null) || operands.length === 0) return { ok: true, value: null };
  const values = operands as CalcDecimal[];
  // Bracket runs fold into the operand before them.
  const items: CalcDecimal[] = [values[0]!];
  const ops: CalculationOperator[] = [];
  operators.forEach((op, i) => {
    const next = values[i + 1]!;
    if (isBracket(op)) {
      const last = items.pop()!;
      items.push(op === CalculationOperator.AddInBrackets ? last.plus(next) : last.minus(next));
    } else {
      items.push(next);
      ops.push(op);
    }
  });
  // × and ÷ make terms; + and − join the terms.
  const terms: CalcDecimal[] = [items[0]!];
  const signs: CalculationOperator[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const next = items[i + 1]!;
    if (isAdditive(op)) {
      terms.push(next);
      signs.push(op);
      continue;
    }
    const last = terms.pop()!;
    if (op === CalculationOperator.Divide && next.isZero()) return { ok: false, reason: 'divisionByZero' };
    terms.push(op === CalculationOperator.Multiply ? last.times(next) : last.dividedBy(next));
  }
  const value = signs.reduce((sum, sign, i) => (sign === CalculationOperator.Add ? sum.plus(terms[i + 1]!) : sum.minus(terms[i + 1]!)), terms[0]!);
  return { ok: true, value };
}

// ----- Reading and writing field values -----

export type FormValues = Record<string, unknown>;

const isPercent = (field: CalcField) => resolveNumberFormat(field.privateConfig).percent;

/** A field's value as an operand: money in major units, percentages as fractions, empty as null. */
export function operandOf(field: CalcField | undefined, value: unknown): CalcDecimal | null {
  let operand: CalcDecimal | null = null;
  if (hasAmount(value)) operand = new CalcDecimal(value.amount).dividedBy(100);
  else if (typeof value === 'number' && Number.isFinite(value)) operand = new CalcDecimal(value);
  else if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) operand = new CalcDecimal(value.trim());
  if (operand && field && isPercent(field)) operand = operand.dividedBy(100);
  return operand;
}

/** A result as the field stores it, rounded as its privateConfig says (money in hundredths). */
export function resultValue(field: CalcField, result: CalcDecimal | null, previous: unknown): unknown {
  if (result === null) return field.type === 'money' ? null : '';
  const { decimals, rounding } = resolveNumberFormat(field.privateConfig);
  if (field.type === 'money') {
    const amount = result.toDecimalPlaces(Math.min(decimals, 2), rounding).times(100).toNumber();
    return { amount, unit: hasAmount(previous) ? previous.unit : 'CNY' } satisfies Money;
  }
  const shown = isPercent(field) ? result.times(100) : result;
  return shown.toDecimalPlaces(decimals, rounding).toFixed(decimals);
}

// ----- The dependency graph -----

export interface CalculationGraph {
  fields: ReadonlyMap<string, CalcField>;
  groups: ReadonlyMap<string, CalculationConditionGroup>;
  /** For each field id, the calculated fields that use it directly. */
  dependants: ReadonlyMap<string, readonly string[]>;
  /** Calculated fields, each after every calculated field it uses. */
  order: readonly string[];
}

export type GraphResult = { ok: true; graph: CalculationGraph; issues: FormIssue[] } | { ok: false; cycle: string[]; message: FormMessage };

const references = (group: CalculationConditionGroup) =>
  group.valueList.flatMap((v) => (v.valueMethod === ValueMethod.FieldReference ? [v.fieldId] : []));

/** Finds one cycle among the fields Kahn's sort could not order. */
function findCycle(remaining: ReadonlySet<string>, uses: (id: string) => readonly string[]): string[] {
  const path: string[] = [];
  const onPath = new Set<string>();
  const done = new Set<string>();
  const visit = (id: string): string[] | null => {
    if (onPath.has(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id) || !remaining.has(id)) return null;
    onPath.add(id);
    path.push(id);
    for (const used of uses(id)) {
      const cycle = visit(used);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(id);
    done.add(id);
    return null;
  };
  for (const id of remaining) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return [...remaining];
}

/** Orders the calculated fields; a cycle is an error naming its fields, a missing reference an issue. */
export function buildCalculationGraph(formFields: readonly CalcField[]): GraphResult {
  const fields = new Map(formFields.map((f) => [f.id, f]));
  const groups = new Map<string, CalculationConditionGroup>();
  for (const field of formFields) {
    const group = calculationGroup(field);
    if (group) groups.set(field.id, group);
  }
  const issues: FormIssue[] = [];
  const dependants = new Map<string, string[]>();
  for (const [id, group] of groups) {
    for (const used of new Set(references(group))) {
      if (!fields.has(used)) {
        issues.push({ field: id, message: formMessage('calculationOperandMissing', { name: fields.get(id)!.name, field: used }) });
      }
      dependants.set(used, [...(dependants.get(used) ?? []), id]);
    }
  }
  const usesCalculated = (id: string) => [...new Set(references(groups.get(id)!))].filter((u) => groups.has(u));
  const waiting = new Map([...groups.keys()].map((id) => [id, usesCalculated(id).length]));
  const ready = [...waiting].filter(([, n]) => n === 0).map(([id]) => id);
  const order: string[] = [];
  while (ready.length > 0) {
    const id = ready.shift()!;
    order.push(id);
    for (const dependant of dependants.get(id) ?? []) {
      const left = waiting.get(dependant)! - 1;
      waiting.set(dependant, left);
      if (left === 0) ready.push(dependant);
    }
  }
  if (order.length < groups.size) {
    const remaining = new Set([...groups.keys()].filter((id) => !order.includes(id)));
    const cycle = findCycle(remaining, usesCalculated);
    const names = cycle.map((id) => fields.get(id)?.name ?? id).join(' → ');
    return { ok: false, cycle, message: formMessage('calculationCycle', { fields: names }) };
  }
  return { ok: true, graph: { fields, groups, dependants, order }, issues };
}

// ----- Recalculation -----

export interface Recalculation {
  values: FormValues;
  /** The calculated fields whose value was recomputed, in the order they were computed. */
  updated: string[];
  /** Division by zero, per field (the field is left empty). */
  issues: FormIssue[];
}

function calculate(graph: CalculationGraph, values: FormValues, ids: readonly string[]): Recalculation {
  const next = { ...values };
  const issues: FormIssue[] = [];
  for (const id of ids) {
    const group = graph.groups.get(id)!;
    const field = graph.fields.get(id)!;
    const operands = group.valueList.map((v) =>
      v.valueMethod === ValueMethod.Constant ? operandOf(undefined, v.value) : operandOf(graph.fields.get(v.fieldId), next[v.fieldId]),
    );
    const result = evaluateExpression(operands, group.calculationWays);
    if (!result.ok) issues.push({ field: id, message: formMessage('divisionByZero', { name: field.name }) });
    next[id] = resultValue(field, result.ok ? result.value : null, values[id]);
  }
  return { values: next, updated: [...ids], issues };
}

/** Every calculated field reachable from the changed fields through the dependants. */
function affected(graph: CalculationGraph, changed: readonly string[]): Set<string> {
  const found = new Set<string>();
  const stack = [...changed];
  while (stack.length > 0) {
    for (const dependant of graph.dependants.get(stack.pop()!) ?? []) {
      if (!found.has(dependant)) {
        found.add(dependant);
        stack.push(dependant);
      }
    }
  }
  return found;
}

/** After a field changes: its dependants, their dependants and so on, each once, in order. */
export function recalculate(graph: CalculationGraph, values: FormValues, changedFieldId: string): Recalculation {
  const targets = affected(graph, [changedFieldId]);
  return calculate(graph, values, graph.order.filter((id) => targets.has(id)));
}

/** On load: fields made only of constants are computed, then everything that depends on them. */
export function initialCalculation(graph: CalculationGraph, values: FormValues): Recalculation {
  const constantOnly = graph.order.filter((id) => graph.groups.get(id)!.valueList.every((v) => v.valueMethod === ValueMethod.Constant));
  const targets = new Set([...constantOnly, ...affected(graph, constantOnly)]);
  return calculate(graph, values, graph.order.filter((id) => targets.has(id)));
}
