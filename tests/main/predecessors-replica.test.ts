import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncChange, SyncPlan, SyncTask } from '../../src-shared/api/sync';
import { ScheduleConditionType, TaskState } from '../../src-shared/domain/enums';
import { AppFailure } from '../../src-shared/errors';
import { createOutbox } from '../../src-main/core/data/outbox';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { createFulfilmentReader } from '../../src-main/core/performance/fulfilment-store';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract, makeTask } from '../support/contracts';
import { clientJournal, migrationsUpTo } from '../support/migrations';
import { tempDir } from '../support/temp';

// Predecessor relations in the replica (issue 28 item 4): pulled with their tasks, related and
// unrelated through the outbox with the server's refusals at once, shown on the rows, holding a
// finish back at once; and the client migration that brings them keeps the queue.

const today = '2026-11-10';
const at = '2026-11-10T00:00:00.000Z';
const approved = contractId(3);
const task = (id: string, rowIndex: number, overrides: Partial<SyncTask> = {}): SyncTask =>
  makeTask(0, { id, contractId: approved, planId: 'plan-a', performanceId: 'perf-a', name: `Task ${id}`, rowIndex, expirationTime: '2026-11-20', createTime: at, updateTime: at, ...overrides });
const plan: SyncPlan = {
  id: 'plan-a', contractId: approved, performanceId: 'perf-a', performanceName: 'Payments', performanceType: 'payment', columns: [], fields: [],
  conditionType: ScheduleConditionType.SingleOrMultiple, schedule: null, version: 1, updateTime: at,
};
const reasonOf = (run: () => unknown) => {
  try {
    run();
    return null;
  } catch (cause) {
    return cause instanceof AppFailure ? (cause.error.reason?.key ?? cause.error.code) : 'not an AppFailure';
  }
};

describe('predecessors in the replica', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  let outbox: ReturnType<typeof createOutbox>;
  const reader = () => createFulfilmentReader(replica.db);
  const row = (id: string) => reader().contract(approved, today).plans[0]!.tasks.find((t) => t.id === id)!;
  const blocking = (id: string, batch?: string[]) => reader().finishForm(id, batch).blockingPredecessors.map((t) => t.id);
  const pull = (changes: SyncChange[], cursor: string) => replicaWriter(replica, replicaFeatures).applyPulledChanges(changes, cursor, at);
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    pull(
      [
        { entity: 'contract', op: 'upsert', row: makeContract(3) },
        { entity: 'performancePlan', op: 'upsert', row: plan },
        { entity: 'performanceTask', op: 'upsert', row: task('t1', 1) },
        { entity: 'performanceTask', op: 'upsert', row: task('t2', 2, { frontTaskIds: ['t1'] }) },
        { entity: 'performanceTask', op: 'upsert', row: task('t3', 3) },
        { entity: 'performanceTask', op: 'upsert', row: task('t4', 4, { state: TaskState.Success, finishedAmount: 1, completionValues: {} }) },
      ],
      '1',
    );
    outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('shows pulled relations on the rows and warns on a finish they hold back, as the server would refuse it', () => {
    expect(row('t2').predecessors).toEqual([{ id: 't1', name: 'Task t1', finished: false }]);
    expect(row('t3').predecessors).toEqual([]);
    // The first row has nothing before it to relate, the second is related to it already; a finished row takes no relation.
    expect(['t1', 't2', 't3', 't4'].map((id) => row(id).relatable)).toEqual([false, false, true, false]);
    expect(blocking('t2')).toEqual(['t1']);
    // Under a plan, only related tasks hold a finish back (not every earlier one).
    expect(blocking('t3')).toEqual([]);
    expect(reasonOf(() => outbox.enqueue('performance.finishTask', { id: 't2' }))).toBe('predecessorsOpen');
    // Finished together with its predecessor, earlier rows first: the server takes the batch.
    expect(blocking('t2', ['t1'])).toEqual([]);
    expect(reasonOf(() => outbox.enqueue('performance.finishTasks', { performanceId: 'perf-a', planIDList: ['t2', 't1'] }))).toBeNull();
    expect(row('t2').state).toBe(TaskState.Success);
  });

  it('relates and unrelates through the outbox: shown at once, refused at once as the server refuses, settled by the pull', () => {
    expect(reader().relateCandidates('t3', today).map((c) => c.id)).toEqual(['t1', 't2']);
    expect(reasonOf(() => outbox.enqueue('performance.relateTask', { id: 't1', frontTaskIDList: ['t3'] }))).toBe('predecessorNotEarlier');
    expect(reasonOf(() => outbox.enqueue('performance.relateTask', { id: 't3', frontTaskIDList: ['t3'] }))).toBe('ownPredecessor');
    expect(reasonOf(() => outbox.enqueue('performance.relateTask', { id: 't4', frontTaskIDList: ['t1'] }))).toBe('finishedTaskReadOnly');
    expect(reasonOf(() => outbox.enqueue('performance.unrelateTask', { id: 't3', frontTaskID: 't1' }))).toBe('noSuchPredecessor');
    // Bad input is refused by the shared schema, naming the field.
    expect(reasonOf(() => outbox.enqueue('performance.relateTask', { id: 't3', frontTaskIDList: [] }))).toBe('validation_failed');
    expect(reasonOf(() => outbox.enqueue('performance.relateTask', { id: 't3', frontTaskIDList: Array.from({ length: 51 }, (_, i) => `x${i}`) }))).toBe('validation_failed');
    expect(reasonOf(() => outbox.enqueue('performance.unrelateTask', { id: 't3' } as never))).toBe('validation_failed');
    expect(outbox.status().queued).toBe(0);

    outbox.enqueue('performance.relateTask', { id: 't3', frontTaskIDList: ['t2', 't1'] });
    expect(row('t3')).toMatchObject({ pending: true, predecessors: [{ id: 't1' }, { id: 't2' }] });
    expect(blocking('t3')).toEqual(['t1', 't2']);
    expect(reader().relateCandidates('t3', today)).toEqual([]);
    // A pull of the server's row before the relate reached it keeps the queued relation on top.
    pull([{ entity: 'performanceTask', op: 'upsert', row: task('t3', 3, { name: 'Renamed', version: 2 }) }], '2');
    expect(row('t3')).toMatchObject({ name: 'Renamed', predecessors: [{ id: 't1' }, { id: 't2' }] });

    outbox.enqueue('performance.unrelateTask', { id: 't3', frontTaskID: 't1' });
    expect(row('t3').predecessors.map((front) => front.id)).toEqual(['t2']);
    expect(replicaFeatures.mutations['performance.unrelateTask'].view({ id: 't3', frontTaskID: 't1' })).toEqual({ row: 'performanceTask:t3', changes: { frontRemoved: 1 } });
    // The server applies them one after the other (each moves the task's version).
    for (let version = 3; outbox.status().queued > 0; version += 1) {
      const batch = outbox.nextBatch(10);
      outbox.settle(batch, batch.map((m) => ({ id: m.id, status: 'applied' as const, versions: { 'performanceTask:t3': version } })));
    }
    pull([{ entity: 'performanceTask', op: 'upsert', row: task('t3', 3, { name: 'Renamed', version: 4, frontTaskIds: ['t2'] }) }], '3');
    expect(row('t3')).toMatchObject({ pending: false, predecessors: [{ id: 't2' }] });
  });

  it('shows a predecessor deleted meanwhile as gone, and a task of another contract related by an earlier version as holding nothing', () => {
    pull(
      [
        { entity: 'performanceTask', op: 'delete', id: 't1' },
        { entity: 'contract', op: 'upsert', row: makeContract(4) },
        { entity: 'performanceTask', op: 'upsert', row: task('other', 1, { contractId: contractId(4), planId: null }) },
        { entity: 'performanceTask', op: 'upsert', row: task('t3', 3, { frontTaskIds: ['other'] }) },
      ],
      '2',
    );
    expect(row('t2').predecessors).toEqual([]);
    expect(blocking('t2')).toEqual([]);
    expect(row('t3').predecessors).toEqual([]);
    expect(blocking('t3')).toEqual([]);
  });
});

