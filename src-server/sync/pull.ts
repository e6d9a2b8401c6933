import { and, eq, sql, type Column } from 'drizzle-orm';
import { cursorPosition, syncProtocolVersion, syncSchemaVersion, type SyncPullQuery, type SyncPullResponse } from '../../src-shared/api/sync';
import { AppFailure } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { users } from '../db/schema';
import { refuseReplicaOfOldRights } from './access';
import { checkSyncVersions } from './protocol';
import type { Viewer } from '../contracts/repository';
import { feedSources, tombstoneTables, type FeedEntry, type FeedSource } from './feed-sources';

// The change feed, safe against commit order. Every change carries a position whose high bits
// are the id of the transaction that wrote it (migration 0003). A pull serves only changes of
// transactions below its snapshot's xmin: those have all finished, so each is either visible in
// full or gone for good. Any transaction that commits later already had, or will get, an id at or
// above that xmin, so all its positions sort above everything served: a cursor never passes a
// change that is still to come. (The price: a change waits until every older writing transaction
// has ended.) PGlite runs one transaction at a time, where this holds trivially.

const maxBigint = 2n ** 63n - 1n;
/** Bits of a position below the transaction id (see sync_next_change_position). */
const positionShift = 24n;

// A cursor says what the client holds. A caught-up cursor is a single position P: the client has
// every change up to P. Mid-way through a paged pull it is "P.L.R": changes up to P, L is where
// the pull started (for a first sync: just below the first page's snapshot, as every tombstone
// older than that concerns a row the client never received), and R is how many changes the
// previous page left (`remaining`), carried so that only a pull's first page counts the feed.
// (A mid-way cursor of protocol 1, "P.L", is still read: it has no count.) Either way the client
// may have missed a pruned tombstone exactly when one lies above L: then it must resync.
interface Cursor {
  position: bigint;
  level: bigint;
  remaining: bigint | null;
}

function parseCursor(text: string): Cursor {
  const position = cursorPosition(text);
  const [, level = position, remaining = null] = text.split('.').map((part) => BigInt(part));
  if (position > maxBigint || level > maxBigint || (remaining !== null && remaining > BigInt(Number.MAX_SAFE_INTEGER))) {
    const message = 'cursor is out of range';
    throw new AppFailure('validation_failed', `validation failed: cursor: ${message}`, [{ path: 'cursor', message }]);
  }
  return { position, level, remaining };
}

/** The feed's last position (visible to anyone or not; 0 while it is empty), in one statement of index probes. */
export async function feedEnd(db: ServerDb): Promise<bigint> {
  const lasts = feedSources.map(({ position }) => sql`coalesce((select max(${position}) from ${position.table}), 0)`);
  const [row] = ((await db.execute(sql`select greatest(${sql.join(lasts, sql`, `)})::text as "end"`)) as unknown as { rows: { end: string }[] }).rows;
  return BigInt(row?.end ?? 0);
}

/** The level a pull from this cursor is checked at: what it must not have missed (see parseCursor). */
export function cursorLevel(text: string): bigint {
  return parseCursor(text).level;
}

export interface SyncHistoryOptions {
  /** Tombstones are kept this many days; a cursor that old must download everything again. */
  tombstoneRetentionDays: number;
}

export const defaultSyncHistory: SyncHistoryOptions = { tombstoneRetentionDays: 90 };

/** Drops tombstones (of every entity) written before `before` and raises the horizon over them, in one statement. */
export async function pruneTombstones(db: ServerDb, before: Date): Promise<void> {
  const deletes = tombstoneTables.map(
    (table, i) => sql`${sql.raw(`pruned_${i}`)} as (delete from ${sql.identifier(table)} where created_at < ${before.toISOString()}::timestamptz returning change_seq)`,
  );
  const union = sql.raw(tombstoneTables.map((_, i) => `select change_seq from pruned_${i}`).join(' union all '));
  await db.execute(sql`
    with ${sql.join(deletes, sql`, `)}, pruned as (${union})
    update sync_horizon set pruned_through = greatest(pruned_through, (select max(change_seq) from pruned))
    where exists (select 1 from pruned)`);
}

