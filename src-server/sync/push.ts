import { eq, inArray, sql } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditChange } from '../../src-shared/api/audit';
import type { MutationEnvelope, MutationOutcome, MutationResult, SyncChange, SyncPushRequest, SyncPushResponse } from '../../src-shared/api/sync';
import { AppFailure, validationFailure, reason } from '../../src-shared/errors';
import { fieldsOf, isMutationName, missingRow, mutations, retiredReason, rowKey, rowsOf, type MutationName, type RowKey } from '../../src-shared/sync/mutations';
import type { ServerDb } from '../db/database';
import { processedMutations } from '../db/schema';
import { postgresCode, type OrgViewer } from '../http/feature-helpers';
import { changedGroups, conflictIssue, conflictingGroups } from '../../src-shared/sync/field-versions';
import { applyMutation, applyTogether, entities, parseRowKey, type EntityName, type LockedRow } from './mutations';
import { checkSyncVersions } from './protocol';
import { appendAuditEvents, type AuditEntry } from '../audit/chain';
import { changedFields, rowSnapshots, type AuditedTable } from '../audit/record';
import { auditDevice } from '../audit/rest';
import { auditStep } from '../audit/timing';
import type { SessionUser } from '../auth/service';

// Push (architecture, sync rules 2, 5, 6): each mutation is decided exactly once, in the client's
// sequence order. A batch is one transaction (one commit instead of one per mutation: the drain
// of a long offline day is bounded by commits); each mutation first claims its id in
// processed_mutations (its primary key), then runs in its own savepoint, so a refusal or a
// conflict rolls back only its own effect (a run of creations the registry writes together shares
// one, and is decided one by one when any is refused). A concurrent push of the same id waits on that claim
// and, once the first batch commits, finds the id taken and returns the stored result. The result
// is stored in the same transaction as the effect, so either both exist or neither does.
// Concurrent pushes (through any number of server processes) lock the rows they name in one
// order before any mutation runs, and a batch that still loses a race to a lock taken inside a
// feature's write (a deadlock or a serialization failure) runs again: a push never fails for it.

/** The pusher: a signed-in user, whose name goes into the audit events. */
type Pusher = OrgViewer & Pick<SessionUser, 'displayName' | 'deviceId' | 'sessionId'>;

/** A stale base version found: carries what conflicts out of the savepoint it rolls back. */
class Conflict extends Error {
  constructor(
    readonly stale: string[],
    /** The field groups both sides changed; empty when the whole row conflicts. */
    readonly fields: string[],
  ) {
    super(stale.join('; '));
  }
}

/**
 * The registry entry and the server implementation of one mutation, taking the args its own
 * schema parsed (TypeScript cannot tie a name from a union to its args, hence the widening).
 */
function applyOf(name: MutationName) {
  return applyMutation[name] as (db: ServerDb, args: unknown, viewer: OrgViewer, at: Date, baseVersions: Readonly<Record<RowKey, number>>) => Promise<MutationOutcome | void>;
}

/** A new mutation's name and args as its schema parsed them, or why they do not parse; parsed once per push. */
type Parsed = { name: MutationName; args: unknown } | AppFailure;

function parseOnce(mutation: MutationEnvelope): Parsed {
  try {
    return parseArgs(mutation);
  } catch (error) {
    if (error instanceof AppFailure) return error;
    throw error;
  }
}

function parseArgs(mutation: MutationEnvelope): { name: MutationName; args: unknown } {
  if (!isMutationName(mutation.name)) {
    const message = `unknown mutation '${mutation.name}': this server does not implement it`;
    throw new AppFailure('bad_request', message, [{ path: 'name', message }], reason('unknownEdit', { name: mutation.name }));
  }
  const retired = retiredReason(mutation.name, mutation.args);
  if (retired) throw new AppFailure('bad_request', retired.message, undefined, retired.reason);
  const parsed = mutations[mutation.name].args.safeParse(mutation.args);
  if (!parsed.success) throw validationFailure(parsed.error);
  return { name: mutation.name, args: parsed.data };
}

