import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { duplicateNumbers } from '../../src-main/core/contracts/duplicate-numbers';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';

// The duplicate-number check offline (issue 30): every number held twice as this device shows
// the contracts (`contracts_local` holds the rows edited or drafted here over the synced ones),
// found without grouping the whole ledger.

describe('duplicate numbers in the replica', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const writer = replicaWriter(replica, replicaFeatures);
    // Synced: 1 and 2 share a number, 3 and 4 do not.
    const rows = [makeContract(1, { contractNumber: 'HT-A' }), makeContract(2, { contractNumber: 'HT-A' }), makeContract(3, { contractNumber: 'HT-B' }), makeContract(4, { contractNumber: 'HT-C' })];
    writer.applyPulledChanges(rows.map((row) => ({ entity: 'contract' as const, op: 'upsert' as const, row })), '1', '2026-11-21T10:00:00.000Z');
    writer.finishPull();
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

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
});
