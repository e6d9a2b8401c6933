import { and, asc, count, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { cursorPosition, type SyncChange, type SyncPullQuery, type SyncPullResponse } from '../../src-shared/api/sync';
import { AppFailure } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { contracts, contractTombstones } from '../db/schema';
import { refuseReplicaOfOldRights } from './access';
import { checkSyncVersions } from './protocol';
import { selectContractRows, tombstoneOwner, toContract, visibleTo, type Viewer } from '../contracts/repository';

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

/** Drops tombstones written before `before` and raises the horizon over them, in one statement. */
export async function pruneTombstones(db: ServerDb, before: Date): Promise<void> {
  await db.execute(sql`
    with pruned as (
      delete from contract_tombstones where created_at < ${before.toISOString()}::timestamptz returning change_seq
    )
    update sync_horizon set pruned_through = greatest(pruned_through, (select max(change_seq) from pruned))
    where exists (select 1 from pruned)`);
}

interface FeedState {
  /** pg_snapshot_xmin of this transaction's snapshot. */
  xmin: string;
  prunedThrough: string;
}

function between(position: PgColumn, after: bigint, below: bigint, visible: SQL | undefined): SQL | undefined {
  return and(gt(position, after), lt(position, below), visible);
}

export async function pullChanges(db: ServerDb, viewer: Viewer, query: SyncPullQuery, now: Date, history: SyncHistoryOptions): Promise<SyncPullResponse> {
  checkSyncVersions(query);
  const cursor = parseCursor(query.cursor);
  await refuseReplicaOfOldRights(db, viewer.id, cursor);
  const after = cursor.position;
  // Pruning here keeps the table bounded without a scheduled job; when nothing is due it is one
  // index probe and writes nothing.
  await pruneTombstones(db, new Date(now.getTime() - history.tombstoneRetentionDays * 24 * 60 * 60 * 1000));

  // Repeatable read: the xmin, the horizon, the page and the counts all come from one snapshot.
  return db.transaction(
    async (tx) => {
      const [state] = (
        (await tx.execute(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin, pruned_through::text as "prunedThrough" from sync_horizon`)) as unknown as { rows: FeedState[] }
      ).rows;
      if (!state) throw new Error('sync_horizon has no row: migration 0003 did not run');
      const below = BigInt(state.xmin) << positionShift;
      const level = after === 0n ? below - 1n : cursor.level;
      if (BigInt(state.prunedThrough) > level) throw new AppFailure('must_resync');

      const liveWhere = between(contracts.changeSeq, after, below, visibleTo(viewer));
      const deadWhere = between(contractTombstones.changeSeq, after, below, visibleTo(viewer, tombstoneOwner));
      const live = await selectContractRows(tx).where(liveWhere).orderBy(asc(contracts.changeSeq)).limit(query.limit);
      const dead = await tx
        .select({ changeSeq: contractTombstones.changeSeq, id: contractTombstones.contractId })
        .from(contractTombstones)
        .where(deadWhere)
        .orderBy(asc(contractTombstones.changeSeq))
        .limit(query.limit);
      const [liveCount] = await tx.select({ count: count() }).from(contracts).where(liveWhere);
      const [deadCount] = await tx.select({ count: count() }).from(contractTombstones).where(deadWhere);
      const page: { position: bigint; change: SyncChange }[] = [
        ...live.map((row) => ({ position: row.changeSeq, change: { entity: 'contract' as const, op: 'upsert' as const, row: toContract(row) } })),
        ...dead.map(({ changeSeq, id }) => ({ position: changeSeq, change: { entity: 'contract' as const, op: 'delete' as const, id } })),
      ]
        .sort((a, b) => (a.position < b.position ? -1 : 1))
        .slice(0, query.limit);
      const remaining = (liveCount?.count ?? 0) + (deadCount?.count ?? 0) - page.length;
      const last = page.at(-1)?.position ?? after;
      return {
        changes: page.map((entry) => entry.change),
        // Caught up: the client holds everything below this snapshot's bound, seen or not.
        cursor: remaining > 0 ? `${last}.${level}` : String(last > below - 1n ? last : below - 1n),
        hasMore: remaining > 0,
        remaining,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