/** Locks a row the mutation changes and checks that the viewer may change it; null when it is gone and `mayBeGone`. */
async function lockVisible(tx: ServerDb, viewer: OrgViewer, key: RowKey, mayBeGone = false): Promise<LockedRow | null> {
  const { entity, id } = parseRowKey(key);
  const row = (await entities[entity].lock(tx, viewer, [id])).get(id);
  if (!row && mayBeGone) return null;
  if (!row) throw missingRow(key);
  if (!row.visible) throw new AppFailure('forbidden', `${key} is not yours to change`, undefined, reason('rowNotYours', { entity }));
  return row;
}

/** A touched row that moved since the edit's base, of an entity with field versions: decided once the edit shows what it changes. */
interface MovedRow {
  key: RowKey;
  base: number;
  version: number;
  before: Record<string, number>;
}

/** The conflict's result, with the touched rows as they are once the edit is rolled back. */
async function conflictResult(tx: ServerDb, mutation: MutationEnvelope, conflict: Conflict): Promise<MutationResult> {
  const current: SyncChange[] = [];
  for (const key of rowsOf(mutation.name as MutationName, mutation.args).touches) {
    const { entity, id } = parseRowKey(key);
    const change = await entities[entity].current(tx, id);
    if (change) current.push(change);
  }
  const error = new AppFailure('conflict', `changed by someone else since you edited it: ${conflict.message}`, conflict.fields.map(conflictIssue), reason('editConflict')).error;
  return { id: mutation.id, status: 'conflict', error, current, ...(conflict.fields.length > 0 && { fields: conflict.fields }) };
}

/**
 * Locks every touched and moved row and checks that the viewer may edit it. A touched row must be
 * at the version the client saw, unless its entity keeps field versions: then it is returned, to
 * be judged by the fields the edit changes (a moved one is checked by its state when the step applies).
 */
async function checkTouchedRows(tx: ServerDb, viewer: OrgViewer, mutation: MutationEnvelope, rows: { touches: RowKey[]; moves: RowKey[]; removes: RowKey[] }, versions: Map<RowKey, number>): Promise<MovedRow[]> {
  const stale: string[] = [];
  const movedOn: MovedRow[] = [];
  const removes = new Set(rows.removes);
  for (const key of rows.touches) {
    const base = mutation.baseVersions[key];
    if (base === undefined) {
      const message = `the base version of ${key} is missing`;
      throw new AppFailure('validation_failed', `validation failed: baseVersions: ${message}`, [{ path: `baseVersions.${key}`, message }]);
    }
    // A row the edit removes that is gone already: that part of the edit is done.
    const row = await lockVisible(tx, viewer, key, removes.has(key));
    if (!row) continue;
    const { version, fieldVersions } = row;
    versions.set(key, version);
    if (version === base) continue;
    if (fieldVersions && base < version) movedOn.push({ key, base, version, before: fieldVersions });
    else stale.push(`${key} is at version ${version}, not ${base}`);
  }
  for (const key of rows.moves) await lockVisible(tx, viewer, key);
  if (stale.length > 0) throw new Conflict(stale, []);
  return movedOn;
}

/**
 * After the edit ran on rows that moved since its base: a conflict exactly where a field group it
 * changed had changed on the server after the base (architecture, sync rule 6). Edits of other
 * fields of the row merge. What it changed is what it declares (the registry's `fields`) and the
 * rows show changed: a group the write touched only as a side effect is not the user's edit.
 * `after` holds the rows as the edit left them.
 */
function checkChangedFields(movedOn: MovedRow[], declared: (key: RowKey) => readonly string[], after: ReadonlyMap<RowKey, Record<string, unknown>>): void {
  const stale: string[] = [];
  const fields: string[] = [];
  for (const { key, base, version, before } of movedOn) {
    const row = after.get(key);
    // A row the edit deleted loses every change made to it since the base: each is a conflict.
    const changed = row ? changedGroups(before, (row.fieldVersions as Record<string, number> | null) ?? {}).filter((group) => declared(key).includes(group)) : Object.keys(before).filter((group) => group !== '*');
    const groups = conflictingGroups(before, changed, base);
    if (groups.length === 0) continue;
    stale.push(`${key} is at version ${version}, not ${base}, and its ${groups.join(', ')} changed since`);
    fields.push(...groups.filter((group) => !fields.includes(group)));
  }
  if (stale.length > 0) throw new Conflict(stale, fields);
}

