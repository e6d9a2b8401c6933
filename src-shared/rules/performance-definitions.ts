import { basicContractFields, sourceFieldsFor } from './contract-sources';
import { valueRangeInvalid } from './value-range';

// The rules of a performance definition (spec 3 "Performance sheet"; spec 7 POST/PUT performances)
// beyond each column's and field's own shape, shared by the server that enforces them, the core
// that refuses them at once and the definitions editor that shows them beside the row.

/** Sheet column types whose cells choose among the column's options. */
export const choiceColumnTypes: readonly string[] = ['select', 'multiselect'];

/**
 * The columns that hold a task's own values (its name, due date, amounts, leader) by id, with the
 * type the sheet reads them as: renamed, reordered or flagged freely, but of this type.
 */
export const taskColumnTypes: Readonly<Record<string, string>> = {
  name: 'text',
  expirationTime: 'date',
  receivableAmount: 'money',
  payableAmount: 'money',
  leader: 'people',
};

/** The completion form's field types the definitions editor offers (the generic form renders them). */
export const completionFieldTypes = ['text', 'textarea', 'number', 'money', 'date', 'select', 'multiselect', 'people', 'upload'] as const;

/** Completion field types whose values choose among the field's options. */
export const choiceFieldTypes: readonly string[] = ['select', 'multiselect'];

/** The rules' messages (English; the catalogs' definitions.issues say them in the user's language). */
export const definitionMessages = {
  duplicateColumnName: 'column names must be different',
  duplicateColumnId: 'column ids must be different',
  taskColumnType: "this column holds the task's own value and keeps its type",
  optionsRequired: 'a choice needs at least one option',
  emptyOption: 'please enter the option',
  duplicateOption: 'options must be different',
  oneStateColumn: 'at most one column holds the task state',
  duplicateFieldName: 'field names must be different',
  duplicateFieldId: 'field ids must be different',
  relatedFieldKind: 'the contract field holds another kind of value than this column',
  emptyNode: 'please enter the reference node',
  duplicateNode: 'reference nodes must be different',
  /** The value-range rule's own message (its schema's), in the catalogs beside these. */
  valueRangeInvalid,
} as const;

export type DefinitionMessage = (typeof definitionMessages)[keyof typeof definitionMessages];

export interface DefinitionIssue {
  path: (string | number)[];
  message: DefinitionMessage;
}

interface Option {
  name: string;
}
interface ColumnLike {
  id: string;
  name: string;
  type: string;
  isState?: boolean;
  config?: { options?: Option[] | undefined; referenceNodes?: Option[] | undefined; relatedFieldId?: string | undefined } | undefined;
}
interface FieldLike {
  id: string;
  name: string;
  type: string;
  options?: Option[] | undefined;
}

/** The index of each entry whose key an earlier entry already has. */
function repeated<T>(items: readonly T[], key: (item: T) => string): number[] {
  const seen = new Set<string>();
  return items.flatMap((item, index) => {
    const k = key(item);
    if (seen.has(k)) return [index];
    seen.add(k);
    return [];
  });
}

/** Named entries of a list (a choice's options, a performance time's reference nodes): each named, no two alike. */
function namedIssues(items: readonly Option[], path: (string | number)[], messages: { empty: DefinitionMessage; twin: DefinitionMessage }): DefinitionIssue[] {
  const empty = items.flatMap((item, index) => (item.name.trim() === '' ? [{ path: [...path, index, 'name'], message: messages.empty }] : []));
  const twins = repeated(items, (item) => item.name.trim()).map((index) => ({ path: [...path, index, 'name'], message: messages.twin }));
  return [...empty, ...twins];
}

/** A choice's options: at least one, each named, no two alike. */
function optionIssues(options: readonly Option[] | undefined, path: (string | number)[]): DefinitionIssue[] {
  if (!options || options.length === 0) return [{ path, message: definitionMessages.optionsRequired }];
  return namedIssues(options, path, { empty: definitionMessages.emptyOption, twin: definitionMessages.duplicateOption });
}

/**
 * A column that follows a contract field (config.relatedFieldId): a basic contract field must hold
 * a value the column takes (a money column follows the contract amount, not its signing date). A
 * field of the contract's own template is not known here; its value is taken when it fits (cellFromContract).
 */
const relatedFieldFits = (column: ColumnLike, fieldId: string) =>
  !basicContractFields.some((field) => field.id === fieldId) || sourceFieldsFor(column, basicContractFields).some((field) => field.id === fieldId);

/**
 * What is wrong with a definition's columns and completion fields taken together: names and ids
 * repeated, a task's own column of another type, a choice without options (the state column's
 * choices are the task states), a column following a contract field of another kind, reference
 * nodes unnamed or alike, more than one state column. Empty when it may be saved.
 */
export function definitionIssues(definition: { columns?: readonly ColumnLike[]; fields?: readonly FieldLike[] }): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const columns = definition.columns ?? [];
  const fields = definition.fields ?? [];
  for (const index of repeated(columns, (column) => column.name.trim())) issues.push({ path: ['columns', index, 'name'], message: definitionMessages.duplicateColumnName });
  for (const index of repeated(columns, (column) => column.id)) issues.push({ path: ['columns', index, 'id'], message: definitionMessages.duplicateColumnId });
  columns.forEach((column, index) => {
    const bound = Object.prototype.hasOwnProperty.call(taskColumnTypes, column.id) ? taskColumnTypes[column.id] : undefined;
    if (bound !== undefined && column.type !== bound) issues.push({ path: ['columns', index, 'type'], message: definitionMessages.taskColumnType });
    if (choiceColumnTypes.includes(column.type) && !column.isState) issues.push(...optionIssues(column.config?.options, ['columns', index, 'config', 'options']));
    const related = column.config?.relatedFieldId;
    if (related !== undefined && !relatedFieldFits(column, related)) issues.push({ path: ['columns', index, 'config', 'relatedFieldId'], message: definitionMessages.relatedFieldKind });
    const nodes = column.config?.referenceNodes;
    if (nodes) issues.push(...namedIssues(nodes, ['columns', index, 'config', 'referenceNodes'], { empty: definitionMessages.emptyNode, twin: definitionMessages.duplicateNode }));
  });
  columns.forEach((column, index) => {
    if (column.isState && columns.findIndex((other) => other.isState) < index) issues.push({ path: ['columns', index, 'isState'], message: definitionMessages.oneStateColumn });
  });
  for (const index of repeated(fields, (field) => field.name.trim())) issues.push({ path: ['fields', index, 'name'], message: definitionMessages.duplicateFieldName });
  for (const index of repeated(fields, (field) => field.id)) issues.push({ path: ['fields', index, 'id'], message: definitionMessages.duplicateFieldId });
  fields.forEach((field, index) => {
    if (choiceFieldTypes.includes(field.type)) issues.push(...optionIssues(field.options, ['fields', index, 'options']));
  });
  return issues;
}