interface FeedState {
  /** pg_snapshot_xmin of this transaction's snapshot. */
  xmin: string;
  prunedThrough: string;
  /** Where the viewer's own department or role last changed (trigger users_take_access_change). */
  accessChangedAt: string | null;
}

const maxOf = (...values: bigint[]) => values.reduce((a, b) => (a > b ? a : b));

function cursorText(position: bigint, level: bigint): string {
  return level > position ? `${position}.${level}` : String(position);
}

/** A mid-way cursor: the level is written even when it is not above the position, to make room for the count. */
function midwayCursorText(position: bigint, level: bigint, remaining: number): string {
  return `${position}.${maxOf(level, position)}.${remaining}`;
}

/**
 * Whether a prepared first sync (a snapshot's pages or an image) of this protocol and schema is
 * still served: a pull from its last cursor, whose level it keeps, would be accepted (no
 * tombstone above it pruned, no change of the user's rights since). Joined with `users`.
 */
export function servable(prepared: { protocolVersion: Column; schemaVersion: Column; level: Column }) {
  return and(
    eq(prepared.protocolVersion, syncProtocolVersion),
    eq(prepared.schemaVersion, syncSchemaVersion),
    sql`${prepared.level} >= (select pruned_through from sync_horizon)`,
    sql`${prepared.level} >= coalesce(${users.accessChangedPosition}, 0)`,
  );
}

/** How many changes after `after` the viewer may see now, over every source. */
export function changesSince(db: ServerDb, viewer: Viewer, after: bigint): Promise<number> {
  return countFeed(db, viewer, after, maxBigint);
}

/** How many changes in (after, below) the viewer may see, over every source. */
async function countFeed(tx: ServerDb, viewer: Viewer, after: bigint, below: bigint): Promise<number> {
  let total = 0;
  for (const source of feedSources) total += await source.count(tx, viewer, after, below);
  return total;
}

/**
 * About how many bytes `value` takes as JSON, without writing it: strings by their UTF-8 bytes
 * (escapes not counted) and every number as the longest one, 24. Writing every change of a
 * 50,000-contract first sync to measure it cost 1 s of the server's CPU and 285 MB of garbage.
 */
export function jsonBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return Buffer.byteLength(value) + 2;
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      let bytes = 2;
      if (Array.isArray(value)) {
        for (const item of value) bytes += jsonBytes(item) + 1;
        return bytes;
      }
      for (const key in value) bytes += jsonBytes(key) + 2 + jsonBytes((value as Record<string, unknown>)[key]);
      return bytes;
    }
    default:
      return 0;
  }
}

/** How many of the first entries make a page: at most `limit`, and within about `maxBytes` of JSON unless the first alone is larger. */
function pageLength(entries: readonly FeedEntry[], limit: number, maxBytes: number): number {
  let bytes = 0;
  let length = 0;
  for (const entry of entries.slice(0, limit)) {
    bytes += entry.bytes ?? jsonBytes(entry.change);
    if (length > 0 && bytes > maxBytes) break;
    length += 1;
  }
  return length;
}

/** Each source's first position in (after, below), visible or not (null: none), in one statement of index probes. */
async function firstPositions(tx: ServerDb, after: bigint, below: bigint): Promise<(string | null)[]> {
  const firsts = feedSources.map(
    ({ position }, i) => sql`(select min(${position}) from ${position.table} where ${position} > ${after} and ${position} < ${below})::text as ${sql.raw(`s${i}`)}`,
  );
  const [row] = ((await tx.execute(sql`select ${sql.join(firsts, sql`, `)}`)) as unknown as { rows: Record<string, string | null>[] }).rows;
  return feedSources.map((_, i) => row?.[`s${i}`] ?? null);
}

/** The sources with a change to send (their first positions as `firstPositions` reads them), the earliest first. */
export function sourcesByFirstChange(firsts: readonly (string | null)[]): { source: FeedSource; first: bigint }[] {
  return firsts
    .flatMap((first, i) => (first === null ? [] : [{ source: feedSources[i]!, first: BigInt(first) }]))
    .sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
}

