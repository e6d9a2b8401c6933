import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncChange, SyncTask } from '../../src-shared/api/sync';
import { TaskState, type ContractStatus } from '../../src-shared/domain/enums';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { createDashboardReader } from '../../src-main/core/performance/dashboard-store';
import { searchIndexBuilder } from '../../src-main/core/search/index-builder';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract, makeTask, taskId } from '../support/contracts';
import { clientJournal, migrationsUpTo } from '../support/migrations';
import { tempDir } from '../support/temp';

// A first sync into an empty replica writes its tasks with their indexes and trigger-kept values
// set aside (client migration 0031), and its contracts without their secondary indexes, and
// derives them in bulk at the end: the replica it leaves
// must be the one the row-by-row path leaves, whatever the pages held and wherever it was cut.

const at = '2026-11-24T00:00:00.000Z';
const task = (i: number, contract: number | null, overrides: Partial<SyncTask> = {}): SyncChange => ({
  entity: 'performanceTask',
  op: 'upsert',
  row: makeTask(i, { contractId: contract === null ? null : contractId(contract), expirationTime: `2026-12-0${(i % 3) + 1}`, ...overrides }),
});
const contract = (i: number, status?: ContractStatus): SyncChange => ({ entity: 'contract', op: 'upsert', row: makeContract(i, status === undefined ? {} : { status, version: 2 }) });

/** Three pages of a first sync: tasks before their contract, moved, finished, deleted, and a contract gone with its tasks. */
const pages: { changes: SyncChange[]; cursor: string }[] = [
  { changes: [contract(1), contract(2), contract(3), task(1, 1), task(2, 1), task(3, 2), task(4, 5), task(5, null), task(6, 3)], cursor: '9.0.12' },
  {
    changes: [task(1, 1, { state: TaskState.Success, expirationTime: '2026-12-09', version: 2 }), task(2, 2, { version: 2 }), contract(2, 5), { entity: 'performanceTask', op: 'delete', id: taskId(3) }],
    cursor: '13.0.8',
  },
  { changes: [contract(5), task(7, 5, { expirationTime: null }), { entity: 'contract', op: 'delete', id: contractId(3) }, task(8, 1)], cursor: '17' },
];

/** Everything the two paths must agree on. */
function snapshot({ sqlite }: OpenReplica) {
  const all = (query: string) => sqlite.prepare(query).all();
  const builder = searchIndexBuilder(sqlite);
  while (builder.step(100) > 0);
  return {
    tasks: all('select * from performance_tasks order by id'),
    contracts: all('select id, status from contracts order by id'),
    // The triggers leave a day at 0 where the bulk count has no row: the readers take both as none.
    days: all('select day, state, count from performance_task_days where count <> 0 order by 1, 2'),
    // Likewise a status the row-by-row path's seed contract left at 0.
    statusCounts: all('select * from contract_status_counts where count <> 0 order by 1'),
    schema: all(`select type, name, tbl_name, sql from sqlite_master where type in ('index', 'trigger') order by name`),
    meta: all(`select key from replica_meta where key not in ('client_id', 'last_sync_at') order by key`),
    search: all('select r.contract_id, r.source, s.name from search_rows r join contract_search s on s.rowid = r.id order by 1, 2'),
  };
}

