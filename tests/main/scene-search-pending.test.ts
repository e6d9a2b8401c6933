import fc from 'fast-check';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { performanceTasks, performanceTasksLocal } from '../../src-main/core/data/schema';
import { replicaFeatures } from '../../src-main/core/features';
import { createSceneSearch } from '../../src-main/core/ledger/scene-search';
import { clientMigrationsDir } from '../../src-main/paths';
import { ledgerSearchSchema } from '../../src-shared/domain/ledger';
import { makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';

// The scene search shows queued fulfilment edits at once (finishes, restores, deletes and quick
// tasks in performance_tasks_local), offline, while it pages the indexed base table. The oracle:
// the same search on the same replica with the edits written into the base table.

const contractCount = 12;
const taskCount = 90;
const types = ['receivable', 'payable', 'invoicing', 'recall'];

type TaskRow = typeof performanceTasks.$inferInsert;
const columns = `id, contract_id, plan_id, performance_id, name, type, state, expiration_time, receivable_amount, payable_amount,
  amount_unit, leader_user_id, row_index, level, "values", completion_values, finished_amount, create_time, version, update_time`;

function task(i: number, overrides: Partial<TaskRow> = {}): TaskRow {
  return {
    id: `task-${String(i).padStart(4, '0')}`,
    contractId: makeContract(i % contractCount).id,
    name: `Task ${i % 7}`,
    type: types[i % types.length]!,
    state: 1 + (i % 3),
    expirationTime: i % 5 === 0 ? null : `2026-0${1 + (i % 9)}-1${i % 10}`,
    receivableAmount: i % 4 === 0 ? null : i * 100,
    amountUnit: 'CNY',
    version: 1,
    // Repeated update times exercise the id tie-break.
    updateTime: `2026-01-0${1 + (i % 6)}T00:00:00.000Z`,
    createTime: `2025-12-0${1 + (i % 8)}T00:00:00.000Z`,
    ...overrides,
  };
}

describe('scene search with queued task edits', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const changes = Array.from({ length: contractCount }, (_, i) => ({ entity: 'contract' as const, op: 'upsert' as const, row: makeContract(i) }));
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges(changes, '12', '2026-11-21T10:00:00.000Z');
    // The first sync ends before the tasks arrive: from then on triggers keep their contract's status.
    writer.finishPull();
    for (let i = 0; i < taskCount; i += 1) replica.db.insert(performanceTasks).values(task(i)).run();
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('shows a task finished offline as finished at once', () => {
    const search = createSceneSearch(replica);
    const ask = () => search.search(ledgerSearchSchema.parse({ filterList: [{ id: 'taskState', condition: { in: [3] } }], pageNum: 1, pageSize: 50 }), new Map());
    const before = ask();
    expect(before.list.map((row) => row.id)).not.toContain('task-0000');
    replica.db.insert(performanceTasksLocal).values({ ...task(0), state: 3, updateTime: '2026-11-22T00:00:00.000Z' }).run();
    const after = ask();
    expect(after.count).toBe(before.count + 1);
    expect(after.list[0]!.id).toBe('task-0000');
    expect(after.list[0]!.taskState).toBe(3);
  });

  it('pages, orders and counts exactly as if the queued edits were already pulled', () => {
    const search = createSceneSearch(replica);
    const edit = fc.record({
      i: fc.integer({ min: 0, max: taskCount + 20 }),
      state: fc.integer({ min: 1, max: 3 }),
      name: fc.constantFrom('Task 0', 'Task 9', 'quick', 'Zeta'),
      day: fc.integer({ min: 1, max: 9 }),
      deleted: fc.boolean(),
    });
    const request = fc.record({
      states: fc.option(fc.subarray([1, 2, 3], { minLength: 1 }), { nil: undefined }),
      // Read from the base tasks' copy of their contract's status, from the join for the local rows.
      contractStatuses: fc.option(fc.subarray([1, 2, 3, 4, 5], { minLength: 1 }), { nil: undefined }),
      q: fc.constantFrom(undefined, 'task', '9', 'quick'),
      pageNum: fc.integer({ min: 1, max: 7 }),
      pageSize: fc.constantFrom(5, 10, 20),
      sort: fc.option(fc.record({ id: fc.constantFrom('name', 'taskState', 'expirationTime', 'receivableAmount', 'updateTime', 'contractName'), key: fc.constantFrom(1, -1) }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 25 }), request, (edits, raw) => {
        replica.db.delete(performanceTasksLocal).run();
        for (const e of edits) {
          // Beyond the base rows: quick tasks made offline.
          const row = { ...task(e.i), state: e.state, name: e.name, updateTime: `2026-02-0${e.day}T00:00:00.000Z`, deleted: e.deleted && e.i < taskCount };
          replica.db.insert(performanceTasksLocal).values(row).onConflictDoUpdate({ target: performanceTasksLocal.id, set: row }).run();
        }
        const query = ledgerSearchSchema.parse({
          filterList: [
            ...(raw.states ? [{ id: 'taskState', condition: { in: raw.states } }] : []),
            ...(raw.contractStatuses ? [{ id: 'contractStatus', condition: { in: raw.contractStatuses } }] : []),
          ],
          q: raw.q,
          pageNum: raw.pageNum,
          pageSize: raw.pageSize,
          sortField: raw.sort,
          titleIDs: ['taskState', 'receivableAmount', 'contractName'],
        });
        const shown = search.search(query, new Map());
        replica.sqlite.exec(`savepoint oracle;
          delete from performance_tasks where id in (select id from performance_tasks_local);
          insert into performance_tasks (${columns}) select ${columns} from performance_tasks_local where deleted = 0;
          delete from performance_tasks_local;`);
        const oracle = search.search(query, new Map());
        replica.sqlite.exec('rollback to oracle; release oracle');
        expect(shown.list).toEqual(oracle.list);
        expect(shown.count).toBe(oracle.count);
      }),
      { seed: 14, numRuns: 300 },
    );
  });
});
