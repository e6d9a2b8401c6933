import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncChange, SyncPlan, SyncTask } from '../../src-shared/api/sync';
import { ScheduleConditionType, TaskState } from '../../src-shared/domain/enums';
import { ledgerSearchSchema } from '../../src-shared/domain/ledger';
import { AppFailure } from '../../src-shared/errors';
import type { MutationArgs } from '../../src-shared/sync/mutations';
import { createOutbox, setReplicaOwner } from '../../src-main/core/data/outbox';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { createSceneSearch } from '../../src-main/core/ledger/scene-search';
import { createDashboardReader } from '../../src-main/core/performance/dashboard-store';
import { createFulfilmentReader } from '../../src-main/core/performance/fulfilment-store';
import { createTaskReader } from '../../src-main/core/performance/task-store';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract, makeTask } from '../support/contracts';
import { tempDir } from '../support/temp';

// A plan added offline (issue 28 item 2, performance.createPlan): its plan and tasks, with the ids
// the core made, are in the optimistic tables every reader reads, so they show at once on the
// contract's tab, the dashboard's counts and board, a scene and the reminders; the pull of the
// server's rows (the same ids) replaces them one for one; a refusal takes them away. What the
// server would refuse is refused at once by the same rules.

const today = '2026-11-10';
const at = '2026-11-10T00:00:00.000Z';
const owner = { id: 'u-1', username: 'alice', displayName: 'Alice', role: 'staff' as const, departmentId: 'd-1', departmentName: 'Legal' };
const approved = contractId(3);
const drafting = contractId(5);
const year = { startDate: '2027-01-01', endDate: '2027-12-31' };
const schedule = { cycle: 'month', startDate: '2027-01-15', endDate: '2027-12-20', amount: { amount: 1_200_000, unit: 'CNY' }, direction: 'payable', name: 'Rent' } as const;
const performance = { name: 'Payments', type: 'payment', columns: [{ id: 'name', name: 'performance content', type: 'text' as const, isRequired: true, isState: false }], fields: [] };

const existingPlan: SyncPlan = {
  id: 'plan-a', contractId: approved, performanceId: 'perf-a', performanceName: 'Receipts', performanceType: 'receivable', columns: [], fields: [],
  conditionType: ScheduleConditionType.SingleOrMultiple, schedule: null, version: 1, updateTime: at,
};
const existingTask = makeTask(1, { id: 'a-1', contractId: approved, planId: 'plan-a', performanceId: 'perf-a', rowIndex: 4, expirationTime: '2027-03-01', leaderUserId: owner.id });

/** A 12-month payable schedule and an invoice row typed by hand: 13 rows. */
function creation(contractID = approved, performanceId = 'perf-b'): MutationArgs<'performance.createPlan'> {
  return {
    planId: uuidv7(),
    performanceId,
    performance,
    plan: {
      contractID,
      conditionType: ScheduleConditionType.Periodicity,
      schedule,
      scheduleTaskIds: Array.from({ length: 12 }, () => uuidv7()),
      rows: [{ id: uuidv7(), name: 'Invoice', expirationTime: '2027-06-30' }],
    },
  };
}

const failureOf = (run: () => unknown) => {
  try {
    run();
    return null;
  } catch (cause) {
    return cause instanceof AppFailure ? { code: cause.error.code, reason: cause.error.reason?.key } : { code: 'not an AppFailure' };
  }
};

