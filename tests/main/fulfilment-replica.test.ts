import { join } from 'node:path';
import fc from 'fast-check';
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
import { clientJournal, migrationsUpTo, withoutTaskWriters, withThisBuildsContractColumns } from '../support/migrations';
import { tempDir } from '../support/temp';

// The performance tab's rules on this device's queue (issue 13): no finish, alone or in a batch,
// while an alteration of the contract waits in the queue; and the queued new sheet rows of
// separate plans and quick tasks numbered as the server will number them, never twice the same.

const today = '2026-11-10';
const at = '2026-11-10T00:00:00.000Z';
const approved = contractId(3);
const task = (id: string, overrides: Partial<SyncTask>): SyncTask =>
  makeTask(0, { id, contractId: approved, name: `Task ${id}`, expirationTime: '2026-11-20', createTime: at, updateTime: at, ...overrides });
const plan = (id: string, performanceId: string): SyncPlan => ({
  id,
  contractId: approved,
  performanceId,
  performanceName: `Performance ${performanceId}`,
  performanceType: 'payment',
  columns: [],
  fields: [],
  conditionType: ScheduleConditionType.SingleOrMultiple,
  schedule: null,
  version: 1,
  updateTime: at,
});

const codeOf = (run: () => unknown) => {
  try {
    run();
    return null;
  } catch (cause) {
    return cause instanceof AppFailure ? cause.error.code : 'not an AppFailure';
  }
};

