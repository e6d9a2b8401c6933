import { deferTriggers } from '../data/deferred-indexes';
import type { ReplicaConnection } from '../data/replica';

// The numbers the synced contracts hold more than once (client migration 0042), kept by triggers
// that stand aside while a first sync fills an empty replica: its number index is set aside then,
// so each row's lookup would read the whole table. The pull's end derives the table in one
// statement; the meta key is the whole state, so a cut or a restart mid-way resumes with it.

const deferredKey = 'repeated_numbers_deferred';

export interface RepeatedNumbersUpkeep {
  /** The first page of a pull from nothing into an empty replica: the triggers stand aside. */
  defer(): void;
  /** Whether the table waits for the pull's end (the duplicate check then groups the rows itself). */
  deferred(): boolean;
  /** The pull's end: the table as the triggers would have kept it. */
  finish(): void;
  /** A replica image brought the table with its rows: nothing is left to derive. */
  discard(): void;
}

export function repeatedNumbersUpkeep(sqlite: ReplicaConnection): RepeatedNumbersUpkeep {
  const deferred = sqlite.prepare<[], number>(`select exists (select 1 from replica_meta where key = '${deferredKey}')`).pluck();
  return {
    defer() {
      if (deferred.get() === 1) return;
      sqlite.prepare(`insert into replica_meta (key, value) values ('${deferredKey}', '1')`).run();
      deferTriggers(sqlite, deferredKey);
    },
    deferred: () => deferred.get() === 1,
    finish() {
      if (deferred.get() !== 1) return;
      sqlite.exec(`
        delete from repeated_contract_numbers;
        insert into repeated_contract_numbers (contract_number)
          select contract_number from contracts where contract_number is not null group by contract_number having count(*) > 1;
        delete from replica_meta where key = '${deferredKey}';`);
    },
    discard() {
      sqlite.exec(`delete from replica_meta where key = '${deferredKey}'`);
    },
  };
}
