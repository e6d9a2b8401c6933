import { AppFailure } from '../../../src-shared/errors';
import type { Directory } from '../../../src-shared/ipc/directory';
import type { CoreFeature, FeatureHost } from '../feature';
import type { Clock } from '../ports';
import { authorizedCall } from '../session/authorized-call';
import { isServerAway } from '../session/online-call';
import type { ActiveSession } from '../session/session-service';
import { directoryStore } from './directory-store';

// The people and department fields' directory (issue 11): the server's users and departments
// when it answers, kept in the replica with the time they were fetched; while the server cannot
// be reached, the kept ones "as of" that time, or 'offline' when none were ever fetched.

export async function currentDirectory(session: ActiveSession, clock: Clock): Promise<Directory> {
  const store = directoryStore(session.replica.db);
  try {
    const [users, departments] = await Promise.all([authorizedCall(session, 'userDirectory'), authorizedCall(session, 'departmentDirectory')]);
    const fetched = { users: users.list, departments: departments.list, fetchedAt: clock.now().toISOString() };
    store.write(fetched);
    return { ...fetched, offline: false };
  } catch (cause) {
    if (!isServerAway(cause)) throw cause;
    const kept = store.read();
    if (!kept) throw new AppFailure('offline');
    return { ...kept, offline: true };
  }
}

/** The directory as a feature of the core, composed by core.ts like the others. */
export function createDirectoryFeature(host: FeatureHost): CoreFeature<'directory.get'> {
  return {
    handlers: {
      'directory.get': () => currentDirectory(host.signedIn(), host.clock),
    },
  };
}
