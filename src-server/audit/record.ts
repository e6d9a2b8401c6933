import { inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuditChange } from '../../src-shared/api/audit';
import { apiPrefix } from '../../src-shared/api/endpoint';
import type { SessionUser } from '../auth/service';
import type { ServerDb } from '../db/database';
import { contracts, counterparties, devices, organisations, templates } from '../db/schema';
import { intellectualProperties, ipOrganizations } from '../intellectual-property/schema';
import { lawFirms, lawyers } from '../law-firms/schema';
import { caseTypes, ledgerScenes } from '../ledger/schema';
import { performances, performanceTasks } from '../performance/schema';
import { projects } from '../projects/schema';

// What an audit event says about a write: which entity and row it changed, and the fields it
// changed with their values before and after, read from the row in the write's own transaction.

/** A table whose rows an event reads before and after a write: keyed by a text `id`. */
export type AuditedTable = PgTable & { id: PgColumn };

/** The row as it is now in the transaction; undefined when it does not exist. */
export async function rowSnapshot(tx: ServerDb, table: AuditedTable | undefined, id: string | null): Promise<Record<string, unknown> | undefined> {
  if (!table || id === null) return undefined;
  const [row] = await rowSnapshots(tx, table, [id]);
  return row;
}

/** The rows of `ids` that exist, as they are now in the transaction, in one statement. */
export async function rowSnapshots(tx: ServerDb, table: AuditedTable, ids: readonly string[]): Promise<Record<string, unknown>[]> {
  return (await tx.select().from(table).where(inArray(table.id, [...ids]))) as Record<string, unknown>[];
}

/** Kept by the database itself on every write: not what the user changed. */
const bookkeeping = new Set(['version', 'fieldVersions', 'changeSeq', 'createTime', 'updateTime', 'createdAt', 'updatedAt', 'accessChangedPosition']);

/** Names of fields whose values are never recorded: only that they changed. */
const secret = /password|token|secret|hash/i;
export const redacted = '[redacted]';

/** A value as stored in the event: JSON, times as ISO strings, big integers as text. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value === undefined ? null : value;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);

function sameValue(a: unknown, b: unknown): boolean {
  const was = plain(a);
  const is = plain(b);
  if (was === is) return true;
  // A created or removed row's fields: nothing to stringify.
  if ((was === null) !== (is === null)) return false;
  return JSON.stringify(was) === JSON.stringify(is);
}

/**
 * The fields that differ between the two states of a row (either may be absent: created or
 * deleted). An object-valued column (form values, settings) is compared one level down, so an
 * edit of one form field records that field, not the whole form.
 */
export function changedFields(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): Record<string, AuditChange> {
  const changes: Record<string, AuditChange> = {};
  const record = (name: string, was: unknown, is: unknown) => {
    if (sameValue(was, is)) return;
    const leaf = name.slice(name.lastIndexOf('.') + 1);
    changes[name] = secret.test(leaf) ? { before: redacted, after: redacted } : { before: plain(was), after: plain(is) };
  };
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (bookkeeping.has(key)) continue;
    const was = before?.[key];
    const is = after?.[key];
    if (isRecord(was) && isRecord(is)) {
      for (const inner of new Set([...Object.keys(was), ...Object.keys(is)])) record(`${key}.${inner}`, was[inner], is[inner]);
    } else {
      record(key, was, is);
    }
  }
  return changes;
}

/** What a request sent, as the changes of a write whose entity has no row to compare: secrets redacted. */
export function sentFields(body: unknown): Record<string, AuditChange> {
  return isRecord(body) ? changedFields(undefined, body) : {};
}

/** How a REST write's path names its entity; the longest matching prefix wins. */
interface RestEntity {
  entity: string;
  table?: AuditedTable;
  /** The row a write without an id in its path changes. */
  idOf?: (user: SessionUser) => string;
}

const organisationRow = { entity: 'organisation', table: organisations, idOf: (user: SessionUser) => user.organisationId };

const restEntities: [prefix: string, RestEntity][] = Object.entries({
  auth: { entity: 'session', idOf: (user: SessionUser) => user.sessionId },
  departments: { entity: 'user' },
  contract_number: { entity: 'contractNumbering' },
  template_number: { entity: 'templateNumbering' },
  contracts: { entity: 'contract', table: contracts },
  templates: { entity: 'template', table: templates },
  'performances/task': { entity: 'performanceTask', table: performanceTasks },
  'performances/standing_book_config': { entity: 'scene', table: ledgerScenes },
  'performances/reminder_settings': { entity: 'reminderSettings' },
  performances: { entity: 'performance', table: performances },
  counterparties: { entity: 'counterparty', table: counterparties },
  law_firms: { entity: 'lawFirm', table: lawFirms },
  lawyers: { entity: 'lawyer', table: lawyers },
  case_type: { entity: 'caseType', table: caseTypes },
  project: { entity: 'project', table: projects },
  intellectual_property_organizations: { entity: 'ipOrganization', table: ipOrganizations },
  intellectual_properties: { entity: 'intellectualProperty', table: intellectualProperties },
  organisation: organisationRow,
  audit: organisationRow,
  // A device signed out (its sessions end) or revoked: the revocation is the row's own change.
  devices: { entity: 'device', table: devices },
  'admin/devices': { entity: 'device', table: devices },
} satisfies Record<string, RestEntity>).sort(([a], [b]) => b.length - a.length);

/** The entity a REST write's path names (the first segments after the API prefix). */
export function restEntity(path: string): RestEntity {
  const rest = path.slice(apiPrefix.length + 1);
  const found = restEntities.find(([prefix]) => rest === prefix || rest.startsWith(`${prefix}/`));
  if (!found) throw new Error(`no audit entity for the write endpoint ${path}: add its path to restEntities`);
  return found[1];
}
