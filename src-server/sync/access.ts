import { eq } from 'drizzle-orm';
import { AppFailure } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { users } from '../db/schema';

// Loss of access through the user's own rights: a change of the user's department or role
// records its change-feed position (trigger users_take_access_change, migration 0013). A replica
// whose pull began before that position was built under the old rights (contracts of the old
// department, whose tombstones do not name the user), so it is rebuilt: must_resync.
// A cursor keeps only its snapshot's xmin, so while a transaction older than the change is still
// running, a pull that did see the change cannot prove it: the check errs on the safe side and
// asks for another rebuild until that transaction ends (a rebuild is cheap, a leak is not).

/**
 * Refuses a cursor older than the viewer's last change of rights. The cursor's level is where its
 * pull began (the position itself for a caught-up cursor); a cursor of 0 is already a full pull.
 */
export async function refuseReplicaOfOldRights(db: ServerDb, userId: string, cursor: { position: bigint; level: bigint }): Promise<void> {
  if (cursor.position === 0n) return;
  const [row] = await db.select({ changedAt: users.accessChangedPosition }).from(users).where(eq(users.id, userId));
  if (row?.changedAt != null && cursor.level < row.changedAt) throw new AppFailure('must_resync', 'your department or role changed: the replica is downloaded again');
}
