import { deferIndexes, deferTriggers, restoreIndexes, restoreTriggers } from '../data/deferred-indexes';
import type { ReplicaConnection } from '../data/replica';

// A first sync into a replica without tasks writes them with their upkeep set aside: the task
// indexes (built again in bulk at the pull's end; keeping the board's and the update time's row
// by row cost 1.7 s of 200,000 tasks, their build 0.3 s) and the triggers that keep each task's
// contract status and the per-day counts (client migration 0031; dropped meanwhile, as they stand
// aside), which the end derives from the rows in one statement each, to what the triggers would
// have kept (tasks are written with their contract's status already, so only those whose contract
// came later are rewritten: every page of the table rewritten and journaled was a quarter of an
// encrypted replica's first sync). The meta key is the whole state: a cut or a restart mid-way resumes with it, and the
// pull's end finishes it.

const deferredKey = 'task_upkeep_deferred';

export interface TaskUpkeep {
  /** The first page of a pull from nothing: sets the upkeep aside when the replica holds no task. */
  deferIfEmpty(): void;
  /** The pull's end: whatever was set aside is brought up to date. */
  finish(): void;
  /** A replica image brought the tasks with their contract status and day counts: nothing is left to derive. */
  discard(): void;
}

export function taskUpkeep(sqlite: ReplicaConnection): TaskUpkeep {
  const empty = sqlite.prepare<[], number>('select not exists (select 1 from performance_tasks)').pluck();
  const deferred = sqlite.prepare<[], number>(`select exists (select 1 from replica_meta where key = '${deferredKey}')`).pluck();
  return {
    deferIfEmpty() {
      if (empty.get() !== 1 || deferred.get() === 1) return;
      sqlite.prepare(`insert into replica_meta (key, value) values ('${deferredKey}', '1')`).run();
      deferIndexes(sqlite, 'performance_tasks');
      deferTriggers(sqlite, deferredKey);
    },
    finish() {
      if (deferred.get() !== 1) return;
      // The same values as the triggers of 0028 and 0024 keep (their zero-count days aside).
      sqlite.exec(`
        update performance_tasks set contract_status = (select coalesce(status, 0) from contracts where contracts.id = performance_tasks.contract_id)
          where contract_status is not (select coalesce(status, 0) from contracts where contracts.id = performance_tasks.contract_id);
        delete from performance_task_days;
        insert into performance_task_days (day, state, count)
          select expiration_time, state, count(*) from performance_tasks where expiration_time is not null group by 1, 2;
        delete from replica_meta where key = '${deferredKey}';`);
      restoreTriggers(sqlite);
      restoreIndexes(sqlite);
    },
    discard() {
      sqlite.exec(`delete from replica_meta where key = '${deferredKey}'`);
    },
  };
}
