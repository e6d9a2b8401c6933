import type { Clause, FieldConfig } from '../domain/contract-forms';
import type { FieldIssue } from '../errors';
import { buildCalculationGraph } from '../form/calculation';
import { formFieldSchema } from '../form/field-config';

// What makes a template's fields and clauses one the form engine can draft from, beyond the shape
// the API's schema checks: the server refuses a template that breaks these, and the template
// editor checks the same before sending, so nothing unusable is ever written (spec 3).

export const templateMessages = {
  duplicateFieldId: 'two fields have this id',
  duplicateClause: 'two clauses have this label',
  duplicateStatement: 'two statements of this clause have this id',
  optionsRequired: 'add at least one option',
  clauseMissing: 'this clause field has no clause',
  clauseNotPlaced: 'this clause has no field in the form',
  statementFieldMissing: 'the statement names a field it does not have',
  noStatements: 'add at least one statement',
  notCalculable: 'only number and money fields can be calculated',
  calculationFieldMissing: 'the calculation names a field the template does not have',
  calculationCycle: 'calculated fields depend on each other in a cycle',
} as const;

/** Field types whose choices are the field's own options (unless read from the server). */
export const choiceFieldTypes: readonly FieldConfig['type'][] = ['select', 'multiselect', 'radio', 'checkbox'];
/** Field types whose value a calculation can give. */
export const calculableFieldTypes: readonly FieldConfig['type'][] = ['number', 'money'];

const firstTwins = <T>(items: readonly T[], key: (item: T) => string | number) =>
  items.flatMap((item, i) => (items.findIndex((other) => key(other) === key(item)) !== i ? [i] : []));

function fieldIssues(field: FieldConfig, path: string): FieldIssue[] {
  // The engine reads the field with its own schema (e.g. a calculation's operands): what it cannot read, no drafter could use.
  const parsed = formFieldSchema.safeParse(field);
  const issues: FieldIssue[] = parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: [path, ...issue.path].join('.'), message: issue.message }));
  const fromServer = field.remote === true || field.privateConfig?.dynamicConfig?.isDynamicField === true;
  if (choiceFieldTypes.includes(field.type) && !fromServer && (field.options ?? []).length === 0) issues.push({ path: `${path}.options`, message: templateMessages.optionsRequired });
  if (field.fieldConfig?.calculationConditionGroup && !calculableFieldTypes.includes(field.type)) {
    issues.push({ path: `${path}.fieldConfig.calculationConditionGroup`, message: templateMessages.notCalculable });
  }
  return issues;
}

function calculationIssues(fields: readonly FieldConfig[]): FieldIssue[] {
  const parsed = fields.flatMap((field) => {
    const result = formFieldSchema.safeParse(field);
    return result.success ? [result.data] : [];
  });
  if (parsed.length < fields.length) return [];
  const graph = buildCalculationGraph(parsed);
  const at = (id: string) => `fields.${fields.findIndex((field) => field.id === id)}.fieldConfig.calculationConditionGroup`;
  if (!graph.ok) return [{ path: at(graph.cycle[0]!), message: templateMessages.calculationCycle }];
  return graph.issues.map((issue) => ({ path: at(issue.field), message: templateMessages.calculationFieldMissing }));
}

function clauseIssues(clause: Clause, path: string, fields: readonly FieldConfig[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (!fields.some((field) => field.type === 'clause' && field.id === clause.labelID)) issues.push({ path: `${path}.labelID`, message: templateMessages.clauseNotPlaced });
  if (clause.statementList.length === 0) issues.push({ path: `${path}.statementList`, message: templateMessages.noStatements });
  for (const i of firstTwins(clause.statementList, (statement) => statement.id)) issues.push({ path: `${path}.statementList.${i}.id`, message: templateMessages.duplicateStatement });
  clause.statementList.forEach((statement, s) => {
    const own = new Set(statement.fieldList.map((field) => field.id));
    const named = statement.content.flat().flatMap((part) => (part.type === 'field' ? [part.fieldId] : []));
    if (named.some((id) => !own.has(id))) issues.push({ path: `${path}.statementList.${s}.content`, message: templateMessages.statementFieldMissing });
    statement.fieldList.forEach((field, f) => issues.push(...fieldIssues(field, `${path}.statementList.${s}.fieldList.${f}`)));
  });
  return issues;
}

/**
 * Every problem of a template's fields and clauses, by path (`fields.2.options`,
 * `clauses.0.statementList.1.content`); none means the form engine can draft from it.
 */
export function templateIssues(fields: readonly FieldConfig[], clauses: readonly Clause[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  // Field ids are the keys of form values: two fields with one id would share a value.
  for (const i of firstTwins(fields, (field) => field.id)) issues.push({ path: `fields.${i}.id`, message: templateMessages.duplicateFieldId });
  for (const i of firstTwins(clauses, (clause) => clause.labelID)) issues.push({ path: `clauses.${i}.labelID`, message: templateMessages.duplicateClause });
  fields.forEach((field, i) => {
    issues.push(...fieldIssues(field, `fields.${i}`));
    if (field.type === 'clause' && !clauses.some((clause) => clause.labelID === field.id)) issues.push({ path: `fields.${i}.id`, message: templateMessages.clauseMissing });
  });
  issues.push(...calculationIssues(fields));
  clauses.forEach((clause, i) => issues.push(...clauseIssues(clause, `clauses.${i}`, fields)));
  return issues;
}
