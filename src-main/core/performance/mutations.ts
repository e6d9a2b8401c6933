import { TaskState, type ContractStatus } from '../../../src-shared/domain/enums';
import { toMinorUnits } from '../../../src-shared/domain/money';
import { AppFailure, reason } from '../../../src-shared/errors';
import { finishRefusal, planRows, readOnlyRefusal, restoreRefusal, sheetBefore } from '../../../src-shared/rules/fulfilment';
import { openStateFor, organisationDay } from '../../../src-shared/rules/performance';
import { sheetCellRefusal } from '../../../src-shared/rules/sheet-cells';
import type { PlanSave } from '../../../src-shared/domain/performance';
import { valueFieldGroup } from '../../../src-shared/sync/field-versions';
import { changesCondition, rowKey } from '../../../src-shared/sync/mutations';
import type { ClientMutations, ReplicaTx, WorkingRows } from '../data/replica-features';
import { alterationQueued, currentContract } from '../contracts/contract-store';
import { contractTasks, currentPlan, currentTask, unfinishedEarlier, type ReplicaPlan, type ReplicaTask } from './fulfilment-store';

// The client side of the fulfilment mutations of src-shared/sync/mutations.ts: the server's
// refusals by the shared rules (src-shared/rules/fulfilment), now, on the tasks as this device
// shows them (the user's own queued edits included), and the optimistic effect on the rows.

export type FulfilmentMutation = 'performance.finishTask' | 'performance.finishTasks' | 'performance.restoreTasks' | 'performance.deletePlanTask' | 'performance.savePlan';

const taskNotFound = () => new AppFailure('not_found', 'performance task not found');

/** A task the edit moves: the outbox found it in the replica before the check runs. */
const shownTask = (db: ReplicaTx, id: string) => {
  const task = currentTask(db, id);
  if (!task) throw taskNotFound();
  return task;
};

const contractStatusOf = (db: ReplicaTx, task: ReplicaTask) => (task.contractId === null ? null : ((currentContract(db, task.contractId)?.status ?? null) as ContractStatus | null));

/**
 * As the server's finish: not finished, its contract not in change, and (a task under no plan) no
 * earlier task of its contract left unfinished. Beside the server's rules: no alteration of its
 * contract waiting in this device's queue (a contract change the server does not know yet).
 */
function checkFinish(db: ReplicaTx, task: ReplicaTask, finishedWith: ReadonlySet<string>): void {
  const refusal = finishRefusal(task, contractStatusOf(db, task));
  if (refusal) throw refusal;
  if (task.contractId !== null && alterationQueued(db, task.contractId)) throw new AppFailure('alteration_queued');
  if (task.planId !== null) return;
  const blocking = unfinishedEarlier(db, task).filter((other) => !finishedWith.has(other.id));
  if (blocking.length > 0) {
    const names = blocking.map((b) => `"${b.name}"`).join(', ');
    throw new AppFailure('conflict', `the task "${task.name}" cannot be finished before its predecessor tasks: ${names}`, undefined, reason('predecessorsOpen', { task: task.name, names }));
  }
}

/** The tasks of one performance an edit names, in sheet order, as the server reads them: any missing or of another performance is not found. */
function performanceTasks(db: ReplicaTx, performanceId: string, ids: readonly string[]): ReplicaTask[] {
  const tasks = [...new Set(ids)].map((id) => shownTask(db, id));
  if (tasks.some((task) => task.performanceId !== performanceId)) throw taskNotFound();
  return tasks.sort((a, b) => (sheetBefore(a, b) ? -1 : 1));
}

function finished(task: ReplicaTask, amount: number | undefined, configFields: Record<string, unknown> | undefined): ReplicaTask {
  // The finish amount is the entered amount times 100 (spec 4); without one, the task's own amount.
  const finishedAmount = amount !== undefined ? toMinorUnits(amount) : (task.receivableAmount ?? task.payableAmount);
  return { ...task, state: TaskState.Success, finishedAmount, completionValues: configFields ?? {} };
}

const restored = (task: ReplicaTask, at: string): ReplicaTask => ({
  ...task,
  state: openStateFor(task.expirationTime, organisationDay(new Date(at))),
  finishedAmount: null,
  completionValues: null,
});

/** Applies `change` to each shown task the edit names (a task gone from the replica shows nothing). */
function putTasks(rows: WorkingRows, ids: readonly string[], change: (task: ReplicaTask) => ReplicaTask): void {
  for (const id of new Set(ids)) {
    const key = rowKey('performanceTask', id);
    const task = rows.get(key) as ReplicaTask | null;
    if (task) rows.put(key, change(task));
  }
}

/** A sheet row's changed cells by task field group, as a task's fields are shown (amounts in hundredths). */
function sheetRowGroups({ id: _id, values, receivableAmount, payableAmount, leaderUserID, ...cells }: PlanSave['rows'][number]): Record<string, unknown> {
  const amount = receivableAmount ?? payableAmount;
  return {
    ...cells,
    ...(leaderUserID !== undefined && { leader: leaderUserID }),
    ...((receivableAmount !== undefined || payableAmount !== undefined) && { amount: amount?.amount ?? null }),
    ...Object.fromEntries(Object.entries(values ?? {}).map(([column, value]) => [valueFieldGroup(column), value])),
  };
}

