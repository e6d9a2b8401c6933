import { PartySubtype, PartyType } from '../domain/enums';
import { taskStateKeys } from '../domain/ledger-cells';
import type { Catalog } from './catalogs';

// The audit trail's entity and action in the catalog's words (catalogs/audit-actions.ts): a synced
// change's action is "entity.name" (its mutation), a REST write's its endpoint's name. A code the
// catalog does not know (a newer server's) is shown as it is.

function lookUp(node: unknown, path: readonly string[]): string | undefined {
  for (const part of path) node = typeof node === 'object' && node !== null && Object.prototype.hasOwnProperty.call(node, part) ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

export function auditActionText(catalog: Catalog, action: string): string {
  return lookUp(catalog.audit.actions, action.split('.')) ?? action;
}

export function auditEntityText(catalog: Catalog, entity: string): string {
  return lookUp(catalog.audit.entities, [entity]) ?? entity;
}

/** A form field's label by its id (the contract's template), undefined where it is not known. */
export type FormFieldLabel = (fieldId: string) => string | undefined;

function columnText(catalog: Catalog, column: string): string | undefined {
  return lookUp(catalog.audit.fields, [column]);
}

/** The row a recorded field belongs to: the event's entity, or the row a field of an edit of several rows names first. */
function rowOf(entity: string, field: string): { entity: string; column: string } {
  const slash = field.indexOf('/');
  const colon = field.indexOf(':');
  if (slash > 0 && colon > 0 && colon < slash) return { entity: field.slice(0, colon), column: field.slice(slash + 1) };
  return { entity, column: field };
}

/**
 * A recorded field's name as the user reads it. The server names a column (`status`), a key
 * inside an object column (`formValues.remark`: a form field, by its label where the template is
 * known) and, in an edit of several rows, the row first (`performanceTask:<id>/status`): that
 * row's entity is named, its id is not. A column the catalog does not know is shown as it is.
 */
export function auditFieldText(catalog: Catalog, field: string, formLabel?: FormFieldLabel): string {
  const row = rowOf('', field);
  if (row.column !== field) return `${auditEntityText(catalog, row.entity)} · ${auditFieldText(catalog, row.column, formLabel)}`;
  const dot = field.indexOf('.');
  if (dot < 0) return columnText(catalog, field) ?? field;
  const column = field.slice(0, dot);
  const inner = field.slice(dot + 1);
  if (column === 'formValues') return formLabel?.(inner) ?? catalog.audit.fields.formField;
  // Inside other object columns (settings, a plan's values) a key the catalog knows is named;
  // an unknown one (a column's generated id) is left to the column's own name.
  const innerText = columnText(catalog, inner);
  const outer = columnText(catalog, column) ?? column;
  return innerText ? `${outer} · ${innerText}` : outer;
}

/** The changed fields of an event, each named once in the user's words, in the order recorded. */
export function auditFieldsText(catalog: Catalog, fields: readonly string[], formLabel?: FormFieldLabel): string[] {
  return [...new Set(fields.map((field) => auditFieldText(catalog, field, formLabel)))];
}

type ValueWords = (catalog: Catalog, value: unknown) => string | undefined;

/** A code's label in one of the catalog's label tables (the one the rest of the UI shows for it). */
const labelled =
  (labels: (catalog: Catalog) => object): ValueWords =>
  (catalog, value) =>
    typeof value === 'string' || typeof value === 'number' ? lookUp(labels(catalog), [String(value)]) : undefined;

const contractStatus = labelled((catalog) => catalog.contractStatus);
const currency = labelled((catalog) => catalog.contractForm.currencies);
const taskType = labelled((catalog) => catalog.scenes.taskTypes);
/** Law firms, lawyers and case types: state 2 is disabled (spec 3). */
const enabledState = labelled((catalog) => ({ 1: catalog.manage.legal.enabled, 2: catalog.manage.legal.disabled }));

/**
 * The columns whose values are codes, by the entity of their row: each read by the labels the
 * screens show for it (the ledger's statuses and task states, the register's kinds), so the audit
 * trail says 'Approved' where the server keeps 4.
 */
const codedColumns: Record<string, Record<string, ValueWords>> = {
  contract: { status: contractStatus, amountUnit: currency },
  template: { status: contractStatus },
  performanceTask: {
    state: labelled((catalog) => Object.fromEntries(Object.entries(taskStateKeys).map(([state, key]) => [state, catalog.taskState[key]]))),
    type: taskType,
    amountUnit: currency,
  },
  performance: { type: taskType },
  counterparty: {
    type: labelled((catalog) => ({ [PartyType.Inner]: catalog.counterparties.inner, [PartyType.Outer]: catalog.counterparties.outer })),
    subtype: labelled((catalog) => ({ [PartySubtype.Organization]: catalog.contractFormComplex.partyDetail.subTypes.organization, [PartySubtype.NaturalPerson]: catalog.contractFormComplex.partyDetail.subTypes.naturalPerson })),
    rating: labelled((catalog) => catalog.creditRating),
  },
  intellectualProperty: { type: labelled((catalog) => catalog.manage.ip.types), status: labelled((catalog) => catalog.manage.ip.statuses) },
  lawFirm: { state: enabledState },
  lawyer: { state: enabledState },
  caseType: { state: enabledState },
};

/**
 * A recorded value as a person reads it: a code by its label (the column's entity decides which),
 * yes or no, text as it is, nothing as the catalog's "(empty)", the rest as JSON.
 */
function auditValueText(catalog: Catalog, entity: string, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return catalog.audit.export.empty;
  const row = rowOf(entity, field);
  const coded = codedColumns[row.entity]?.[row.column]?.(catalog, value);
  if (coded !== undefined) return coded;
  if (typeof value === 'boolean') return value ? catalog.contractForm.yes : catalog.contractForm.no;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One change as "field: before → after", the field and its values in the user's words. */
export function auditChangeText(catalog: Catalog, entity: string, field: string, change: { before: unknown; after: unknown }, formLabel?: FormFieldLabel): string {
  return `${auditFieldText(catalog, field, formLabel)}: ${auditValueText(catalog, entity, field, change.before)} → ${auditValueText(catalog, entity, field, change.after)}`;
}
