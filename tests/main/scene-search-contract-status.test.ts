import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { createSceneSearch } from '../../src-main/core/ledger/scene-search';
import { clientMigrationsDir } from '../../src-main/paths';
import type { SyncChange } from '../../src-shared/api/sync';
import { ledgerSearchSchema } from '../../src-shared/domain/ledger';
import { contractId, makeContract, makeTask } from '../support/contracts';
import { tempDir } from '../support/temp';

// Scene pages read a contract-status filter, and the contract's presence, from each pulled task's
// copy of its contract's status (client migration 0028), kept by triggers. Whatever order tasks
// and contracts arrive and change in, the copy must say what the join says, and the search must
// answer as it does when it joins every task to its contract (as it does with a queued contract edit).

describe('the tasks\u2019 copy of their contract\u2019s status', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  let cursor = 0;
  /** A whole pull: the first is a first sync, which leaves the copies to its end (client migration 0031); the triggers keep them after it. */
  const pull = (changes: SyncChange[]) => {
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges(changes, String(++cursor), '2026-11-21T10:00:00.000Z');
    writer.finishPull();
  };
  const contract = (i: number, status: number | null = (i % 5) + 1) => ({ entity: 'contract' as const, op: 'upsert' as const, row: makeContract(i, { status: status as never }) });
  const task = (i: number, of: number) => ({ entity: 'performanceTask' as const, op: 'upsert' as const, row: makeTask(i, { contractId: contractId(of), expirationTime: `2026-0${1 + (i % 9)}-1${i % 10}` }) });

  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    // Tasks come before their contracts; contracts 8 and 9 never come.
    pull(Array.from({ length: 40 }, (_, i) => task(i, i % 10)));
    pull(Array.from({ length: 8 }, (_, i) => contract(i)));
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  const copies = () => replica.sqlite.prepare('select id, contract_status as status from performance_tasks order by id').all();
  const joined = () =>
    replica.sqlite.prepare('select t.id, (select coalesce(c.status, 0) from contracts c where c.id = t.contract_id) as status from performance_tasks t order by t.id').all();

  it('follows contracts that arrive, change status, lose it and leave, and tasks that move', () => {
    expect(copies()).toEqual(joined());
    pull([contract(3, 1), contract(4, null), task(5, 9), task(6, 2), task(41, 7)]);
    replica.sqlite.prepare('delete from contracts where id = ?').run(contractId(2));
    pull([contract(9, 4)]);
    expect(copies()).toEqual(joined());
    const statusOf = (i: number) => (copies() as { id: string; status: number | null }[]).find((row) => row.id === makeTask(i).id)?.status;
    expect([statusOf(5), statusOf(6), statusOf(8), statusOf(3), statusOf(4)]).toEqual([4, null, null, 1, 0]);
  });

  it('answers status filters, and finds only tasks whose contract is here, as the search joining every contract does', () => {
    pull([contract(3, 1), contract(4, null)]);
    const search = createSceneSearch(replica);
    const asks = [[1], [2, 3], [0], [0, 4], [1, 2, 3, 4, 5]].flatMap((statuses) => [
      { filterList: [{ id: 'contractStatus', condition: { in: statuses } }] },
      { filterList: [{ id: 'contractStatus', condition: { in: statuses } }, { id: 'expirationTime', condition: { gte: '2026-02-01', lte: '2026-06-30' } }], sortField: { id: 'expirationTime', key: 1 } },
    ]);
    const answers = () => [{}, ...asks].map((ask) => search.search(ledgerSearchSchema.parse({ ...ask, pageSize: 50, titleIDs: ['contractStatus', 'expirationTime'] }), new Map()));
    const fromCopies = answers();
    // A queued edit of a contract (here one that changes nothing) makes the search join every task's contract.
    replica.sqlite.exec(`insert into contracts_local select * from contracts where id = '${contractId(1)}'`);
    const fromJoin = answers();
    expect(fromCopies).toEqual(fromJoin);
    expect(fromCopies[0]!.count).toBe(32);
    expect(fromCopies.map((answer) => answer.count).some((count) => count > 0 && count < 32)).toBe(true);
  });

  it('counts an unfiltered scene as every task less the few without their contract, those on their own small index (migration 0037)', () => {
    const search = createSceneSearch(replica);
    const unfiltered = () => search.search(ledgerSearchSchema.parse({ pageSize: 5 }), new Map()).count;
    const joinedCount = () => replica.sqlite.prepare('select count(*) from performance_tasks t join contracts c on c.id = t.contract_id').pluck().get();
    expect(unfiltered()).toBe(joinedCount());
    pull([contract(9, 4), task(50, 8), { entity: 'performanceTask', op: 'upsert', row: makeTask(51, { contractId: null }) }]);
    expect(unfiltered()).toBe(joinedCount());
    expect(unfiltered()).toBe(36);
    const index = replica.sqlite.prepare(`select count(*) from performance_tasks indexed by performance_tasks_without_contract_status where contract_status is null`).pluck();
    expect(index.get()).toBe(6);
  });
});