describe('the performance tab over the queue of this device', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  let outbox: ReturnType<typeof createOutbox>;
  const sheet = () => createFulfilmentReader(replica.db).contract(approved, today);
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const changes: SyncChange[] = [
      // Approved, under a template this device has not kept: only the name is checked on an alteration.
      { entity: 'contract', op: 'upsert', row: makeContract(3, { templateId: 'template-1' }) },
      { entity: 'performancePlan', op: 'upsert', row: plan('plan-a', 'perf-a') },
      { entity: 'performancePlan', op: 'upsert', row: plan('plan-b', 'perf-b') },
      { entity: 'performanceTask', op: 'upsert', row: task('a-1', { planId: 'plan-a', performanceId: 'perf-a', rowIndex: 1 }) },
      { entity: 'performanceTask', op: 'upsert', row: task('a-2', { planId: 'plan-a', performanceId: 'perf-a', rowIndex: 2 }) },
      { entity: 'performanceTask', op: 'upsert', row: task('b-1', { planId: 'plan-b', performanceId: 'perf-b', rowIndex: 3, state: TaskState.Success, finishedAmount: 1, completionValues: {} }) },
    ];
    replicaWriter(replica, replicaFeatures).applyPulledChanges(changes, '1', at);
    outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('refuses a finish and a batch finish while an alteration of the contract is queued, and allows them once it is sent', () => {
    expect(sheet().alterationQueued).toBe(false);
    const { id } = outbox.enqueue('contract.alter', { id: approved, formValues: { price: '20' }, reason: 'New price' });
    expect(sheet()).toMatchObject({ inChange: false, alterationQueued: true });
    expect(codeOf(() => outbox.enqueue('performance.finishTask', { id: 'a-1', amount: 1 }))).toBe('alteration_queued');
    expect(codeOf(() => outbox.enqueue('performance.finishTasks', { performanceId: 'perf-a', planIDList: ['a-1', 'a-2'] }))).toBe('alteration_queued');
    // Nothing was queued by the refused finishes; restoring a finished task is no finish.
    expect(replica.sqlite.prepare('select count(*) from outbox').pluck().get()).toBe(1);
    expect(codeOf(() => outbox.enqueue('performance.restoreTasks', { performanceId: 'perf-b', planIDList: ['b-1'] }))).toBeNull();

    const [sent] = outbox.nextBatch(10);
    expect(sent?.id).toBe(id);
    outbox.settle([sent!], [{ id, status: 'applied', versions: { [`contract:${approved}`]: 2 } }]);
    expect(sheet().alterationQueued).toBe(false);
    expect(codeOf(() => outbox.enqueue('performance.finishTasks', { performanceId: 'perf-a', planIDList: ['a-1', 'a-2'] }))).toBeNull();
  });

  it('takes a sheet save that removes rows only for unfinished rows of its plan, and shows its problem as the sheet', () => {
    const save = (rows: { id: string }[], removes: string[]) => ({ performanceId: 'perf-a', planId: 'plan-a', plan: { contractID: approved, conditionType: 1 as const, rows }, removes });
    expect(codeOf(() => outbox.enqueue('performance.savePlan', save([{ id: 'a-1' }], ['b-1'])))).toBe('not_found');
    expect(codeOf(() => outbox.enqueue('performance.savePlan', save([{ id: 'a-1' }, { id: 'a-2' }], ['a-2'])))).toBe('validation_failed');
    const removing = save([{ id: 'a-1', name: 'Renamed' } as { id: string }], ['a-2']);
    expect(codeOf(() => outbox.enqueue('performance.savePlan', removing))).toBeNull();
    // A conflict on the removed row is not the renamed row's: the problem is the sheet's.
    expect(replicaFeatures.mutations['performance.savePlan'].view(removing)).toEqual({ row: 'performancePlan:plan-a', changes: { schedule: null, rows: 1, removed: 1 } });
  });

  it('keeps showing the rows added elsewhere after a queued sheet save was made, hiding only those its user removed', () => {
    const pull = (row: SyncTask, cursor: string) => replicaWriter(replica, replicaFeatures).applyPulledChanges([{ entity: 'performanceTask', op: 'upsert', row }], cursor, at);
    const tasksOf = (planId: string) => sheet().plans.find((p) => p.id === planId)!.tasks.map((t) => [t.name, t.rowIndex]);
    outbox.enqueue('performance.savePlan', { performanceId: 'perf-a', planId: 'plan-a', plan: { contractID: approved, conditionType: 1, rows: [{ id: 'a-1', name: 'Renamed' }, { name: 'Mine new', expirationTime: '2026-11-25' }] }, removes: ['a-2'] });
    expect(tasksOf('plan-a')).toEqual([['Renamed', 1], ['Mine new', 4]]);
    // Someone else adds a row to the plan meanwhile; the pull brings it while the save waits.
    pull(task('a-3', { planId: 'plan-a', performanceId: 'perf-a', rowIndex: 4 }), '2');
    expect(tasksOf('plan-a')).toEqual([['Renamed', 1], ['Task a-3', 4], ['Mine new', 5]]);
    // A second save of the sheet, made after that pull (its editor sends only the cells changed):
    // the row removed by the first stays removed, the row renamed by the first stays renamed.
    outbox.enqueue('performance.savePlan', { performanceId: 'perf-a', planId: 'plan-a', plan: { contractID: approved, conditionType: 1, rows: [{ id: 'a-1' }, { id: 'a-3', name: 'Theirs, renamed' }, { name: 'Mine new', expirationTime: '2026-11-25' }] }, removes: [] });
    expect(tasksOf('plan-a')).toEqual([['Renamed', 1], ['Theirs, renamed', 4], ['Mine new', 6]]);
    // A save queued by the version before saves named their removed rows drops every unlisted one, as the server then did.
    outbox.enqueue('performance.savePlan', { performanceId: 'perf-b', planId: 'plan-b', plan: { contractID: approved, conditionType: 1, rows: [{ id: 'b-1' }] } });
    pull(task('b-2', { planId: 'plan-b', performanceId: 'perf-b', rowIndex: 7 }), '3');
    expect(tasksOf('plan-b')).toEqual([['Task b-1', 3]]);
  });

  it('reads a sheet save queued before saves named their removed rows (client migration 0035) as then: every unlisted unfinished row goes', () => {
    replica.close();
    const path = join(dir.path, 'before-0035.sqlite');
    const before = clientJournal.entries.findIndex((entry) => entry.tag.startsWith('0035_'));
    const old = openReplica(path, migrationsUpTo(dir.path, before));
    withThisBuildsContractColumns(old.sqlite, () =>
      replicaWriter(old, withoutTaskWriters(replicaFeatures)).applyPulledChanges(
        [
          { entity: 'contract', op: 'upsert', row: makeContract(3) },
          { entity: 'performancePlan', op: 'upsert', row: plan('plan-a', 'perf-a') },
        ],
        '1',
        at,
      ),
    );
    // The optimistic plan as that version wrote it for a save listing a-1 renamed.
    old.sqlite.prepare(`insert into performance_plans_local select *, ? from performance_plans where id = 'plan-a'`).run(JSON.stringify([{ id: 'a-1', name: 'Renamed' }]));
    old.close();
    replica = openReplica(path, clientMigrationsDir);
    // The tasks as the pull after the migrations brings them (client migration 0036 pulls every task again).
    replicaWriter(replica, replicaFeatures).applyPulledChanges(
      [
        { entity: 'performanceTask', op: 'upsert', row: task('a-1', { planId: 'plan-a', performanceId: 'perf-a', rowIndex: 1 }) },
        { entity: 'performanceTask', op: 'upsert', row: task('a-2', { planId: 'plan-a', performanceId: 'perf-a', rowIndex: 2 }) },
      ],
      '2',
      at,
    );
    expect(sheet().plans[0]!.tasks.map((t) => [t.name, t.rowIndex])).toEqual([['Renamed', 1]]);
  });

  const shownTask = (id: string) => {
    const shown = sheet();
    return [...shown.plans.flatMap((p) => p.tasks), ...shown.looseTasks].find((t) => t.id === id);
  };

  it('records on each task of a batch finish its own amount, never the amount entered for the batch on every one (issue 28)', () => {
    replicaWriter(replica, replicaFeatures).applyPulledChanges(
      [
        { entity: 'performanceTask', op: 'upsert', row: task('a-1', { planId: 'plan-a', performanceId: 'perf-a', rowIndex: 1, receivableAmount: 1_755_000 }) },
        { entity: 'performanceTask', op: 'upsert', row: task('a-2', { planId: 'plan-a', performanceId: 'perf-a', rowIndex: 2, receivableAmount: 2_000_000 }) },
      ],
      '2',
      at,
    );
    // The dialog's completion amount, as the user typed it once for the batch, goes to neither task.
    const shared = { finishDate: '2026-11-10', finishAmount: { amount: 3_510_000, unit: 'CNY' } };
    outbox.enqueue('performance.finishTasks', { performanceId: 'perf-a', planIDList: ['a-1', 'a-2'], configFields: shared, finishAmounts: { 'a-2': { amount: 1_900_000, unit: 'CNY' } } });
    expect(shownTask('a-1')).toMatchObject({ state: TaskState.Success, finishedAmount: { amount: 1_755_000 }, completionValues: { finishDate: '2026-11-10', finishAmount: { amount: 1_755_000, unit: 'CNY' } } });
    expect(shownTask('a-2')).toMatchObject({ state: TaskState.Success, finishedAmount: { amount: 1_900_000 }, completionValues: { finishDate: '2026-11-10', finishAmount: { amount: 1_900_000, unit: 'CNY' } } });
    // An amount for a task the batch does not finish is bad input: refused, nothing queued.
    expect(codeOf(() => outbox.enqueue('performance.finishTasks', { performanceId: 'perf-b', planIDList: ['b-1'], finishAmounts: { 'a-1': { amount: 1, unit: 'CNY' } } }))).toBe('validation_failed');
  });

  it('leaves the rows a sheet save lists untouched as they were: a not-started row stays not started (issue 28)', () => {
    replicaWriter(replica, replicaFeatures).applyPulledChanges(
      [
        { entity: 'performanceTask', op: 'upsert', row: task('a-1', { planId: 'plan-a', performanceId: 'perf-a', rowIndex: 1, state: TaskState.NotStarted }) },
        { entity: 'performanceTask', op: 'upsert', row: task('a-2', { planId: 'plan-a', performanceId: 'perf-a', rowIndex: 2, state: TaskState.NotStarted }) },
      ],
      '2',
      at,
    );
    const rows = [{ id: 'a-1' }, { id: 'a-2', name: 'Renamed' }, { name: 'Added', expirationTime: '2026-11-25' }];
    outbox.enqueue('performance.savePlan', { performanceId: 'perf-a', planId: 'plan-a', plan: { contractID: approved, conditionType: 1, rows }, removes: [] });
    expect(shownTask('a-1')).toMatchObject({ name: 'Task a-1', state: TaskState.NotStarted, pending: false });
    // A changed row keeps its state too unless its due date moved; then the shared rule sets it.
    expect(shownTask('a-2')).toMatchObject({ name: 'Renamed', state: TaskState.NotStarted });
    outbox.enqueue('performance.savePlan', { performanceId: 'perf-a', planId: 'plan-a', plan: { contractID: approved, conditionType: 1, rows: [{ id: 'a-1', expirationTime: '2026-11-01' }, { id: 'a-2' }] }, removes: [] });
    expect(shownTask('a-1')).toMatchObject({ state: TaskState.Overdue, dueDate: '2026-11-01' });
  });

  it('restores and deletes a quick task of the contract by its id, though it has no performance (issue 28)', () => {
    replicaWriter(replica, replicaFeatures).applyPulledChanges(
      [
        { entity: 'performanceTask', op: 'upsert', row: task('q-1', { rowIndex: 4, type: 'custom', receivableAmount: null, amountUnit: null, state: TaskState.Success, finishedAmount: null, completionValues: { description: 'done' } }) },
        { entity: 'performanceTask', op: 'upsert', row: task('q-2', { rowIndex: 5, type: 'custom', receivableAmount: null, amountUnit: null }) },
      ],
      '2',
      at,
    );
    expect(codeOf(() => outbox.enqueue('performance.restoreTask', { id: 'q-2' }))).toBe('conflict');
    outbox.enqueue('performance.restoreTask', { id: 'q-1' });
    expect(shownTask('q-1')).toMatchObject({ state: TaskState.InProgress, finishedAmount: null, completionValues: null, pending: true });
    expect(codeOf(() => outbox.enqueue('performance.deleteTask', { id: 'b-1' }))).toBe('conflict');
    outbox.enqueue('performance.deleteTask', { id: 'q-2' });
    expect(shownTask('q-2')).toBeUndefined();
  });

  it('shows on the task the finish the server refused, with its reason, until it is dismissed (issue 28)', () => {
    const { id } = outbox.enqueue('performance.finishTasks', { performanceId: 'perf-a', planIDList: ['a-1', 'a-2'] });
    expect(shownTask('a-1')).toMatchObject({ state: TaskState.Success, refusal: null });
    const error = { code: 'conflict', message: 'the task "Task a-2" cannot be finished before its predecessor tasks: "X"', reason: { key: 'predecessorsOpen', params: { task: 'Task a-2', names: '"X"' } } };
    const [sent] = outbox.nextBatch(10);
    outbox.settle([sent!], [{ id, status: 'rejected', error }]);
    for (const taskId of ['a-1', 'a-2']) expect(shownTask(taskId)).toMatchObject({ state: TaskState.InProgress, pending: false, refusal: { mutationId: id, name: 'performance.finishTasks', state: 'rejected', error } });
    expect(shownTask('b-1')!.refusal).toBeNull();
    outbox.dismiss(id);
    expect(shownTask('a-1')!.refusal).toBeNull();
  });

  it('numbers the queued new rows of two plans and a quick task after one another, as the server will', () => {
    const row = (name: string) => ({ name, expirationTime: '2026-11-25' });
    const keep = (...ids: string[]) => ids.map((id) => ({ id }));
    outbox.enqueue('performance.savePlan', { performanceId: 'perf-a', planId: 'plan-a', plan: { contractID: approved, conditionType: 1, rows: [...keep('a-1', 'a-2'), row('A new 1'), row('A new 2')] } });
    outbox.enqueue('performance.quickTask', {
      id: '0192f000-0000-7000-8000-000000000001',
      payload: { name: 'Call the notary', type: 'custom', relatedID: approved, fieldList: [{ id: 'd', name: 'Date', type: 'date', required: true, value: '2026-11-12' }] },
    });
    outbox.enqueue('performance.savePlan', { performanceId: 'perf-b', planId: 'plan-b', plan: { contractID: approved, conditionType: 1, rows: [...keep('b-1'), row('B new')] } });
    const shown = sheet();
    const numbers = (planId: string) => shown.plans.find((p) => p.id === planId)!.tasks.map((t) => [t.name, t.rowIndex]);
    // The server: plan A's save takes 4 and 5 after the contract's 3 rows, the quick task 6, plan B's save 7.
    expect(numbers('plan-a')).toEqual([['Task a-1', 1], ['Task a-2', 2], ['A new 1', 4], ['A new 2', 5]]);
    expect(shown.looseTasks.map((t) => [t.name, t.rowIndex])).toEqual([['Call the notary', 6]]);
    expect(numbers('plan-b')).toEqual([['Task b-1', 3], ['B new', 7]]);

    // A second save of plan A lists its queued rows again as new ones (they have no id yet): the
    // server numbers them after everything before, and drops the first save's rows only then.
    outbox.enqueue('performance.savePlan', { performanceId: 'perf-a', planId: 'plan-a', plan: { contractID: approved, conditionType: 1, rows: [...keep('a-1'), row('A new 1'), row('A new 2')] } });
    const again = sheet();
    expect(again.plans.find((p) => p.id === 'plan-a')!.tasks.map((t) => [t.name, t.rowIndex])).toEqual([['Task a-1', 1], ['A new 1', 8], ['A new 2', 9]]);
    expect(again.plans.find((p) => p.id === 'plan-b')!.tasks.map((t) => t.rowIndex)).toEqual([3, 7]);
  });
});