describe('a first sync with the task upkeep set aside', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  /** The row-by-row path: a replica that held a task and a contract when the first sync began (removed after its first page). */
  function rowByRow(): ReturnType<typeof snapshot> {
    const replica = openReplica(join(dir.path, 'row-by-row.sqlite'), clientMigrationsDir);
    replica.sqlite.prepare(`insert into performance_tasks (id, name, type, state, version, update_time, create_time) values ('seed', 'Seed', 'receivable', 1, 1, ?, ?)`).run(at, at);
    replica.sqlite.prepare(`insert into contracts (id, name, create_time, update_time, version) values ('seed', 'Seed', ?, ?, 1)`).run(at, at);
    const writer = replicaWriter(replica, replicaFeatures);
    pages.forEach(({ changes, cursor }, i) => {
      writer.applyPulledChanges(changes, cursor, at);
      if (i === 0) {
        expect(replica.sqlite.prepare(`select count(*) from replica_meta where key = 'task_upkeep_deferred' or key like 'deferred_index:%'`).pluck().get()).toBe(0);
        replica.sqlite.prepare(`delete from performance_tasks where id = 'seed'`).run();
        replica.sqlite.prepare(`delete from contracts where id = 'seed'`).run();
      }
    });
    writer.finishPull();
    const shot = snapshot(replica);
    replica.close();
    return shot;
  }

  it('ends with the rows, indexes, per-day counts, contract statuses and search index of the row-by-row path', () => {
    const replica = openReplica(join(dir.path, 'deferred.sqlite'), clientMigrationsDir);
    const writer = replicaWriter(replica, replicaFeatures);
    const taskIndexes = replica.sqlite.prepare(`select count(*) from sqlite_master where type = 'index' and tbl_name = 'performance_tasks' and sql is not null`).pluck();
    const contractIndexes = replica.sqlite.prepare(`select count(*) from sqlite_master where type = 'index' and tbl_name = 'contracts' and sql is not null`).pluck();
    expect(taskIndexes.get()).toBe(6);
    expect(contractIndexes.get()).toBe(6);
    const standingAside = replica.sqlite.prepare(`select count(*) from sqlite_master where type = 'trigger' and (instr(sql, 'task_upkeep_deferred') or instr(sql, 'search_index_deferred') or instr(sql, 'repeated_numbers_deferred'))`).pluck();
    const triggers = standingAside.get();
    expect(triggers).toBeGreaterThan(10);
    const dashboard = createDashboardReader(replica.sqlite);
    const december = { startDate: '2026-12-01', endDate: '2026-12-09' };
    const cards = () => dashboard.board(december, '2026-11-24', 10).flatMap((day) => day.taskList.map((card) => card.id));
    const journal = () => [replica.sqlite.pragma('journal_mode', { simple: true }), replica.sqlite.pragma('synchronous', { simple: true })];
    expect(journal()).toEqual(['wal', 1]);
    writer.applyPulledChanges(pages[0]!.changes, pages[0]!.cursor, at);
    // Into the empty replica through a rollback journal synced in full (bulkLoadJournal, replica-sync.ts).
    expect(journal()).toEqual(['truncate', 2]);
    // Set aside while the pull runs: no index, no day counted; a task takes its contract's status
    // as it is written, when the contract came first (the pull's end derives the others).
    expect(taskIndexes.get()).toBe(0);
    expect(contractIndexes.get()).toBe(0);
    // The triggers that stand aside meanwhile are dropped, not asked for each row.
    expect(standingAside.get()).toBe(0);
    expect(replica.sqlite.prepare('select count(*) from performance_task_days').pluck().get()).toBe(0);
    const statusAsWritten = `select count(*) from performance_tasks t where contract_status is not null
      and contract_status is not (select coalesce(status, 0) from contracts c where c.id = t.contract_id)`;
    expect(replica.sqlite.prepare(statusAsWritten).pluck().get()).toBe(0);
    // The board, which names its index, reads on without it (no day is counted yet: no card).
    expect(cards()).toEqual([]);
    for (const { changes, cursor } of pages.slice(1)) writer.applyPulledChanges(changes, cursor, at);
    writer.finishPull();
    expect(journal()).toEqual(['wal', 1]);
    expect(taskIndexes.get()).toBe(6);
    expect(contractIndexes.get()).toBe(6);
    expect(standingAside.get()).toBe(triggers);
    // By due day: 4 (the 2nd), 2, 5 and 8 (the 3rd), 1 (moved to the 9th); 3 and 6 are gone, 7 has no due day.
    expect(cards()).toEqual([4, 2, 5, 8, 1].map(taskId));
    const deferred = snapshot(replica);
    replica.close();
    expect(deferred.days.length).toBeGreaterThan(2);
    expect(deferred.tasks.filter((row) => (row as { contract_status: number | null }).contract_status === 5)).toHaveLength(1);
    expect(deferred).toEqual(rowByRow());
  });

  it('resumes after a cut and a restart mid-way, and a migration then finds the indexes it knows', () => {
    const path = join(dir.path, 'cut.sqlite');
    let replica = openReplica(path, clientMigrationsDir);
    replicaWriter(replica, replicaFeatures).applyPulledChanges(pages[0]!.changes, pages[0]!.cursor, at);
    expect(replica.sqlite.prepare(`select count(*) from replica_meta where key like 'deferred_trigger:%'`).pluck().get()).toBeGreaterThan(10);
    expect(replica.sqlite.prepare(`select key from replica_meta where key like 'deferred_index:%' or key = 'task_upkeep_deferred' order by key`).pluck().all()).toEqual([
      'deferred_index:contracts_contract_number',
      'deferred_index:contracts_counterparty_update_time',
      'deferred_index:contracts_id_status',
      'deferred_index:contracts_related_candidates',
      'deferred_index:contracts_status_update_time',
      'deferred_index:contracts_update_time',
      'deferred_index:performance_tasks_card',
      'deferred_index:performance_tasks_contract',
      'deferred_index:performance_tasks_due_state',
      'deferred_index:performance_tasks_scene',
      'deferred_index:performance_tasks_update_time',
      'deferred_index:performance_tasks_without_contract_status',
      'task_upkeep_deferred',
    ]);
    // A page cut part-way changes nothing, and the next attempt writes it whole.
    const broken: SyncChange[] = [...pages[1]!.changes, { entity: 'performanceTask', op: 'upsert', row: { ...makeTask(9), name: undefined } as unknown as SyncTask }];
    expect(() => replicaWriter(replica, replicaFeatures).applyPulledChanges(broken, pages[1]!.cursor, at)).toThrow();
    replicaWriter(replica, replicaFeatures).applyPulledChanges(pages[1]!.changes, pages[1]!.cursor, at);
    replica.close();

    // Restarted by a build with one more migration, which drops an index the first sync set aside.
    const upgraded = migrationsUpTo(dir.path, clientJournal.entries.length);
    const tag = '9999_drop_due_state_index';
    writeFileSync(join(upgraded, `${tag}.sql`), 'DROP INDEX `performance_tasks_due_state`;');
    const journalPath = join(upgraded, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };
    journal.entries.push({ ...journal.entries.at(-1)!, idx: journal.entries.length, when: journal.entries.at(-1)!.when + 1000, tag });
    writeFileSync(journalPath, JSON.stringify(journal));
    replica = openReplica(path, upgraded);
    // Opened again, the triggers set aside are back at once (they stand aside by themselves while the first sync goes on).
    expect(replica.sqlite.prepare(`select count(*) from replica_meta where key like 'deferred_trigger:%'`).pluck().get()).toBe(0);
    expect(replica.sqlite.prepare(`select count(*) from sqlite_master where type = 'trigger' and instr(sql, 'task_upkeep_deferred')`).pluck().get()).toBeGreaterThan(4);
    // Opened again, the replica writes through its log: the rest of the first sync too.
    expect(replica.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges(pages[2]!.changes, pages[2]!.cursor, at);
    writer.finishPull();
    const names = replica.sqlite.prepare(`select name from sqlite_master where type = 'index' and tbl_name = 'performance_tasks' and sql is not null order by name`).pluck().all();
    expect(names).toEqual(['performance_tasks_card', 'performance_tasks_contract', 'performance_tasks_scene', 'performance_tasks_update_time', 'performance_tasks_without_contract_status']);
    const contractNames = replica.sqlite.prepare(`select name from sqlite_master where type = 'index' and tbl_name = 'contracts' and sql is not null order by name`).pluck().all();
    expect(contractNames).toEqual([
      'contracts_contract_number',
      'contracts_counterparty_update_time',
      'contracts_id_status',
      'contracts_related_candidates',
      'contracts_status_update_time',
      'contracts_update_time',
    ]);
    const resumed = snapshot(replica);
    replica.close();
    const { schema: _schema, ...expected } = rowByRow();
    const { schema: _resumedSchema, ...actual } = resumed;
    expect(actual).toEqual(expected);
  });
});
