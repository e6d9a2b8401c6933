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