describe('the per-day task counts kept by triggers', () => {
  it('always equal a fresh count of the tasks by due day and state, whatever pulls, deletes, state and date changes arrive', () => {
    const dir = tempDir();
    const replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges([{ entity: 'contract', op: 'upsert', row: makeContract(3) }], '1', at);
    // The first sync ends: from then on the triggers keep the counts (a first sync derives them at its end).
    writer.finishPull();
    const truth = replica.sqlite.prepare('select expiration_time as day, state, count(*) as n from performance_tasks where expiration_time is not null group by 1, 2 order by 1, 2');
    const kept = replica.sqlite.prepare('select day, state, count as n from performance_task_days where count <> 0 order by 1, 2');
    const day = fc.constantFrom<string | null>('2026-11-01', '2026-11-02', '2026-11-30', null);
    const change = fc.oneof(
      fc.record({ op: fc.constant('upsert' as const), i: fc.integer({ min: 0, max: 20 }), state: fc.constantFrom<TaskState>(1, 2, 3, 4, 5), day }),
      fc.record({ op: fc.constant('delete' as const), i: fc.integer({ min: 0, max: 20 }) }),
      fc.record({ op: fc.constant('contractGone' as const) }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(change, { maxLength: 20 }), { maxLength: 6 }), (pages) => {
        for (const page of pages) {
          const changes: SyncChange[] = page.map((c) =>
            c.op === 'upsert'
              ? { entity: 'performanceTask', op: 'upsert', row: task(`t-${c.i}`, { state: c.state, expirationTime: c.day }) }
              : c.op === 'delete'
                ? { entity: 'performanceTask', op: 'delete', id: `t-${c.i}` }
                : { entity: 'contract', op: 'delete', id: approved },
          );
          writer.applyPulledChanges(changes, '1', at);
          writer.applyPulledChanges([{ entity: 'contract', op: 'upsert', row: makeContract(3) }], '1', at);
        }
        expect(kept.all()).toEqual(truth.all());
      }),
      { numRuns: 200, seed: 20261124 },
    );
    replica.close();
    dir.cleanup();
  });
});