const byPosition = (a: FeedEntry, b: FeedEntry) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0);

export async function pullChanges(db: ServerDb, viewer: Viewer, query: SyncPullQuery, now: Date, history: SyncHistoryOptions): Promise<SyncPullResponse> {
  checkSyncVersions(query);
  const cursor = parseCursor(query.cursor);
  const after = cursor.position;
  // Pruning here keeps the table bounded without a scheduled job; when nothing is due it is one
  // index probe and writes nothing.
  await pruneTombstones(db, new Date(now.getTime() - history.tombstoneRetentionDays * 24 * 60 * 60 * 1000));

  // Repeatable read: the xmin, the horizon, the page and the counts all come from one snapshot.
  return db.transaction(
    async (tx) => {
      const [state] = (
        (await tx.execute(sql`
          select pg_snapshot_xmin(pg_current_snapshot())::text as xmin, pruned_through::text as "prunedThrough",
                 (select access_changed_position::text from users where id = ${viewer.id}) as "accessChangedAt"
          from sync_horizon`)) as unknown as { rows: FeedState[] }
      ).rows;
      if (!state) throw new Error('sync_horizon has no row: migration 0003 did not run');
      const below = BigInt(state.xmin) << positionShift;
      const prunedThrough = BigInt(state.prunedThrough);
      const accessChangedAt = BigInt(state.accessChangedAt ?? 0);
      // A first pull holds nothing yet: whatever this snapshot already shows pruned, or the
      // viewer's rights as they are now, cannot have left anything stale in it. (Taking only
      // below - 1 would ask it to start again while an older transaction of the cluster runs.)
      const level = after === 0n ? maxOf(below - 1n, prunedThrough, accessChangedAt) : cursor.level;
      if (prunedThrough > level) throw new AppFailure('must_resync');
      refuseReplicaOfOldRights(accessChangedAt, level);

      // Each source's first limit + 1 changes, merged by position: the first `limit` of the union
      // are the page, and anything beyond them means there is more. One query at a time: they
      // share the transaction's connection. Once limit + 1 changes are in hand, no later source
      // can place one after the (limit + 1)-th of them in the page, so later sources are asked
      // only below it. The sources are asked in the order of their first change, and only those
      // with one below the bound: a page of tasks neither reads (and drops) the 5,000 contracts
      // edited since nor asks the sources with nothing to send.
      const candidates: FeedEntry[] = [];
      let bound = below;
      for (const { source, first } of sourcesByFirstChange(await firstPositions(tx, after, below))) {
        if (first >= bound) break;
        candidates.push(...(await source.page(tx, viewer, after, bound, query.limit + 1)));
        candidates.sort(byPosition);
        if (candidates.length > query.limit) {
          candidates.length = query.limit + 1;
          bound = candidates[query.limit]!.position + 1n;
        }
      }
      const page = candidates.slice(0, pageLength(candidates, query.limit, query.maxBytes));
      const hasMore = candidates.length > page.length;
      const last = page.at(-1)?.position ?? after;
      // The count comes from the cursor when the previous page left one; else (a pull's first
      // page, or changes written during the pull outran the carried count) from the sources. It
      // stays at least 1 while there is more, whatever an estimate said.
      const carried = cursor.remaining === null ? null : Number(cursor.remaining) - page.length;
      const counted = carried !== null && carried > 0 ? carried : hasMore ? (await countFeed(tx, viewer, after, below)) - page.length : 0;
      const remaining = hasMore ? Math.max(1, counted) : 0;
      return {
        changes: page.map((entry) => entry.change),
        // Caught up: the client holds everything below this snapshot's bound, seen or not. The
        // level travels on while the pull goes on, so the checks above keep knowing how recent
        // the replica's start was.
        cursor: hasMore ? midwayCursorText(last, level, remaining) : cursorText(maxOf(last, below - 1n), level),
        hasMore,
        remaining,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
