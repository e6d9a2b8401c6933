import { inArray, sql } from 'drizzle-orm';
import type { MutationEnvelope, MutationOutcome, MutationResult, SyncChange, SyncPushRequest, SyncPushResponse } from '../../src-shared/api/sync';
import { AppFailure, validationFailure, reason } from '../../src-shared/errors';
import { fieldsOf, isMutationName, missingRow, mutations, retiredReason, rowsOf, type MutationName, type RowKey } from '../../src-shared/sync/mutations';
import type { ServerDb } from '../db/database';
import { processedMutations } from '../db/schema';
import type { OrgViewer } from '../http/feature-helpers';
import { changedGroups, conflictIssue, conflictingGroups } from '../../src-shared/sync/field-versions';
import { applyMutation, entities, parseRowKey, type LockedRow } from './mutations';
import { checkSyncVersions } from './protocol';

// Push (architecture, sync rules 2, 5, 6): each mutation is decided exactly once, in the client's
// sequence order. A batch is one transaction (one commit instead of one per mutation: the drain
// of a long offline day is bounded by commits); each mutation first claims its id in
// processed_mutations (its primary key), then runs in its own savepoint, so a refusal or a
// conflict rolls back only its own effect. A concurrent push of the same id waits on that claim
// and, once the first batch commits, finds the id taken and returns the stored result. The result
// is stored in the same transaction as the effect, so either both exist or neither does.

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
  const row = await entities[entity].lock(tx, viewer, id);
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
async function checkTouchedRows(tx: ServerDb, viewer: OrgViewer, mutation: MutationEnvelope, rows: { touches: RowKey[]; moves: RowKey[]; removes: RowKey[] }): Promise<MovedRow[]> {
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
function checkChangedFields(movedOn: MovedRow[], declared: (key: RowKey) => readonly string[], after: ReadonlyMap<RowKey, LockedRow>): void {
  const stale: string[] = [];
  const fields: string[] = [];
  for (const { key, base, version, before } of movedOn) {
    const row = after.get(key);
    // A row the edit deleted loses every change made to it since the base: each is a conflict.
    const changed = row ? changedGroups(before, row.fieldVersions ?? {}).filter((group) => declared(key).includes(group)) : Object.keys(before).filter((group) => group !== '*');
    const groups = conflictingGroups(before, changed, base);
    if (groups.length === 0) continue;
    stale.push(`${key} is at version ${version}, not ${base}, and its ${groups.join(', ')} changed since`);
    fields.push(...groups.filter((group) => !fields.includes(group)));
  }
  if (stale.length > 0) throw new Conflict(stale, fields);
}

/** Every row the edit touched, created or moved, read once after it ran (they are locked already, or new in this transaction). */
async function rowsAfter(tx: ServerDb, viewer: OrgViewer, keys: RowKey[]): Promise<Map<RowKey, LockedRow>> {
  const after = new Map<RowKey, LockedRow>();
  for (const key of new Set(keys)) {
    const { entity, id } = parseRowKey(key);
    const row = await entities[entity].lock(tx, viewer, id);
    if (row) after.set(key, row);
  }
  return after;
}

/**
 * Applies one new mutation inside a savepoint: a conflict or a refusal (any AppFailure: bad
 * args, permissions, business rules) rolls back whatever it began and becomes its result.
 */
async function decide(tx: ServerDb, viewer: OrgViewer, mutation: MutationEnvelope, at: Date): Promise<MutationResult> {
  try {
    return await tx.transaction(async (savepoint) => {
      const { name, args } = parseArgs(mutation);
      const rows = rowsOf(name, args);
      const { touches, creates, moves } = rows;
      const movedOn = await checkTouchedRows(savepoint, viewer, mutation, rows);
      const outcome = await applyOf(name)(savepoint, args, viewer, at, mutation.baseVersions as Record<RowKey, number>);
      const after = await rowsAfter(savepoint, viewer, [...touches, ...creates, ...moves]);
      checkChangedFields(movedOn, fieldsOf(name, args), after);
      const versions = Object.fromEntries([...after].map(([key, row]) => [key, row.version]));
      return { id: mutation.id, status: 'applied' as const, versions, ...(outcome && { outcome }) };
    });
  } catch (error) {
    if (error instanceof Conflict) return conflictResult(tx, mutation, error);
    if (error instanceof AppFailure) return { id: mutation.id, status: 'rejected', error: error.error };
    throw error;
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
export async function pushMutations(db: ServerDb, viewer: OrgViewer, request: SyncPushRequest, at: Date): Promise<SyncPushResponse> {
  checkSyncVersions(request);
  const ordered = [...request.mutations].sort((a, b) => a.seq - b.seq);
  return db.transaction(async (tx) => {
    const results: MutationResult[] = [];
    const decided = new Map<string, MutationResult>();
    for (const { mutation, stored, repeat } of await claimAll(tx, viewer, request.clientId, ordered)) {
      const known = stored ?? (repeat && decided.get(mutation.id));
      if (known) {
        results.push(known);
        continue;
      }
      const result = await decide(tx, viewer, mutation, at);
      decided.set(mutation.id, result);
      results.push(result);
    }
    await storeResults(tx, [...decided.values()]);
    return { results };
  });
}
