import { and, asc, count, eq, gt, inArray, min, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { maxPushArgsBytes, mutationOutcomeSchema, mutationResultSchema, syncChangeSchema, type MutationEnvelope, type MutationOutcome, type MutationResult } from '../../../src-shared/api/sync';
import { userSchema, type User } from '../../../src-shared/domain/user';
import { AppFailure, appErrorSchema, issuesFromZod, reason, validationFailure, type AppError, type Reason } from '../../../src-shared/errors';
import { isMutationName, missingRow, mutations, retiredReason, rowKey, rowsOf, type MutationArgs, type MutationName, type RowKey } from '../../../src-shared/sync/mutations';
import type { Clock } from '../ports';
import type { OpenReplica } from './replica';
import { overlayOf, preparedPerDatabase, type ClientMutation, type DataEntity, type LocalContext, type ReplicaFeatures, type ReplicaTx, type VersionedRow, type WorkingRows } from './replica-features';
import { outbox, outboxTouches, replicaMeta, type OutboxState } from './schema';

// The outbox of the sync engine (architecture, sync rules 1, 4–6) and the optimistic rows it
// implies. Every state change of a mutation rebuilds the optimistic rows it touches (each
// feature's overlay) in the same transaction, so what screens show is always base + live
// mutations. What a mutation does on the client is its feature's (replica-features.ts).

type Db = ReplicaTx;
type OutboxRow = typeof outbox.$inferSelect;

/** Mutations whose effect the user still sees on top of the base rows. */
const liveStates: OutboxState[] = ['pending', 'applied'];
/** Besides those, a refused one whose feature keeps it shown (a refused draft stays the user's until re-sent or discarded). */
const shownStates: OutboxState[] = [...liveStates, 'rejected'];
/** Answers without a valid result for a mutation before it is set aside (one poisoned item never blocks). */
const maxAttempts = 5;
const versionsSchema = z.record(z.string(), z.number().int());

interface ParsedMutation {
  name: MutationName;
  args: unknown;
  baseVersions: Record<string, number>;
  /** The rows whose base versions the server checks. */
  touches: RowKey[];
  /** Those, the rows it creates and the rows it moves (state checked): every row the edit shows on. */
  shows: RowKey[];
}

const setAsideError = (why: string, because: Reason): AppError => ({ code: 'bad_request', message: `Set aside: ${why}.`, reason: because });

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A stored mutation checked against this build's registry, or why it cannot be used. */
function parseStored(row: OutboxRow): ParsedMutation | AppError {
  if (!isMutationName(row.name)) return setAsideError(`unknown mutation "${row.name}" (written by another version of the app)`, reason('setAsideUnknown', { name: row.name }));
  const stored = parseJson(row.args);
  // A shape an earlier version wrote and this one refuses (e.g. a status set by hand).
  const retired = retiredReason(row.name, stored);
  if (retired) return setAsideError(retired.message, retired.reason);
  const args = mutations[row.name].args.safeParse(stored);
  const baseVersions = versionsSchema.safeParse(parseJson(row.baseVersions));
  if (!args.success || !baseVersions.success) {
    const issues = args.success ? 'base versions unreadable' : issuesFromZod(args.error).map((i) => `${i.path}: ${i.message}`).join('; ');
    return setAsideError(`the stored "${row.name}" is corrupted (${issues})`, reason('setAsideCorrupted'));
  }
  const { touches, creates, moves } = rowsOf(row.name, args.data);
  return { name: row.name, args: args.data, baseVersions: baseVersions.data, touches, shows: [...touches, ...creates, ...moves] };
}

const isError = (parsed: ParsedMutation | AppError): parsed is AppError => 'code' in parsed;

/** The client side of a mutation whose name and args were checked together against the shared registry. */
const clientSide = (features: ReplicaFeatures, name: MutationName) => features.mutations[name] as unknown as ClientMutation<MutationName>;

/** The base row's version of `key`; -1 when the replica has none or holds no such entity. */
function readBaseVersion(db: Db, features: ReplicaFeatures, key: string): number {
  const found = overlayOf(features, key);
  if (!found) return -1;
  const version = found.overlay.baseVersion ? found.overlay.baseVersion(db, found.id) : (found.overlay.base(db, found.id)?.version ?? null);
  return version ?? -1;
}

/** The base row of `key`; null when the replica has none or holds no such entity. */
function readBase(db: Db, features: ReplicaFeatures, key: string): VersionedRow | null {
  const found = overlayOf(features, key);
  return found ? found.overlay.base(db, found.id) : null;
}

const ownerKey = 'owner';

/** Whose replica this is (one per user): a row made here is theirs until the server says more. */
export function setReplicaOwner(db: Db, owner: User): void {
  const value = JSON.stringify(owner);
  db.insert(replicaMeta).values({ key: ownerKey, value }).onConflictDoUpdate({ target: replicaMeta.key, set: { value } }).run();
}

/** Read after every edit, for the sync status the UI shows. */
const statusQueries = preparedPerDatabase((db) => ({
  queue: db.select({ queued: count(), oldest: min(outbox.createdAt) }).from(outbox).where(eq(outbox.state, 'pending')).prepare(),
  problems: db.select().from(outbox).where(inArray(outbox.state, ['rejected', 'conflict'])).orderBy(asc(outbox.seq)).prepare(),
  waiting: db
    .select({ id: outbox.id, name: outbox.name, args: outbox.args, createdAt: outbox.createdAt })
    .from(outbox)
    .where(eq(outbox.state, 'pending'))
    .orderBy(asc(outbox.seq))
    .limit(sql.placeholder('limit'))
    .prepare(),
}));

const anyLive = preparedPerDatabase((db) => db.select({ seq: outbox.seq }).from(outbox).where(inArray(outbox.state, liveStates)).limit(1).prepare());

const ownerQuery = preparedPerDatabase((db) => db.select({ value: replicaMeta.value }).from(replicaMeta).where(eq(replicaMeta.key, ownerKey)).prepare());

function readOwner(db: Db): User | null {
  const row = ownerQuery(db).get();
  return userSchema.nullable().catch(null).parse(parseJson(row?.value ?? null) ?? null);
}

function touchesOf(db: Db, seqs: number[]): string[] {
  if (seqs.length === 0) return [];
  return db.select({ key: outboxTouches.rowKey }).from(outboxTouches).where(inArray(outboxTouches.seq, seqs)).all().map((t) => t.key);
}

/**
 * The state test is kept off `outbox_state_seq` (`+state`): given a dozen keys or more, SQLite would
 * otherwise walk every live mutation and probe each key under it, which made a 1,000-plan drain
 * quadratic (a 1,300-key call took 1.2 s instead of 12 ms).
 */
interface LiveTouch {
  seq: number;
  state: OutboxState;
  rowKey: string;
  baseVersions: string;
  appliedVersions: string | null;
}

const liveState = (states: OutboxState[]) => inArray(sql`+${outbox.state}`, states);

/** Keys per statement, well within SQLite's bound on bound parameters. */
const keysPerQuery = 5000;

function liveSeqsTouching(db: Db, keys: string[], extra?: ReturnType<typeof gt>, states: OutboxState[] = liveStates): LiveTouch[] {
  if (keys.length > keysPerQuery) {
    const parts: LiveTouch[] = [];
    for (let at = 0; at < keys.length; at += keysPerQuery) parts.push(...liveSeqsTouching(db, keys.slice(at, at + keysPerQuery), extra, states));
    return parts.sort((a, b) => a.seq - b.seq);
  }
  if (keys.length === 0) return [];
  return db
    .select({ seq: outbox.seq, state: outbox.state, rowKey: outboxTouches.rowKey, baseVersions: outbox.baseVersions, appliedVersions: outbox.appliedVersions })
    .from(outboxTouches)
    .innerJoin(outbox, eq(outbox.seq, outboxTouches.seq))
    .where(and(inArray(outboxTouches.rowKey, keys), liveState(states), extra))
    .orderBy(asc(outbox.seq))
    .all();
}

/** Whether a refused mutation's effect stays shown (its feature says so): it then holds its rows until re-sent or discarded. */
const keptWhenRefused = (features: ReplicaFeatures, name: MutationName) => clientSide(features, name).keptWhenRefused === true;

/**
 * Rebuilds the optimistic rows of `keys`: base rows with the live mutations touching them
 * re-applied in seq order (a mutation touching two rows ties their replays together, hence the
 * closure). Applied mutations whose result a pulled base row already holds are dropped here.
 */
export function rebuildOverlay(db: Db, features: ReplicaFeatures, keys: Iterable<string>): void {
  const closure = new Set(keys);
  const seqs = new Set<number>();
  for (let frontier = [...closure]; frontier.length > 0; ) {
    const found = liveSeqsTouching(db, frontier, undefined, shownStates).map((t) => t.seq).filter((seq) => !seqs.has(seq));
    for (const seq of found) seqs.add(seq);
    frontier = touchesOf(db, found).filter((key) => !closure.has(key));
    for (const key of frontier) closure.add(key);
  }
  const base = new Map<string, VersionedRow | null>();
  const baseOf = (key: string) => {
    if (!base.has(key)) base.set(key, readBase(db, features, key));
    return base.get(key) ?? null;
  };
  const working = new Map<string, unknown>();
  const rows: WorkingRows = { get: (key) => working.get(key) ?? baseOf(key), put: (key, row) => working.set(key, row) };
  const shown = new Set<string>();
  const done: number[] = [];
  let owner: User | null | undefined;
  const live = seqs.size === 0 ? [] : db.select().from(outbox).where(inArray(outbox.seq, [...seqs])).orderBy(asc(outbox.seq)).all();
  for (const row of live) {
    const parsed = parseStored(row);
    if (isError(parsed)) {
      db.update(outbox).set({ state: 'rejected', error: JSON.stringify(parsed) }).where(eq(outbox.seq, row.seq)).run();
      continue;
    }
    if (row.state === 'rejected' && !keptWhenRefused(features, parsed.name)) continue;
    if (row.state === 'applied') {
      const applied = versionsSchema.safeParse(parseJson(row.appliedVersions));
      // A row not pulled yet has no base: the edit stays shown (and known to later edits) until it is.
      const inBase = !applied.success || parsed.shows.every((key) => (base.has(key) ? (base.get(key)?.version ?? -1) : readBaseVersion(db, features, key)) >= (applied.data[key] ?? 0));
      if (inBase) {
        done.push(row.seq);
        continue;
      }
    }
    owner ??= readOwner(db);
    const outcome = mutationOutcomeSchema.optional().catch(undefined).parse(parseJson(row.outcome));
    const context: LocalContext = { at: row.createdAt, owner, db, ...(outcome && { outcome }) };
    clientSide(features, parsed.name).apply(parsed.args as never, rows, context);
    for (const key of parsed.shows) shown.add(key);
  }
  for (let at = 0; at < done.length; at += keysPerQuery) db.delete(outbox).where(inArray(outbox.seq, done.slice(at, at + keysPerQuery))).run();
  for (const key of closure) {
    const found = overlayOf(features, key);
    const row = working.get(key);
    found?.overlay.setLocal(db, found.id, shown.has(key) && row ? row : null);
  }
}

/** After a pull page: re-applies the live mutations on top of the base rows it changed (`keys` is read only when some mutation is live). */
export function rebuildPulledRows(db: Db, features: ReplicaFeatures, keys: Iterable<RowKey>): void {
  if (!anyLive(db).get()) return;
  // Looked up by the page's keys: the queue may hold thousands of rows the page never names.
  const touched = [...new Set(liveSeqsTouching(db, [...keys]).map((t) => t.rowKey))];
  // A row the pull deleted never catches up with our applied edits of it: they are done. Told by
  // its version alone: after a drain of plans, a page names thousands of rows that are all there.
  const gone = touched.filter((key) => readBaseVersion(db, features, key) === -1);
  const doneSeqs = liveSeqsTouching(db, gone).filter((t) => t.state === 'applied').map((t) => t.seq);
  if (doneSeqs.length > 0) db.delete(outbox).where(inArray(outbox.seq, doneSeqs)).run();
  rebuildOverlay(db, features, touched);
}

export interface OutboxProblem {
  id: string;
  name: string;
  state: 'rejected' | 'conflict';
  args: unknown;
  createdAt: string;
  error: AppError | null;
  /** The server's current rows of a conflict. */
  current: z.infer<typeof syncChangeSchema>[];
}

export interface OutboxStatus {
  queued: number;
  oldestQueuedAt: string | null;
  problems: OutboxProblem[];
}

export interface OutboxOptions {
  clock: Clock;
  features: ReplicaFeatures;
  newId?: () => string;
}

export function createOutbox({ db }: OpenReplica, { clock, features, newId = uuidv7 }: OutboxOptions) {
  /** The version a new edit of `key` builds on: the base row's, or a newer confirmed one of ours. */
  function knownVersion(tx: Db, key: RowKey): number {
    let version = readBase(tx, features, key)?.version ?? 0;
    for (const row of liveSeqsTouching(tx, [key])) {
      const applied = versionsSchema.safeParse(parseJson(row.appliedVersions));
      if (row.state === 'applied' && applied.success) version = Math.max(version, applied.data[key] ?? 0);
    }
    return version;
  }

  function insert(tx: Db, name: MutationName, args: unknown, shows: RowKey[], baseVersions: Record<string, number>) {
    const id = newId();
    const { seq } = tx
      .insert(outbox)
      .values({ id, name, args: JSON.stringify(args), baseVersions: JSON.stringify(baseVersions), createdAt: clock.now().toISOString(), state: 'pending' })
      .returning({ seq: outbox.seq })
      .get();
    if (shows.length > 0) tx.insert(outboxTouches).values(shows.map((key) => ({ rowKey: key, seq }))).run();
    rebuildOverlay(tx, features, shows);
    return { id, seq };
  }

  /**
   * Moves a mutation out of the queue and reverts (or, when applied, keeps) its effect. With
   * `rebuild`, the rows to rebuild are collected there, so a whole push answer rebuilds them once.
   */
  function settle(tx: Db, seq: number, values: Partial<OutboxRow>, rebuild?: Set<string>) {
    tx.update(outbox).set(values).where(eq(outbox.seq, seq)).run();
    const keys = touchesOf(tx, [seq]);
    if (rebuild) for (const key of keys) rebuild.add(key);
    else rebuildOverlay(tx, features, keys);
  }

  /**
   * Later pending edits of rows made on top of these applied ones now build on their results. One
   * read for a whole push answer: a batch never holds two edits of one row (nextBatch), so the
   * later edits are outside it and keep their state while it settles.
   */
  function rebase(tx: Db, applied: readonly { seq: number; versions: Record<string, number> }[]) {
    const keys = [...new Set(applied.flatMap(({ versions }) => Object.keys(versions)))];
    if (keys.length === 0) return;
    const first = Math.min(...applied.map(({ seq }) => seq));
    const later = liveSeqsTouching(tx, keys, gt(outbox.seq, first)).filter((row) => row.state === 'pending');
    const next = new Map<number, Record<string, number>>();
    for (const { seq, versions } of applied) {
      for (const row of later) {
        const version = versions[row.rowKey];
        if (version === undefined || row.seq <= seq) continue;
        const base = next.get(row.seq) ?? versionsSchema.safeParse(parseJson(row.baseVersions)).data;
        if (base) next.set(row.seq, { ...base, [row.rowKey]: Math.max(base[row.rowKey] ?? 0, version) });
      }
    }
    for (const [seq, base] of next) tx.update(outbox).set({ baseVersions: JSON.stringify(base) }).where(eq(outbox.seq, seq)).run();
  }

  /** What the mutation's feature keeps of the server's answer (e.g. a replaced provisional number). */
  function noteOutcome(tx: Db, row: OutboxRow, outcome: MutationOutcome): readonly DataEntity[] {
    const parsed = parseStored(row);
    if (isError(parsed)) return [];
    return clientSide(features, parsed.name).applied?.(tx, parsed.args as never, outcome, clock.now().toISOString()) ?? [];
  }

  /**
   * Whether an applied edit's rows must be rebuilt: their optimistic rows stay as they were (the
   * edit is replayed alike once applied) unless its outcome changes the replay or the pulled rows
   * already hold its result (then it is done and leaves the queue). A drain of many new plans then
   * rebuilds none of their rows until the pull brings them.
   */
  function appliedChangesShown(tx: Db, row: OutboxRow, result: MutationResult & { status: 'applied' }): boolean {
    if (result.outcome) return true;
    const parsed = parseStored(row);
    return isError(parsed) || parsed.shows.some((key) => readBaseVersion(tx, features, key) >= (result.versions[key] ?? 0));
  }

  function settleResult(tx: Db, row: OutboxRow, result: MutationResult | undefined, rebuild: Set<string>, changed: Set<DataEntity>, applied: { seq: number; versions: Record<string, number> }[]) {
    if (!result) {
      const attempts = row.attempts + 1;
      if (attempts < maxAttempts) tx.update(outbox).set({ attempts }).where(eq(outbox.seq, row.seq)).run();
      else settle(tx, row.seq, { attempts, state: 'rejected', error: JSON.stringify(setAsideError(`the server gave no valid answer for it ${attempts} times`, reason('setAsideNoAnswer', { attempts }))) }, rebuild);
      return;
    }
    switch (result.status) {
      case 'applied': {
        const values = { state: 'applied' as const, appliedVersions: JSON.stringify(result.versions), outcome: result.outcome ? JSON.stringify(result.outcome) : null };
        if (appliedChangesShown(tx, row, result)) settle(tx, row.seq, values, rebuild);
        else tx.update(outbox).set(values).where(eq(outbox.seq, row.seq)).run();
        applied.push({ seq: row.seq, versions: result.versions });
        if (result.outcome) for (const entity of noteOutcome(tx, row, result.outcome)) changed.add(entity);
        return;
      }
      case 'rejected':
        settle(tx, row.seq, { state: 'rejected', error: JSON.stringify(result.error) }, rebuild);
        return;
      case 'conflict':
        settle(tx, row.seq, { state: 'conflict', error: JSON.stringify(result.error), current: JSON.stringify(result.current) }, rebuild);
    }
  }

  const problemRow = (id: string, state: 'rejected' | 'conflict') =>
    db.select().from(outbox).where(and(eq(outbox.id, id), eq(outbox.state, state))).get();

  /** The rows refused mutations kept shown hold (see keptWhenRefused). */
  function heldByRefusals(tx: Db): string[] {
    return tx
      .select()
      .from(outbox)
      .where(eq(outbox.state, 'rejected'))
      .all()
      .flatMap((row) => {
        const parsed = parseStored(row);
        return isError(parsed) || !keptWhenRefused(features, parsed.name) ? [] : parsed.shows;
      });
  }

  return {
    /** The optimistic effect and the outbox row, in one transaction (rule 1). */
    /** Every edit passes the shared schema and its feature's check (what the server would refuse) first. */
    enqueue<N extends MutationName>(name: N, args: MutationArgs<N>): { id: string; seq: number } {
      const parsed = mutations[name].args.safeParse(args);
      if (!parsed.success) throw validationFailure(parsed.error);
      const { touches, creates, moves } = rowsOf(name, parsed.data);
      return db.transaction((tx) => {
        // As the server does: a row the edit is based on or moves must exist (here: in the replica, or made by a queued edit).
        for (const key of [...touches, ...moves]) {
          const found = overlayOf(features, key);
          if (!found || found.overlay.name(tx, found.id) === null) throw missingRow(key);
        }
        clientSide(features, name).check(parsed.data, { db: tx, owner: readOwner(tx) });
        return insert(tx, name, parsed.data, [...touches, ...creates, ...moves], Object.fromEntries(touches.map((key) => [key, knownVersion(tx, key)])));
      });
    },

    /**
     * The next pending mutations in seq order, at most `limit`. A mutation waits while an earlier
     * pending one touches the same row: it was made on top of that one, so it is sent once that
     * one settles (re-based on its result when applied). No later mutation goes ahead of one that
     * waits, so edits take effect in the order the user made them: a mutation may change rows it
     * does not name (the default scene is one of all the user's scenes), so two that name
     * different rows may still not commute. A rejected or conflicting one does not take the later
     * ones down with it: they go on alone from the same base (after a conflict they usually
     * conflict too, and the user settles each). Unusable rows are set aside here.
     */
    nextBatch(limit: number): MutationEnvelope[] {
      return db.transaction((tx) => {
        const batch: MutationEnvelope[] = [];
        // Later edits of a refused draft wait for it: the server has no such row until it is re-sent.
        const busy = new Set<string>(heldByRefusals(tx));
        let bytes = 0;
        for (const row of tx.select().from(outbox).where(eq(outbox.state, 'pending')).orderBy(asc(outbox.seq)).all()) {
          if (batch.length >= limit) break;
          // A batch stays within the push size the server takes; the first mutation always goes.
          bytes += Buffer.byteLength(row.args);
          if (batch.length > 0 && bytes > maxPushArgsBytes) break;
          const parsed = parseStored(row);
          if (isError(parsed)) {
            settle(tx, row.seq, { state: 'rejected', error: JSON.stringify(parsed) });
            continue;
          }
          if (parsed.shows.some((key) => busy.has(key))) break;
          for (const key of parsed.shows) busy.add(key);
          batch.push({ id: row.id, seq: row.seq, name: row.name, args: parsed.args, baseVersions: parsed.baseVersions, createdAt: row.createdAt });
        }
        return batch;
      });
    },

    /**
     * Records the server's answer to a push; results that do not match the schema count as missing
     * (an attempt of that mutation). `answered` tells the caller whether the answer settled anything.
     */
    settle(sent: readonly MutationEnvelope[], results: readonly unknown[]): { malformed: number; answered: number; changed: DataEntity[] } {
      const byId = new Map<string, MutationResult>();
      let malformed = 0;
      for (const raw of results) {
        const result = mutationResultSchema.safeParse(raw);
        if (result.success) byId.set(result.data.id, result.data);
        else malformed += 1;
      }
      const changed = new Set<DataEntity>();
      db.transaction((tx) => {
        const rebuild = new Set<string>();
        const applied: { seq: number; versions: Record<string, number> }[] = [];
        for (const mutation of sent) {
          const row = tx.select().from(outbox).where(eq(outbox.id, mutation.id)).get();
          // Only a pending row is settled: a duplicated answer finds it already settled.
          if (row?.state === 'pending') settleResult(tx, row, byId.get(mutation.id), rebuild, changed, applied);
        }
        rebase(tx, applied);
        rebuildOverlay(tx, features, rebuild);
      });
      return { malformed, answered: sent.filter((mutation) => byId.has(mutation.id)).length, changed: [...changed] };
    },

    /**
     * The user saw a rejection, or settles a conflict by keeping the server's version. A refused
     * draft is discarded with the edits of it that waited for it (the server never had the row).
     */
    dismiss(id: string): void {
      db.transaction((tx) => {
        const row = tx.select().from(outbox).where(and(eq(outbox.id, id), inArray(outbox.state, ['rejected', 'conflict']))).get();
        if (!row) return;
        const parsed = parseStored(row);
        const held = row.state === 'rejected' && !isError(parsed) && keptWhenRefused(features, parsed.name) ? parsed.shows : [];
        const waiting = liveSeqsTouching(tx, held).filter((t) => t.state === 'pending').map((t) => t.seq);
        tx.delete(outbox).where(inArray(outbox.seq, [row.seq, ...waiting])).run();
        rebuildOverlay(tx, features, held);
      });
    },

    /**
     * Sends a refused edit again with the user's corrections, in its place in the queue (edits
     * made after it stay after it). It is a new mutation to the server (a new id: the old one's
     * refusal is stored there), based on the rows as this device knows them now, and checked as
     * any edit is.
     */
    resend<N extends MutationName>(id: string, name: N, args: MutationArgs<N>): { id: string; seq: number } {
      const parsed = mutations[name].args.safeParse(args);
      if (!parsed.success) throw validationFailure(parsed.error);
      return db.transaction((tx) => {
        const row = problemRow(id, 'rejected');
        if (!row || row.name !== name) throw new AppFailure('not_found', 'There is no such rejected change.');
        clientSide(features, name).check(parsed.data, { db: tx, owner: readOwner(tx) });
        const { touches, creates, moves } = rowsOf(name, parsed.data);
        const shows = [...touches, ...creates, ...moves];
        const before = touchesOf(tx, [row.seq]);
        const baseVersions = Object.fromEntries(touches.map((key) => [key, knownVersion(tx, key)]));
        const next = { id: newId(), args: JSON.stringify(parsed.data), baseVersions: JSON.stringify(baseVersions), state: 'pending' as const, error: null, attempts: 0 };
        tx.update(outbox).set(next).where(eq(outbox.seq, row.seq)).run();
        tx.delete(outboxTouches).where(eq(outboxTouches.seq, row.seq)).run();
        if (shows.length > 0) tx.insert(outboxTouches).values(shows.map((key) => ({ rowKey: key, seq: row.seq }))).run();
        rebuildOverlay(tx, features, [...before, ...shows]);
        return { id: next.id, seq: row.seq };
      });
    },

    /** A refused mutation as stored (name and args), for the screen that lets the user correct it; null when there is none. */
    refused(id: string): { name: string; args: unknown } | null {
      const row = problemRow(id, 'rejected');
      return row ? { name: row.name, args: parseJson(row.args) } : null;
    },

    /** Settles a conflict by applying the same edit again, based on the server's current rows. */
    applyMineAgain(id: string): { id: string; seq: number } {
      return db.transaction((tx) => {
        const row = problemRow(id, 'conflict');
        const parsed = row && parseStored(row);
        if (!row || !parsed || isError(parsed)) throw new AppFailure('not_found', 'There is no such conflict to settle.');
        const current = z.array(syncChangeSchema).catch([]).parse(parseJson(row.current));
        // On top of the newest version known: the conflict's, or a later one pulled or made here since.
        const versions = Object.fromEntries(parsed.touches.map((key) => [key, knownVersion(tx, key)]));
        for (const change of current) {
          if (change.op !== 'upsert' || !('id' in change.row)) continue;
          const key = rowKey(change.entity, change.row.id);
          if (!overlayOf(features, key)) continue;
          versions[key] = Math.max(versions[key] ?? 0, change.row.version);
        }
        tx.delete(outbox).where(eq(outbox.seq, row.seq)).run();
        return insert(tx, parsed.name, parsed.args, parsed.shows, versions);
      });
    },

    /** The oldest `limit` edits waiting to reach the server, oldest first (the sync details list them). */
    waiting(limit: number): { id: string; name: string; args: unknown; createdAt: string }[] {
      return statusQueries(db)
        .waiting.all({ limit })
        .map((row) => ({ ...row, args: parseJson(row.args) ?? row.args }));
    },

    status(): OutboxStatus {
      const queries = statusQueries(db);
      const queue = queries.queue.get();
      const problems = queries.problems
        .all()
        .map((row) => ({
          id: row.id,
          name: row.name,
          state: row.state as 'rejected' | 'conflict',
          args: parseJson(row.args) ?? row.args,
          createdAt: row.createdAt,
          error: appErrorSchema.nullable().catch(null).parse(parseJson(row.error) ?? null),
          current: z.array(syncChangeSchema).catch([]).parse(parseJson(row.current) ?? []),
        }));
      return { queued: queue?.queued ?? 0, oldestQueuedAt: queue?.oldest ?? null, problems };
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