/** The ids of `keys`, by entity. */
function idsByEntity(keys: readonly RowKey[]): Map<EntityName, string[]> {
  const ids = new Map<EntityName, string[]>();
  for (const key of new Set(keys)) {
    const { entity, id } = parseRowKey(key);
    const some = ids.get(entity);
    if (some) some.push(id);
    else ids.set(entity, [id]);
  }
  return ids;
}

/**
 * Applies one new mutation inside a savepoint: a conflict or a refusal (any AppFailure: bad
 * args, permissions, business rules) rolls back whatever it began and becomes its result.
 */
async function decide(tx: ServerDb, viewer: Pusher, mutation: MutationEnvelope, parsed: Parsed, at: Date, audit: Audit): Promise<MutationResult> {
  if (parsed instanceof AppFailure) return { id: mutation.id, status: 'rejected', error: parsed.error };
  const { name, args } = parsed;
  try {
    return await tx.transaction(async (savepoint) => {
      const rows = rowsOf(name, args);
      const { touches, creates, moves } = rows;
      const versions = new Map<RowKey, number>();
      const movedOn = await checkTouchedRows(savepoint, viewer, mutation, rows, versions);
      const audited = [...new Set([...touches, ...creates])];
      // A row the edit creates is not there before it: its insert refuses an id taken already.
      const made = new Set(creates);
      const before = await auditStep(() => rowsBefore(savepoint, audit, audited.filter((key) => !made.has(key)), versions));
      const outcome = await applyOf(name)(savepoint, args, viewer, at, mutation.baseVersions as Record<RowKey, number>);
      // Every row the edit touched, created or moved, read once after it ran (locked up front, or
      // new in this transaction): the audit event's rows after it, and their versions.
      const now = await snapshots(savepoint, audit, [...new Set([...audited, ...moves])]);
      checkChangedFields(movedOn, fieldsOf(name, args), now);
      await auditStep(() => {
        audit.entries.push(auditEntry(viewer, audit.clientId, mutation, args, at, audited, before, now));
        for (const key of audited) {
          const row = now.get(key);
          if (row) audit.known.set(key, row);
        }
      });
      const applied = Object.fromEntries([...now].map(([key, row]) => [key, row.version as number]));
      return { id: mutation.id, status: 'applied' as const, versions: applied, ...(outcome && { outcome }) };
    });
  } catch (error) {
    if (error instanceof Conflict) return conflictResult(tx, mutation, error);
    if (error instanceof AppFailure) return { id: mutation.id, status: 'rejected', error: error.error };
    throw error;
  }
}

/** A new mutation whose args parsed, with the rows it names. */
interface Ready {
  mutation: MutationEnvelope;
  name: MutationName;
  args: unknown;
  rows: ReturnType<typeof rowsOf>;
}

/** The bulk write of a run of mutations of one name (the registry's applyTogether), if it has one. */
function togetherOf(name: MutationName) {
  return applyTogether[name] as ((db: ServerDb, args: readonly unknown[], viewer: OrgViewer, at: Date) => Promise<void>) | undefined;
}

/** A mutation a run may take: it creates rows and touches, moves or removes none, so no lock, base version or field check applies. */
function createsOnly(mutation: MutationEnvelope, parsed: Parsed | undefined): Ready | null {
  if (!parsed || parsed instanceof AppFailure || !togetherOf(parsed.name)) return null;
  const rows = rowsOf(parsed.name, parsed.args);
  if (rows.touches.length > 0 || rows.moves.length > 0 || rows.removes.length > 0) return null;
  return { mutation, name: parsed.name, args: parsed.args, rows };
}

/**
 * Applies a run of consecutive new mutations of one name that only create rows, written together
 * in one savepoint: the same rows, results and audit events as one by one, in a few statements.
 * Null when the write refused any of them: the savepoint took the run back, to be decided one by
 * one (so that a refusal is its own mutation's and the others apply).
 */
