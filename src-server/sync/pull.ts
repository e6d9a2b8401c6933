import { sql } from 'drizzle-orm';
import { cursorPosition, type SyncPullQuery, type SyncPullResponse } from '../../src-shared/api/sync';
import { AppFailure } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { refuseReplicaOfOldRights } from './access';
import { checkSyncVersions } from './protocol';
import type { Viewer } from '../contracts/repository';
import { feedSources, tombstoneTables } from './feed-sources';

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
// every change up to P. Mid-way through a paged pull it is "P.L": changes up to P, and L is where
// the pull started (for a first sync: just below the first page's snapshot, as every tombstone
// older than that concerns a row the client never received). Either way the client may have
// missed a pruned tombstone exactly when one lies above L: then it must resync.
interface Cursor {
  position: bigint;
  level: bigint;
}

function parseCursor(text: string): Cursor {
  const position = cursorPosition(text);
  const [, level = position] = text.split('.').map((part) => BigInt(part));
  if (position > maxBigint || level > maxBigint) {
    const message = 'cursor is out of range';
    throw new AppFailure('validation_failed', `validation failed: cursor: ${message}`, [{ path: 'cursor', message }]);
  }
  return { position, level };
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

      // Each source's first page, merged by position: the first `limit` of the union.
      const pages = await Promise.all(feedSources.map((source) => source.page(tx, viewer, after, below, query.limit)));
      const counts = await Promise.all(feedSources.map((source) => source.count(tx, viewer, after, below)));
      const page = pages
        .flat()
        .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
        .slice(0, query.limit);
      const total = counts.reduce((sum, n) => sum + n, 0);
      const remaining = total - page.length;
      const last = page.at(-1)?.position ?? after;
      return {
        changes: page.map((entry) => entry.change),
        // Caught up: the client holds everything below this snapshot's bound, seen or not.
        // The level travels on while it is above the position, so the checks above keep knowing
        // how recent the replica's start was.
        cursor: cursorText(remaining > 0 ? last : maxOf(last, below - 1n), level),
        hasMore: remaining > 0,
        remaining,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