describe('client migration 0036', () => {
  it('keeps the queue, and pulls every task again so that each comes with its predecessors', () => {
    const dir = tempDir();
    const path = join(dir.path, 'r.sqlite');
    const before = clientJournal.entries.findIndex((entry) => entry.tag.startsWith('0036_'));
    const old = openReplica(path, migrationsUpTo(dir.path, before));
    old.sqlite.prepare(`insert into contracts (id, name, status, create_time, update_time, version) values (?, 'Contract', 4, 't', 't', 1)`).run(approved);
    old.sqlite.prepare(`insert into performance_tasks (id, contract_id, plan_id, name, type, state, version, update_time) values ('t1', ?, 'plan-a', 'Old row', 'payment', 2, 1, 't')`).run(approved);
    old.sqlite.prepare(`insert into replica_meta (key, value) values ('pull_cursor', '42')`).run();
    const { lastInsertRowid } = old.sqlite
      .prepare("insert into outbox (id, name, args, base_versions, created_at, state) values ('0192f000-0000-7000-8000-000000000001', 'contract.update', ?, ?, ?, 'pending')")
      .run(JSON.stringify({ id: approved, patch: { name: 'Queued' } }), JSON.stringify({ [`contract:${approved}`]: 1 }), at);
    old.sqlite.prepare('insert into outbox_touches (row_key, seq) values (?, ?)').run(`contract:${approved}`, lastInsertRowid);
    old.close();

    const replica = openReplica(path, clientMigrationsDir);
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
    expect(outbox.status()).toMatchObject({ queued: 1, problems: [] });
    expect(replica.sqlite.prepare('select count(*) from performance_tasks').pluck().get()).toBe(0);
    expect(replica.sqlite.prepare(`select value from replica_meta where key = 'pull_cursor'`).pluck().get()).toBe('0');
    expect(replica.sqlite.prepare('select id from resync_unseen').pluck().all()).toEqual([approved]);
    replicaWriter(replica, replicaFeatures).applyPulledChanges(
      [
        { entity: 'contract', op: 'upsert', row: makeContract(3) },
        { entity: 'performancePlan', op: 'upsert', row: plan },
        { entity: 'performanceTask', op: 'upsert', row: task('t1', 1) },
        { entity: 'performanceTask', op: 'upsert', row: task('t2', 2, { frontTaskIds: ['t1'] }) },
      ],
      '7',
      at,
    );
    expect(createFulfilmentReader(replica.db).contract(approved, today).plans[0]!.tasks.map((t) => [t.id, t.predecessors.map((f) => f.id)])).toEqual([['t1', []], ['t2', ['t1']]]);
    expect(outbox.nextBatch(10).map((m) => m.args)).toEqual([{ id: approved, patch: { name: 'Queued' } }]);
    replica.close();
    dir.cleanup();
  });
});
