import { AppFailure } from '../../src-shared/errors';

// Loss of access through the user's own rights: a change of the user's department or role
// records its change-feed position (trigger users_take_access_change, migration 0015). A replica
// whose pull began before that position was built under the old rights (contracts of the old
// department, whose tombstones do not name the user), so it is rebuilt: must_resync.

/** Refuses a replica whose pull began (`level`) before the viewer's last change of rights. */
export function refuseReplicaOfOldRights(accessChangedAt: bigint, level: bigint): void {
  if (accessChangedAt > level) throw new AppFailure('must_resync', 'your department or role changed: the replica is downloaded again');
}
