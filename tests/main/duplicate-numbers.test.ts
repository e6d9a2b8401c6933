import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { duplicateNumbers } from '../../src-main/core/contracts/duplicate-numbers';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { clientMigrationsDir } from '../../src-main/paths';
import type { SyncChange } from '../../src-shared/api/sync';
import { contractId, makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';

// The duplicate-number check offline (issue 30): every number held twice as this device shows
// the contracts (`contracts_local` holds the rows edited or drafted here over the synced ones),
// found without grouping the whole ledger.

describe('duplicate numbers in the replica', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  let writer: ReturnType<typeof replicaWriter>;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    writer = replicaWriter(replica, replicaFeatures);
    // Synced: 1 and 2 share a number, 3 and 4 do not.
    const rows = [makeContract(1, { contractNumber: 'HT-A' }), makeContract(2, { contractNumber: 'HT-A' }), makeContract(3, { contractNumber: 'HT-B' }), makeContract(4, { contractNumber: 'HT-C' })];
    writer.applyPulledChanges(rows.map((row) => ({ entity: 'contract' as const, op: 'upsert' as const, row })), '1', '2026-11-21T10:00:00.000Z');
    writer.finishPull();
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  const pull = (changes: SyncChange[], cursor: string) => writer.applyPulledChanges(changes, cursor, '2026-11-21T11:00:00.000Z');
  const grouped = () =>
    replica.sqlite.prepare(`select contract_number from contracts where contract_number is not null group by 1 having count(*) > 1 order by 1`).pluck().all();
  const kept = () => replica.sqlite.prepare(`select contract_number from repeated_contract_numbers order by 1`).pluck().all();
  const all = () => duplicateNumbers(replica, { checkAll: 'true' }).list.map((found) => [found.contractNumber, found.contractList.map((c) => c.id)]);

  it('finds the numbers held twice by synced rows', () => {
    expect(all()).toEqual([['HT-A', [contractId(1), contractId(2)]]]);
  });

  it('counts the rows as edited here: a number given away no longer repeats, one taken does', () => {
    // Contract 2 renumbered here to 3's number: HT-A is held once, HT-B twice.
    replica.sqlite.prepare(`insert into contracts_local select * from contracts where id = ?`).run(contractId(2));
    replica.sqlite.prepare(`update contracts_local set contract_number = 'HT-B' where id = ?`).run(contractId(2));
    expect(all()).toEqual([['HT-B', [contractId(2), contractId(3)]]]);
    expect(duplicateNumbers(replica, { contractNumber: 'HT-A' }).list).toEqual([{ contractNumber: 'HT-A', contractList: [{ id: contractId(1), name: 'Service agreement 1' }] }]);
    // A draft made here (a row of its own) with 4's number repeats it too.
    replica.sqlite.prepare(`insert into contracts_local select * from contracts where id = ?`).run(contractId(4));
    replica.sqlite.prepare(`update contracts_local set id = ?, name = 'train draft' where id = ?`).run(contractId(9), contractId(4));
    expect(all()).toEqual([
      ['HT-B', [contractId(2), contractId(3)]],
      ['HT-C', [contractId(4), contractId(9)]],
    ]);
  });

  it('follows pulls: a number made repeated by a renumbering, a repeat gone with a deleted contract', () => {
    pull([{ entity: 'contract', op: 'upsert', row: makeContract(3, { contractNumber: 'HT-C', version: 2 }) }], '2');
    expect(all()).toEqual([
      ['HT-A', [contractId(1), contractId(2)]],
      ['HT-C', [contractId(3), contractId(4)]],
    ]);
    pull([{ entity: 'contract', op: 'delete', id: contractId(2) }], '3');
    expect(all()).toEqual([['HT-C', [contractId(3), contractId(4)]]]);
    // A third holder, then one of three leaves: still repeated.
    pull([{ entity: 'contract', op: 'upsert', row: makeContract(5, { contractNumber: 'HT-C' }) }], '4');
    pull([{ entity: 'contract', op: 'delete', id: contractId(4) }], '5');
    expect(all()).toEqual([['HT-C', [contractId(3), contractId(5)]]]);
    pull([{ entity: 'contract', op: 'upsert', row: makeContract(5, { contractNumber: null, version: 2 }) }], '6');
    expect(all()).toEqual([]);
    expect(kept()).toEqual(grouped());
  });

  it('answers during a first sync, whose end derives the kept numbers the triggers stood aside for', () => {
    const fresh = openReplica(join(dir.path, 'first.sqlite'), clientMigrationsDir);
    try {
      const first = replicaWriter(fresh, replicaFeatures);
      const page = (rows: ReturnType<typeof makeContract>[], cursor: string) =>
        first.applyPulledChanges(
          rows.map((row) => ({ entity: 'contract' as const, op: 'upsert' as const, row })),
          cursor,
          '2026-11-21T10:00:00.000Z',
        );
      page([makeContract(1, { contractNumber: 'HT-A' }), makeContract(2, { contractNumber: 'HT-B' })], '1');
      page([makeContract(3, { contractNumber: 'HT-A' })], '2');
      const numbers = () => duplicateNumbers(fresh, { checkAll: 'true' }).list.map((found) => found.contractNumber);
      expect(fresh.sqlite.prepare(`select count(*) from repeated_contract_numbers`).pluck().get()).toBe(0);
      expect(numbers()).toEqual(['HT-A']);
      first.finishPull();
      expect(fresh.sqlite.prepare(`select contract_number from repeated_contract_numbers`).pluck().all()).toEqual(['HT-A']);
      expect(numbers()).toEqual(['HT-A']);
      // Kept by the triggers from here on.
      first.applyPulledChanges([{ entity: 'contract', op: 'upsert', row: makeContract(4, { contractNumber: 'HT-B' }) }], '3', '2026-11-21T10:00:00.000Z');
      expect(numbers()).toEqual(['HT-A', 'HT-B']);
    } finally {
      fresh.close();
    }
  });
});