async function decideTogether(tx: ServerDb, viewer: Pusher, run: readonly Ready[], at: Date, audit: Audit): Promise<MutationResult[] | null> {
  try {
    const { entries, now } = await tx.transaction(async (savepoint) => {
      await togetherOf(run[0]!.name)!(savepoint, run.map((ready) => ready.args), viewer, at);
      // Every row the run created, read once: the audit events' rows after it, and their versions.
      const now = await snapshots(savepoint, audit, run.flatMap((ready) => ready.rows.creates));
      const entries = await auditStep(() => run.map(({ mutation, args, rows }) => auditEntry(viewer, audit.clientId, mutation, args, at, [...new Set(rows.creates)], new Map(), now)));
      return { entries, now };
    });
    audit.entries.push(...entries);
    return run.map(({ mutation, rows }) => {
      const versions: Record<RowKey, number> = {};
      for (const key of rows.creates) {
        const row = now.get(key);
        if (!row) continue;
        audit.known.set(key, row);
        versions[key] = row.version as number;
      }
      return { id: mutation.id, status: 'applied' as const, versions };
    });
  } catch (error) {
    if (error instanceof AppFailure) return null;
    throw error;
  }
}

/** The audit events of a push's applied mutations, appended at its end (src-server/audit/chain.ts). */
interface Audit {
  clientId: string;
  entries: AuditEntry[];
  /** The push run's transaction, which its mutations' savepoints share. */
  tx: ServerDb;
  /** Per entity, the read of one row as it is, prepared once per push run. */
  reads: Map<EntityName, (id: string) => Promise<Record<string, unknown>[]>>;
  /** The rows as the run last read them: locked up front, then as each applied mutation left them. */
  known: Map<RowKey, Record<string, unknown>>;
}

/**
 * The rows an edit touches as they are before it runs: as the run last read them when the row is
 * still at that version (every write of a row moves its version; the lock just read it), else
 * read again. A drain's edits then read their rows once each, after they ran.
 */
async function rowsBefore(tx: ServerDb, audit: Audit, keys: readonly RowKey[], versions: ReadonlyMap<RowKey, number>): Promise<Map<RowKey, Record<string, unknown>>> {
  const found = new Map<RowKey, Record<string, unknown>>();
  const unknown: RowKey[] = [];
  for (const key of keys) {
    const row = audit.known.get(key);
    if (row && versions.has(key) && row.version === versions.get(key)) found.set(key, row);
    else unknown.push(key);
  }
  for (const [key, row] of await snapshots(tx, audit, unknown)) found.set(key, row);
  return found;
}

/**
 * One row of the entity as it is, by a statement built once per push run: drizzle builds a select
 * of a contract's every column in about a millisecond, and each edit of a drain reads its row
 * after it ran (building that read per edit was a third of a 1,000-edit drain).
 */
function rowRead(audit: Audit, entity: EntityName): (id: string) => Promise<Record<string, unknown>[]> {
  const kept = audit.reads.get(entity);
  if (kept) return kept;
  const table: AuditedTable = entities[entity].table;
  const prepared = audit.tx.select().from(table).where(eq(table.id, sql.placeholder('id'))).prepare(`audit_row_${entity}`);
  const read = async (id: string) => (await prepared.execute({ id })) as Record<string, unknown>[];
  audit.reads.set(entity, read);
  return read;
}

/** The rows of `keys` that exist, as they are in the transaction, one statement per entity (a single row by its prepared read). */
async function snapshots(tx: ServerDb, audit: Audit, keys: readonly RowKey[]): Promise<Map<RowKey, Record<string, unknown>>> {
  const found = new Map<RowKey, Record<string, unknown>>();
  for (const [entity, ids] of idsByEntity(keys)) {
    if (ids.length === 1) {
      for (const row of await rowRead(audit, entity)(ids[0]!)) found.set(rowKey(entity, row.id as string), row);
      continue;
    }
    for (let at = 0; at < ids.length; at += lockChunk) {
      for (const row of await rowSnapshots(tx, entities[entity].table, ids.slice(at, at + lockChunk))) found.set(rowKey(entity, row.id as string), row);
    }
  }
  return found;
}

/**
 * One event per applied mutation, about the first row it touches or creates. The fields of an
 * edit of several rows are named with their row (`performanceTask:…/status`).
 */
