import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pulledRow } from '../../src-main/core/contracts/contract-rows';
import { searchRelatedCandidates } from '../../src-main/core/contracts/related-candidates';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { contractsLocal } from '../../src-main/core/data/schema';
import { replicaFeatures } from '../../src-main/core/features';
import { searchIndexBuilder } from '../../src-main/core/search/index-builder';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';

// Related-contract candidates offline (issue 30): the contracts as this device shows them (rows
// edited or drafted here over the synced ones), matched literally on name or number, newest first,
// read as the two halves of the overlay merged in order; a query of three characters or more is
// looked up in the full-text index once it is whole, with the same answers.

describe.each([
  ['walked newest first', false],
  ['looked up in the full-text index', true],
])('related-contract candidates in the replica, %s', (_how, indexed) => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const writer = replicaWriter(replica, replicaFeatures);
    const rows = [
      makeContract(1, { name: 'Lease 100% fixed' }),
      makeContract(2, { name: 'Lease 1000 fixed' }),
      makeContract(3, { name: 'Lease a_b' }),
      makeContract(4, { name: 'Lease axb' }),
      makeContract(5, { name: 'Supply', contractNumber: 'LS-9' }),
      makeContract(6, { name: 'Ärger lease' }),
    ];
    writer.applyPulledChanges(rows.map((row) => ({ entity: 'contract' as const, op: 'upsert' as const, row })), '1', '2026-11-21T10:00:00.000Z');
    writer.finishPull();
    if (!indexed) return;
    const builder = searchIndexBuilder(replica.sqlite);
    while (builder.step(100) > 0);
    builder.finish();
    expect(builder.progress()).toEqual({ indexed: 6, total: 6 });
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  const ids = (q: string, limit = 20) => searchRelatedCandidates(replica, q, limit).map((c) => c.id);

  it('matches name or number, newest first, up to the limit', () => {
    expect(ids('lease')).toEqual([6, 4, 3, 2, 1].map(contractId));
    expect(ids('LS-9')).toEqual([contractId(5)]);
    expect(ids('ls-9')).toEqual([contractId(5)]);
    expect(ids('lease', 2)).toEqual([6, 4].map(contractId));
    expect(ids('')).toEqual([6, 5, 4, 3, 2, 1].map(contractId));
  });

  it('folds the case of ASCII letters only, as LIKE does', () => {
    expect(ids('Ärger')).toEqual([contractId(6)]);
    expect(ids('ärger')).toEqual([]);
  });

  it('takes % and _ in the query as the characters they are', () => {
    expect(ids('100%')).toEqual([contractId(1)]);
    expect(ids('a_b')).toEqual([contractId(3)]);
    expect(ids('%')).toEqual([contractId(1)]);
  });

  it('shows rows as edited here: a renamed contract under its new name only, a draft among the synced rows by time', () => {
    replica.sqlite.prepare(`insert into contracts_local select * from contracts where id = ?`).run(contractId(2));
    replica.sqlite.prepare(`update contracts_local set name = 'Renamed here', update_time = ? where id = ?`).run(makeContract(9).updateTime, contractId(2));
    replica.db
      .insert(contractsLocal)
      .values(pulledRow(makeContract(8, { name: 'Lease train draft', updateTime: makeContract(3).updateTime })))
      .run();
    // The draft and contract 3 share an update time: the higher id comes first.
    expect(ids('lease')).toEqual([contractId(6), contractId(4), contractId(8), contractId(3), contractId(1)]);
    expect(ids('renamed')).toEqual([contractId(2)]);
    expect(ids('1000')).toEqual([]);
    expect(ids('')).toEqual([2, 6, 5, 4, 8, 3, 1].map(contractId));
  });
});