describe('a plan added offline', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  let outbox: ReturnType<typeof createOutbox>;
  const pull = (changes: SyncChange[], cursor: string) => replicaWriter(replica, replicaFeatures).applyPulledChanges(changes, cursor, at);
  const sheet = () => createFulfilmentReader(replica.db).contract(approved, today);
  const statistics = () => createDashboardReader(replica.sqlite).statistics(year, today);
  const board = () => createDashboardReader(replica.sqlite).board(year, today, 20).flatMap((day) => day.taskList.map((task) => task.id));
  const reminders = () => createTaskReader(replica.sqlite).reminderTasks(owner.id).map((task) => task.id);
  const scene = () => createSceneSearch(replica).search(ledgerSearchSchema.parse({ filterList: [], pageNum: 1, pageSize: 50 }), new Map());
  const localRows = () => replica.sqlite.prepare('select (select count(*) from performance_tasks_local) + (select count(*) from performance_plans_local)').pluck().get();

  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges([3, 5].map((i) => ({ entity: 'contract' as const, op: 'upsert' as const, row: makeContract(i, { responsibleUserId: owner.id }) })), '1', at);
    writer.finishPull();
    pull([{ entity: 'performancePlan', op: 'upsert', row: existingPlan }, { entity: 'performanceTask', op: 'upsert', row: existingTask }], '2');
    setReplicaOwner(replica.db, owner);
    outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('shows its 13 rows at once on the tab, the dashboard, the board, a scene and the reminders, with the ids it was made with', () => {
    const before = { statistics: statistics(), scene: scene().count };
    const args = creation();
    outbox.enqueue('performance.createPlan', args);
    const ids = [...args.plan.scheduleTaskIds, ...args.plan.rows.map((row) => row.id)];

    const plan = sheet().plans.find((shown) => shown.id === args.planId)!;
    expect(plan).toMatchObject({ performanceId: 'perf-b', performanceName: 'Payments', columns: performance.columns, conditionType: 2, schedule, pendingRows: null });
    expect(plan.tasks.map((task) => task.id).sort()).toEqual([...ids].sort());
    expect(plan.tasks.every((task) => task.pending && !task.queuedNew)).toBe(true);
    // Numbered on from the contract's last row (4), as the server will number them.
    expect(plan.tasks.map((task) => task.rowIndex).sort((a, b) => a - b)).toEqual(ids.map((_, i) => 5 + i));
    const january = plan.tasks.find((task) => task.id === ids[0])!;
    expect(january).toMatchObject({ name: 'Rent 2027-01-15~2027-01-31', dueDate: '2027-01-31', type: 'payable', state: TaskState.InProgress, leaderUserId: owner.id });
    expect(plan.tasks.filter((task) => task.payableAmount).reduce((sum, task) => sum + task.payableAmount!.amount, 0)).toBe(1_200_000);

    expect(statistics()).toEqual({ ...before.statistics, total: before.statistics.total + 13, ongoingCount: before.statistics.ongoingCount + 13 });
    expect(board()).toEqual(expect.arrayContaining(ids));
    expect(reminders()).toEqual(expect.arrayContaining(ids));
    const found = scene();
    expect(found.count).toBe(before.scene + 13);
    expect(found.list.map((row) => row.id)).toEqual(expect.arrayContaining(ids));
  });

  it('is replaced by the pulled rows of the same ids, once, after the server applied it; a replayed answer changes nothing', () => {
    const args = creation();
    const { id } = outbox.enqueue('performance.createPlan', args);
    const ids = [...args.plan.scheduleTaskIds, ...args.plan.rows.map((row) => row.id)];
    const shown = sheet().plans.find((plan) => plan.id === args.planId)!.tasks;
    const counts = statistics();
    const [sent] = outbox.nextBatch(10);
    const versions = Object.fromEntries([`performancePlan:${args.planId}`, ...ids.map((task) => `performanceTask:${task}`)].map((key) => [key, 1]));
    const answer = { id, status: 'applied', versions };
    outbox.settle([sent!], [answer]);
    // Applied, not pulled yet: still shown once, from the optimistic rows.
    expect(sheet().plans.find((plan) => plan.id === args.planId)!.tasks).toHaveLength(13);
    expect(statistics()).toEqual(counts);

    // The pull brings the server's plan and tasks, with the ids the device made.
    const serverTask = (task: (typeof shown)[number]): SyncTask =>
      makeTask(0, {
        id: task.id, contractId: approved, planId: args.planId, performanceId: 'perf-b', name: task.name, type: task.type, state: TaskState.InProgress, expirationTime: task.dueDate,
        payableAmount: task.payableAmount?.amount ?? null, receivableAmount: null, amountUnit: task.payableAmount ? 'CNY' : null, leaderUserId: owner.id, rowIndex: task.rowIndex, version: 1,
      });
    pull(
      [
        { entity: 'performancePlan', op: 'upsert', row: { ...existingPlan, id: args.planId, performanceId: 'perf-b', performanceName: 'Payments', performanceType: 'payment', conditionType: 2, schedule, version: 1 } },
        ...shown.map((task): SyncChange => ({ entity: 'performanceTask', op: 'upsert', row: serverTask(task) })),
      ],
      '3',
    );
    expect(localRows()).toBe(0);
    expect(replica.sqlite.prepare('select count(*) from outbox').pluck().get()).toBe(0);
    const pulled = sheet().plans.find((plan) => plan.id === args.planId)!.tasks;
    expect(pulled.map((task) => task.id).sort()).toEqual([...ids].sort());
    expect(pulled.every((task) => !task.pending)).toBe(true);
    expect(sheet().plans).toHaveLength(2);
    expect(statistics()).toEqual(counts);
    expect(board().filter((task) => ids.includes(task))).toHaveLength(13);
    expect(scene().list.filter((row) => ids.includes(row.id))).toHaveLength(13);
    // The same answer delivered again (a retried push): the settled mutation is not settled twice.
    outbox.settle([sent!], [answer]);
    expect(localRows()).toBe(0);
    expect(sheet().plans.find((plan) => plan.id === args.planId)!.tasks).toHaveLength(13);
  });

  it('takes its rows away when the server refuses it (a plan made elsewhere meanwhile), and says why', () => {
    const args = creation();
    const { id } = outbox.enqueue('performance.createPlan', args);
    const [sent] = outbox.nextBatch(10);
    outbox.settle([sent!], [{ id, status: 'rejected', error: { code: 'conflict', message: 'the contract already has a plan for the performance "Payments"', reason: { key: 'planExists', params: { performance: 'Payments' } } } }]);
    expect(sheet().plans.map((plan) => plan.id)).toEqual(['plan-a']);
    expect(localRows()).toBe(0);
    expect(outbox.status().problems).toMatchObject([{ state: 'rejected', error: { reason: { key: 'planExists' } } }]);
    expect(replicaFeatures.mutations['performance.createPlan'].view(args)).toEqual({ row: `performancePlan:${args.planId}`, changes: { performance: 'Payments', schedule, rows: 13 }, name: 'Payments' });
  });

  it('refuses at once what the server would refuse, and queues nothing', () => {
    const queued = () => replica.sqlite.prepare('select count(*) from outbox').pluck().get();
    // A contract still drafting may not have plans (the shared status rule).
    expect(failureOf(() => outbox.enqueue('performance.createPlan', creation(drafting)))).toEqual({ code: 'conflict', reason: 'planStatus' });
    // The contract has a plan under the performance: shown here, so refused here.
    expect(failureOf(() => outbox.enqueue('performance.createPlan', creation(approved, 'perf-a')))).toEqual({ code: 'conflict', reason: 'planExists' });
    // A plan added offline counts too: a second one under its performance is refused.
    outbox.enqueue('performance.createPlan', creation());
    expect(failureOf(() => outbox.enqueue('performance.createPlan', creation()))).toEqual({ code: 'conflict', reason: 'planExists' });
    expect(queued()).toBe(1);
    const bad = (change: (args: MutationArgs<'performance.createPlan'>) => unknown) => {
      const args = creation(approved, 'perf-c');
      return failureOf(() => outbox.enqueue('performance.createPlan', change(args) as MutationArgs<'performance.createPlan'>))?.code;
    };
    expect(bad((args) => ({ ...args, plan: { ...args.plan, scheduleTaskIds: args.plan.scheduleTaskIds.slice(2) } }))).toBe('validation_failed');
    expect(bad((args) => ({ ...args, plan: { ...args.plan, schedule: { ...schedule, endDate: '2026-12-31' } } }))).toBe('validation_failed');
    expect(bad((args) => ({ ...args, plan: { ...args.plan, rows: [{ id: uuidv7(), name: '  ' }] } }))).toBe('validation_failed');
    expect(bad((args) => ({ ...args, plan: { contractID: approved, conditionType: 0, scheduleTaskIds: [], rows: [] } }))).toBe('validation_failed');
    expect(bad((args) => ({ ...args, plan: { ...args.plan, rows: [{ id: args.plan.scheduleTaskIds[0]!, name: 'Twice' }] } }))).toBe('validation_failed');
    expect(bad((args) => ({ ...args, plan: { ...args.plan, rows: [{ id: uuidv7(), name: 'Two units', payableAmount: { amount: 1, unit: 'CNY' }, receivableAmount: { amount: 1, unit: 'USD' } }] } }))).toBe('validation_failed');
    expect(queued()).toBe(1);
  });

  it('hides a plan being removed, and its rows everywhere, at once; a refused removal brings them back', () => {
    const counts = statistics();
    const sceneCount = scene().count;
    expect(failureOf(() => outbox.enqueue('performance.deletePlan', { performanceId: 'perf-a', planId: 'plan-a', taskIds: [] }))).toEqual({ code: 'validation_failed', reason: undefined });
    const { id } = outbox.enqueue('performance.deletePlan', { performanceId: 'perf-a', planId: 'plan-a', taskIds: ['a-1'] });
    expect(sheet().plans).toEqual([]);
    expect(statistics()).toEqual({ ...counts, total: counts.total - 1, ongoingCount: counts.ongoingCount - 1 });
    expect(board()).not.toContain('a-1');
    expect(reminders()).not.toContain('a-1');
    expect(scene().count).toBe(sceneCount - 1);
    // While its removal waits, a new plan under the same performance may be added.
    expect(failureOf(() => outbox.enqueue('performance.createPlan', creation(approved, 'perf-a')))).toBeNull();
    const [sent] = outbox.nextBatch(10);
    outbox.settle([sent!], [{ id, status: 'rejected', error: { code: 'conflict', message: 'the plan has finished tasks and cannot be removed', reason: { key: 'planHasFinished' } } }]);
    expect(sheet().plans.map((plan) => plan.id)).toContain('plan-a');
    expect(reminders()).toContain('a-1');
  });

  it('refuses at once to remove a plan with a finished row', () => {
    pull([{ entity: 'performanceTask', op: 'upsert', row: { ...existingTask, state: TaskState.Success, finishedAmount: 1, completionValues: {}, version: 2 } }], '3');
    expect(failureOf(() => outbox.enqueue('performance.deletePlan', { performanceId: 'perf-a', planId: 'plan-a', taskIds: ['a-1'] }))).toEqual({ code: 'conflict', reason: 'planHasFinished' });
    expect(replica.sqlite.prepare('select count(*) from outbox').pluck().get()).toBe(0);
  });
});