function auditEntry(viewer: Pusher, clientId: string, mutation: MutationEnvelope, args: unknown, at: Date, keys: readonly RowKey[], before: ReadonlyMap<RowKey, Record<string, unknown>>, after: ReadonlyMap<RowKey, Record<string, unknown>>): AuditEntry {
  let changes: Record<string, AuditChange> = {};
  for (const key of keys) {
    const fields = changedFields(before.get(key), after.get(key));
    if (keys.length === 1) changes = fields;
    else for (const field in fields) changes[`${key}/${field}`] = fields[field]!;
  }
  const main = keys[0] && parseRowKey(keys[0]);
  const takenAt = (args as { takenAt?: unknown }).takenAt;
  const editedAt = typeof takenAt === 'string' ? takenAt : mutation.createdAt;
  return {
    organisationId: viewer.organisationId,
    userId: viewer.id,
    userName: viewer.displayName,
    device: auditDevice(viewer, clientId),
    entity: main ? main.entity : mutation.name.slice(0, mutation.name.indexOf('.')),
    entityId: main ? main.id : null,
    action: mutation.name,
    changes,
    editedAt: editedAt === undefined ? null : new Date(editedAt),
    appliedAt: at,
    mutationId: mutation.id,
    requestId: null,
  };
}

/** Ids per locking statement: well under PostgreSQL's bound-parameter limit. */
const lockChunk = 1000;

/**
 * Locks every existing row the batch's new mutations touch or move, before any of them runs: by
 * entity, then by id, in chunks in that order. Two pushes naming the same rows in different orders
 * then queue behind each other instead of each holding a row the other waits for (a deadlock that
 * PostgreSQL ends by failing one of them). Ids sort alike in JavaScript and in the "C" collation.
 * A mutation whose args do not parse locks nothing: it is refused when its turn comes.
 */
async function lockInOneOrder(tx: ServerDb, batch: readonly Parsed[], known: Map<RowKey, Record<string, unknown>>): Promise<void> {
  const ids = new Map<EntityName, Set<string>>();
  for (const parsed of batch) {
    if (parsed instanceof AppFailure) continue;
    const { touches, moves } = rowsOf(parsed.name, parsed.args);
    for (const key of [...touches, ...moves]) {
      const { entity, id } = parseRowKey(key);
      ids.set(entity, (ids.get(entity) ?? new Set()).add(id));
    }
  }
  for (const entity of [...ids.keys()].sort()) {
    const table: AuditedTable = entities[entity].table;
    const sorted = [...ids.get(entity)!].sort();
    for (let at = 0; at < sorted.length; at += lockChunk) {
      // Whole rows: the audit events' rows before the edits, while nothing changed them yet.
      const rows = (await tx.select().from(table).where(inArray(table.id, sorted.slice(at, at + lockChunk))).orderBy(sql`${table.id} collate "C"`).for('update')) as Record<string, unknown>[];
      for (const row of rows) known.set(rowKey(entity, row.id as string), row);
    }
  }
}

/** A mutation the batch claimed: new, so decided here; or one a stored result already answers. */
type Claim = { mutation: MutationEnvelope; stored?: MutationResult; repeat?: true };

/**
 * Claims the batch's mutation ids in one statement. An id already taken keeps its stored result
 * (its user's only); a concurrent push of the same id waits here until the first one commits.
 */
async function claimAll(tx: ServerDb, viewer: OrgViewer, clientId: string, ordered: MutationEnvelope[]): Promise<Claim[]> {
  const rows = ordered.map((m) => ({ id: m.id, userId: viewer.id, clientId, seq: m.seq, name: m.name }));
  const claimed = new Set<string>();
  for (let at = 0; at < rows.length; at += claimChunk) {
    const chunk = await tx.insert(processedMutations).values(rows.slice(at, at + claimChunk)).onConflictDoNothing({ target: processedMutations.id }).returning({ id: processedMutations.id });
    for (const { id } of chunk) claimed.add(id);
  }
  const taken = ordered.filter((m) => !claimed.has(m.id)).map((m) => m.id);
  const stored = new Map<string, { userId: string; result: MutationResult | null }>();
  for (let at = 0; at < taken.length; at += claimChunk) {
    const chunk = taken.slice(at, at + claimChunk);
    for (const row of await tx.select({ id: processedMutations.id, userId: processedMutations.userId, result: processedMutations.result }).from(processedMutations).where(inArray(processedMutations.id, chunk))) stored.set(row.id, row);
  }
  const decided = new Set<string>();
  return ordered.map((mutation) => {
    // The same id twice in one batch: the first decides it, the second repeats its result.
    if (claimed.has(mutation.id)) {
      if (decided.has(mutation.id)) return { mutation, repeat: true };
      decided.add(mutation.id);
      return { mutation };
    }
    const found = stored.get(mutation.id);
    if (!found?.result) throw new Error(`processed mutation ${mutation.id} has no stored result`);
    if (found.userId !== viewer.id) {
      const message = `mutation id ${mutation.id} was already used by another user`;
      return { mutation, stored: { id: mutation.id, status: 'rejected', error: new AppFailure('conflict', message).error } };
    }
    return { mutation, stored: found.result };
  });
}

