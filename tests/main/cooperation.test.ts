import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncContract } from '../../src-shared/api/sync';
import { AppFailure } from '../../src-shared/errors';
import { cooperationRowLimit, cooperativeInfoRowSchema } from '../../src-shared/ipc/drafting';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { pulledRow } from '../../src-main/core/contracts/contract-rows';
import { cooperationInformation } from '../../src-main/core/contracts/cooperation';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { contractsLocal } from '../../src-main/core/data/schema';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { replicaFeatures } from '../../src-main/core/features';

describe('cooperation information from the replica', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  const pull = (rows: SyncContract[]) =>
    replicaWriter(replica, replicaFeatures).applyPulledChanges(
      rows.map((row) => ({ entity: 'contract', op: 'upsert', row })),
      String(rows.length),
      '2026-11-21T10:00:00.000Z',
    );
  const ids = (contractId: string) => cooperationInformation(replica, contractId).map((row) => row.contractID);

  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('lists the other contracts with the same counterparty, newest first, as cooperative info rows', () => {
    // Counterparty i % 7: contracts 0, 7, 14, 21 share 'Counterparty 0'.
    pull(Array.from({ length: 22 }, (_, i) => makeContract(i)));
    expect(ids(contractId(7))).toEqual([contractId(21), contractId(14), contractId(0)]);
    const [newest] = cooperationInformation(replica, contractId(7));
    expect(cooperativeInfoRowSchema.parse(newest)).toEqual({
      contractID: contractId(21),
      updateTime: makeContract(21).updateTime,
      state: 2,
      amount: { amount: 2_100_00, unit: 'CNY' },
      operatorList: ['Li Hua'],
      name: 'Service agreement 21',
      contractNumber: 'HT-2026-000021',
    });
  });

  it('shows unconfirmed local edits in place of their base rows', () => {
    pull([makeContract(0), makeContract(7), makeContract(14)]);
    // A local edit moves contract 0 to another counterparty and renames contract 14 (now newest).
    const edited = (i: number, overrides: Partial<SyncContract>) => pulledRow(makeContract(i, overrides));
    replica.db
      .insert(contractsLocal)
      .values([edited(0, { counterpartName: 'Someone else', counterpartyId: 'cp-other' }), edited(14, { name: 'Renamed offline', updateTime: '2026-11-21T09:00:00.000Z' })])
      .run();
    const rows = cooperationInformation(replica, contractId(7));
    expect(rows.map((row) => [row.contractID, row.name])).toEqual([[contractId(14), 'Renamed offline']]);
  });

  it('keeps at most the limit of rows, the newest ones', () => {
    pull(Array.from({ length: cooperationRowLimit + 10 }, (_, i) => makeContract(i, { counterpartName: 'Acme', counterpartyId: 'cp-acme' })));
    const rows = ids(contractId(0));
    expect(rows).toHaveLength(cooperationRowLimit);
    expect(rows[0]).toBe(contractId(cooperationRowLimit + 9));
    expect(rows).not.toContain(contractId(0));
  });

  it('has nothing for a contract without a counterparty, and not_found for an unknown contract', () => {
    pull([makeContract(0, { counterpartName: null, counterpartyId: null }), makeContract(1, { counterpartName: null, counterpartyId: null })]);
    expect(cooperationInformation(replica, contractId(0))).toEqual([]);
    expect(() => cooperationInformation(replica, 'missing')).toThrow(AppFailure);
  });

  it('matches the counterparty by its id: two counterparties of one name are two histories', () => {
    pull([makeContract(0, { counterpartName: 'Acme', counterpartyId: 'cp-a' }), makeContract(1, { counterpartName: 'Acme', counterpartyId: 'cp-b' }), makeContract(2, { counterpartName: 'Acme', counterpartyId: 'cp-a' })]);
    expect(ids(contractId(0))).toEqual([contractId(2)]);
    expect(ids(contractId(1))).toEqual([]);
  });

  it('reads the base rows off the counterparty index', () => {
    const plan = replica.sqlite
      .prepare("explain query plan select id from contracts where counterparty_id = 'cp-a' order by update_time desc limit 50")
      .all() as { detail: string }[];
    expect(plan.map((step) => step.detail).join('\n')).toContain('contracts_counterparty_update_time');
  });
});
