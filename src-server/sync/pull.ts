import { and, asc, count, gt } from 'drizzle-orm';
import type { SyncPullQuery, SyncPullResponse } from '../../src-shared/api/sync';
import { syncProtocolVersion, syncSchemaVersion } from '../../src-shared/api/sync';
import { AppFailure } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { contracts } from '../db/schema';
import { selectContractRows, toContract, visibleTo, type Viewer } from '../contracts/repository';

const maxBigint = 2n ** 63n - 1n;

function unsupported(field: 'protocolVersion' | 'schemaVersion', given: number, supported: number): AppFailure {
  const message = `unsupported sync ${field} ${given}: this server speaks ${field} ${supported}`;
  return new AppFailure('bad_request', message, [{ path: field, message }]);
}

/**
 * The first, simple pull: visible contracts whose change sequence is above the cursor, in
 * sequence order. The page and the `remaining` count are read from one snapshot.
 */
export async function pullChanges(db: ServerDb, viewer: Viewer, query: SyncPullQuery): Promise<SyncPullResponse> {
  if (query.protocolVersion !== syncProtocolVersion) throw unsupported('protocolVersion', query.protocolVersion, syncProtocolVersion);
  if (query.schemaVersion !== syncSchemaVersion) throw unsupported('schemaVersion', query.schemaVersion, syncSchemaVersion);
  const after = BigInt(query.cursor);
  if (after > maxBigint) {
    const message = 'cursor is out of range';
    throw new AppFailure('validation_failed', `validation failed: cursor: ${message}`, [{ path: 'cursor', message }]);
  }

  // Known limit, lifted by the contract-server issue: a sequence value is taken at write time
  // but becomes visible at commit, so a transaction that commits late can land below a cursor a
  // client already holds. The commit-order-safe feed (e.g. serving only changes below
  // pg_snapshot_xmin) replaces this condition.
  const where = and(gt(contracts.changeSeq, after), visibleTo(viewer));
  return db.transaction(
    async (tx) => {
      const rows = await selectContractRows(tx).where(where).orderBy(asc(contracts.changeSeq)).limit(query.limit);
      const [pending] = await tx.select({ count: count() }).from(contracts).where(where);
      const remaining = (pending?.count ?? 0) - rows.length;
      const last = rows.at(-1);
      return {
        changes: rows.map((row) => ({ entity: 'contract' as const, op: 'upsert' as const, row: toContract(row) })),
        cursor: (last?.changeSeq ?? after).toString(),
        hasMore: remaining > 0,
        remaining,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