/** Rows per claim or result statement: well under PostgreSQL's bound-parameter limit. */
const claimChunk = 1000;

/** Stores the batch's new results with their claims, in one statement per chunk. */
async function storeResults(tx: ServerDb, results: MutationResult[]): Promise<void> {
  for (let at = 0; at < results.length; at += claimChunk) {
    const chunk = results.slice(at, at + claimChunk);
    const values = sql.join(chunk.map((r) => sql`(${r.id}, ${JSON.stringify(r)}::jsonb)`), sql`, `);
    await tx.execute(sql`update ${processedMutations} set result = v.result from (values ${values}) as v(id, result) where ${processedMutations.id} = v.id`);
  }
}

/**
 * Results come in the order the mutations were applied: by `seq`. A mutation whose seq is below
 * one applied earlier is still applied if its id is new: nothing is dropped silently.
 * Unexpected errors fail the request and roll the whole batch back (the client retries it).
 */
export async function pushMutations(db: ServerDb, viewer: Pusher, request: SyncPushRequest, at: Date): Promise<SyncPushResponse> {
  checkSyncVersions(request);
  const ordered = [...request.mutations].sort((a, b) => a.seq - b.seq);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await pushOnce(db, viewer, request.clientId, ordered, at);
    } catch (error) {
      if (attempt >= maxPushAttempts || !lostRace.has(postgresCode(error) ?? '')) throw error;
      // Apart, so that the pushes that collided do not meet again at once.
      await sleep(Math.random() * 20 * attempt);
    }
  }
}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled back for a race it lost, and may run again. */
const lostRace = new Set(['40P01', '40001']);
/** Runs of one push before such a failure is given up on (each run is rolled back whole). */
const maxPushAttempts = 5;

/** One run of a push: the whole batch in one transaction. */
async function pushOnce(db: ServerDb, viewer: Pusher, clientId: string, ordered: MutationEnvelope[], at: Date): Promise<SyncPushResponse> {
  return db.transaction(async (tx) => {
    const results: MutationResult[] = [];
    const decided = new Map<string, MutationResult>();
    const audit: Audit = { clientId, entries: [], tx, reads: new Map(), known: new Map() };
    const claims = await claimAll(tx, viewer, clientId, ordered);
    const parsed = new Map(claims.flatMap((claim) => (claim.stored || claim.repeat ? [] : [[claim.mutation.id, parseOnce(claim.mutation)] as const])));
    await lockInOneOrder(tx, [...parsed.values()], audit.known);
    for (let i = 0; i < claims.length; ) {
      const { mutation, stored, repeat } = claims[i]!;
      const known = stored ?? (repeat && decided.get(mutation.id));
      if (known) {
        results.push(known);
        i += 1;
        continue;
      }
      // A run of new creations of one name that the registry writes together (a drain of plans made offline).
      const run: Ready[] = [];
      for (let j = i; j < claims.length; j += 1) {
        const claim = claims[j]!;
        const ready = claim.stored || claim.repeat ? null : createsOnly(claim.mutation, parsed.get(claim.mutation.id));
        if (!ready || (run.length > 0 && ready.name !== run[0]!.name)) break;
        run.push(ready);
      }
      const step = run.length > 1 ? run.map((ready) => ready.mutation) : [mutation];
      const together = run.length > 1 ? await decideTogether(tx, viewer, run, at, audit) : null;
      const outcomes = together ?? [];
      if (!together) for (const one of step) outcomes.push(await decide(tx, viewer, one, parsed.get(one.id)!, at, audit));
      for (const result of outcomes) {
        decided.set(result.id, result);
        results.push(result);
      }
      i += step.length;
    }
    await storeResults(tx, [...decided.values()]);
    // Last, so that the chain's lock is held only from here to the commit.
    await auditStep(() => appendAuditEvents(tx, audit.entries));
    return { results };
  });
}
