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

/**
 * A recorded field's name as the user reads it. The server names a column (`status`), a key
 * inside an object column (`formValues.remark`: a form field, by its label where the template is
 * known) and, in an edit of several rows, the row first (`performanceTask:<id>/status`): that
 * row's entity is named, its id is not. A column the catalog does not know is shown as it is.
 */
export function auditFieldText(catalog: Catalog, field: string, formLabel?: FormFieldLabel): string {
  const slash = field.indexOf('/');
  const colon = field.indexOf(':');
  if (slash > 0 && colon > 0 && colon < slash) {
    return `${auditEntityText(catalog, field.slice(0, colon))} · ${auditFieldText(catalog, field.slice(slash + 1), formLabel)}`;
  }
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

/** A recorded value as a person reads it: text as it is, nothing as the catalog's "(empty)", the rest as JSON. */
function valueText(value: unknown, empty: string): string {
  if (value === null || value === undefined || value === '') return empty;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One change as "field: before → after", the field in the user's words. */
export function auditChangeText(catalog: Catalog, field: string, change: { before: unknown; after: unknown }, formLabel?: FormFieldLabel): string {
  const empty = catalog.audit.export.empty;
  return `${auditFieldText(catalog, field, formLabel)}: ${valueText(change.before, empty)} → ${valueText(change.after, empty)}`;
}