export const fulfilmentMutations: ClientMutations<FulfilmentMutation> = {
  'performance.finishTask': {
    check: ({ id }, { db }) => checkFinish(db, shownTask(db, id), new Set()),
    apply: ({ id, amount, configFields }, rows) => putTasks(rows, [id], (task) => finished(task, amount, configFields)),
    view: ({ id, amount }) => ({ row: rowKey('performanceTask', id), changes: { state: TaskState.Success, ...(amount !== undefined && { completion: toMinorUnits(amount) }) } }),
  },
  'performance.finishTasks': {
    /** Earlier rows first, as the server does: a row whose predecessor is in the same batch may finish too. */
    check({ performanceId, planIDList }, { db }) {
      const tasks = performanceTasks(db, performanceId, planIDList);
      const batch = new Set<string>();
      for (const task of tasks) {
        checkFinish(db, task, batch);
        batch.add(task.id);
      }
    },
    apply: ({ planIDList, configFields }, rows) => putTasks(rows, planIDList, (task) => finished(task, undefined, configFields)),
    view: ({ planIDList }) => ({ row: rowKey('performanceTask', planIDList[0]!), changes: { state: TaskState.Success, tasks: new Set(planIDList).size } }),
  },
  'performance.restoreTasks': {
    check({ performanceId, planIDList }, { db }) {
      for (const task of performanceTasks(db, performanceId, planIDList)) {
        const refusal = restoreRefusal(task);
        if (refusal) throw refusal;
      }
    },
    apply: ({ planIDList }, rows, { at }) => putTasks(rows, planIDList, (task) => restored(task, at)),
    view: ({ planIDList }) => ({ row: rowKey('performanceTask', planIDList[0]!), changes: { restored: true, tasks: new Set(planIDList).size } }),
  },
  'performance.deletePlanTask': {
    check({ performanceId, planID }, { db }) {
      const [task] = performanceTasks(db, performanceId, [planID]);
      const refusal = readOnlyRefusal(task!, 'deleted');
      if (refusal) throw refusal;
    },
    apply: ({ planID }, rows) => putTasks(rows, [planID], (task) => ({ ...task, deleted: true })),
    view: ({ planID }) => ({ row: rowKey('performanceTask', planID), changes: { deleted: true } }),
  },
  'performance.savePlan': {
    /** As the server's plan save: the plan's own contract and performance, its own rows, finished rows unchanged, a schedule that generates. */
    check({ performanceId, planId, plan, removes }, { db }) {
      const stored = currentPlan(db, planId)!;
      if (stored.performanceId !== performanceId || stored.contractId !== plan.contractID) throw new AppFailure('not_found', 'the plan is not of this contract and performance');
      const cellRefusal = sheetCellRefusal(stored.columns, plan.rows);
      if (cellRefusal) throw cellRefusal;
      const own = new Map(contractTasks(db, stored.contractId).filter(({ task }) => task.planId === planId).map(({ task }) => [task.id, task]));
      plan.rows.forEach(({ id, ...update }, i) => {
        if (id === undefined) return;
        const task = own.get(id);
        if (!task) throw new AppFailure('not_found', `rows.${i}.id: performance task not found in this plan`);
        if (task.state === TaskState.Success && Object.keys(update).length > 0) throw new AppFailure('conflict', `rows.${i}: a finished task is read-only and cannot be edited`, undefined, reason('sheetRowFinished', { row: i + 1 }));
      });
      removes?.forEach((id, i) => {
        const task = own.get(id);
        if (!task) throw new AppFailure('not_found', `removes.${i}: performance task not found in this plan`);
        if (plan.rows.some((row) => row.id === id)) throw new AppFailure('validation_failed', `removes.${i}: the row is kept in the sheet too`);
        if (task.state === TaskState.Success) throw new AppFailure('conflict', `removes.${i}: a finished task is read-only and cannot be removed`, undefined, reason('finishedTaskReadOnly', { change: 'deleted' }));
      });
      planRows(plan);
    },
    /** As the server: a save that keeps the plan's condition leaves it as it is and lists its rows. */
    apply(args, rows) {
      const { planId, plan } = args;
      const key = rowKey('performancePlan', planId);
      const stored = rows.get(key) as ReplicaPlan | null;
      if (!stored) return;
      // After an earlier queued save of this sheet, the rows it removed stay removed and the cells
      // it changed stay changed: this one's user saw its result, and sends only what they changed.
      const earlierRemoves = stored.pendingRows ? (stored.pendingRemoves ?? null) : [];
      const pendingRemoves = earlierRemoves && args.removes ? [...new Set([...earlierRemoves, ...args.removes])] : null;
      const earlierRows = new Map((stored.pendingRows ?? []).flatMap((row) => (row.id === undefined ? [] : [[row.id, row] as const])));
      const onEarlier = (saved: typeof plan.rows) => saved.map((row) => (row.id === undefined ? row : { ...earlierRows.get(row.id), ...row }));
      const saved: ReplicaPlan = changesCondition(args)
        ? { ...stored, conditionType: plan.conditionType, schedule: plan.schedule ?? null, pendingRows: onEarlier(planRows(plan)), pendingRemoves }
        : { ...stored, pendingRows: onEarlier(plan.rows), pendingRemoves };
      rows.put(key, saved);
    },
    view({ planId, plan, removes = [] }) {
      // One saved row changed and none removed: the problem is that row's, cell by cell; else the sheet's.
      const edited = plan.rows.filter((row) => row.id !== undefined && Object.keys(row).length > 1);
      const [only] = edited;
      if (edited.length === 1 && only?.id !== undefined && removes.length === 0) return { row: rowKey('performanceTask', only.id), changes: sheetRowGroups(only) };
      return { row: rowKey('performancePlan', planId), changes: { schedule: plan.schedule ?? null, rows: plan.rows.length, ...(removes.length > 0 && { removed: removes.length }) } };
    },
  },
};
