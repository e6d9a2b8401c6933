import { TaskState, type ContractStatus } from '../../../src-shared/domain/enums';
import { toMinorUnits } from '../../../src-shared/domain/money';
import { AppFailure, reason } from '../../../src-shared/errors';
import { amountUnitOf, batchFinishRecord, blockingPredecessors, finishRecord, type FinishRecord, finishRefusal, planCreateRows, planExistsRefusal, planRemovalRefusal, planRows, planStatusRefusal, predecessorsOpenRefusal, readOnlyRefusal, relateRefusal, restoreRefusal, rowIndexAfter, sheetBefore, unrelateRefusal, withoutPredecessor, withPredecessors } from '../../../src-shared/rules/fulfilment';
import { openStateFor, organisationDay, taskTypeFor } from '../../../src-shared/rules/performance';
import type { PlanCreateRow, PlanSave } from '../../../src-shared/domain/performance';
import { sheetCellRefusal } from '../../../src-shared/rules/sheet-cells';
import { valueFieldGroup } from '../../../src-shared/sync/field-versions';
import { changesCondition, rowKey } from '../../../src-shared/sync/mutations';
import type { ClientMutations, LocalContext, ReplicaTx, WorkingRows } from '../data/replica-features';
import { alterationQueued, currentContract } from '../contracts/contract-store';
import { contractPlans, contractTasks, contractTasksOf, currentPlan, currentTask, type ReplicaPlan, type ReplicaTask } from './fulfilment-store';

// The client side of the fulfilment mutations of src-shared/sync/mutations.ts: the server's
// refusals by the shared rules (src-shared/rules/fulfilment), now, on the tasks as this device
// shows them (the user's own queued edits included), and the optimistic effect on the rows.

export type FulfilmentMutation =
  | 'performance.finishTask'
  | 'performance.finishTasks'
  | 'performance.restoreTasks'
  | 'performance.restoreTask'
  | 'performance.deletePlanTask'
  | 'performance.deleteTask'
  | 'performance.savePlan'
  | 'performance.createPlan'
  | 'performance.deletePlan'
  | 'performance.relateTask'
  | 'performance.unrelateTask';

const taskNotFound = () => new AppFailure('not_found', 'performance task not found');

/** A task the edit moves: the outbox found it in the replica before the check runs. */
const shownTask = (db: ReplicaTx, id: string) => {
  const task = currentTask(db, id);
  if (!task) throw taskNotFound();
  return task;
};

const contractStatusOf = (db: ReplicaTx, task: ReplicaTask) => (task.contractId === null ? null : ((currentContract(db, task.contractId)?.status ?? null) as ContractStatus | null));

/**
 * As the server's finish: not finished, its contract not in change, and no predecessor left
 * unfinished (the shared rule: its related predecessors and, a task under no plan, the earlier
 * tasks of its contract), those finished before it in the same batch aside. Beside the server's
 * rules: no alteration of its contract waiting in this device's queue (a contract change the
 * server does not know yet).
 */
function checkFinish(db: ReplicaTx, task: ReplicaTask, finishedWith: ReadonlySet<string>): void {
  const refusal = finishRefusal(task, contractStatusOf(db, task));
  if (refusal) throw refusal;
  if (task.contractId !== null && alterationQueued(db, task.contractId)) throw new AppFailure('alteration_queued');
  const blocked = predecessorsOpenRefusal(task, blockingPredecessors(task, contractTasksOf(db, task), finishedWith));
  if (blocked) throw blocked;
}

/** The tasks of one performance an edit names, in sheet order, as the server reads them: any missing or of another performance is not found. */
function performanceTasks(db: ReplicaTx, performanceId: string, ids: readonly string[]): ReplicaTask[] {
  const tasks = [...new Set(ids)].map((id) => shownTask(db, id));
  if (tasks.some((task) => task.performanceId !== performanceId)) throw taskNotFound();
  return tasks.sort((a, b) => (sheetBefore(a, b) ? -1 : 1));
}

/** The task finished with what the server records (the shared rule), so the optimistic row is the one the pull brings. */
const finished = (task: ReplicaTask, record: FinishRecord): ReplicaTask => ({ ...task, state: TaskState.Success, ...record });

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

/** A new plan's row as the server will store it (insertPlanTask): its amounts, the type they decide, open as of the edit's day, led by its maker unless it names a leader. */
function newPlanTask(row: PlanCreateRow, plan: { id: string; contractId: string; performanceId: string; performanceType: string }, rowIndex: number, { at, owner }: LocalContext): ReplicaTask {
  const receivableAmount = row.receivableAmount?.amount ?? null;
  const payableAmount = row.payableAmount?.amount ?? null;
  const dueDate = row.expirationTime ?? null;
  return {
    id: row.id,
    contractId: plan.contractId,
    planId: plan.id,
    performanceId: plan.performanceId,
    name: row.name,
    type: taskTypeFor(row.type ?? plan.performanceType, { receivableAmount, payableAmount }),
    state: openStateFor(dueDate, organisationDay(new Date(at))),
    expirationTime: dueDate,
    receivableAmount,
    payableAmount,
    amountUnit: receivableAmount === null && payableAmount === null ? null : (amountUnitOf(row) ?? null),
    leaderUserId: row.leaderUserID ?? owner?.id ?? null,
    rowIndex,
    level: row.level ?? null,
    values: row.values ?? {},
    completionValues: null,
    finishedAmount: null,
    frontTaskIds: null,
    createTime: at,
    version: 0,
    updateTime: at,
  };
}

export const fulfilmentMutations: ClientMutations<FulfilmentMutation> = {
  'performance.finishTask': {
    check: ({ id }, { db }) => checkFinish(db, shownTask(db, id), new Set()),
    apply: ({ id, ...input }, rows) => putTasks(rows, [id], (task) => finished(task, finishRecord(task, input))),
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
    apply: (batch, rows) => putTasks(rows, batch.planIDList, (task) => finished(task, batchFinishRecord(task, batch))),
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
  'performance.restoreTask': {
    check({ id }, { db }) {
      const refusal = restoreRefusal(shownTask(db, id));
      if (refusal) throw refusal;
    },
    apply: ({ id }, rows, { at }) => putTasks(rows, [id], (task) => restored(task, at)),
    view: ({ id }) => ({ row: rowKey('performanceTask', id), changes: { restored: true } }),
  },
  'performance.deleteTask': {
    check({ id }, { db }) {
      const refusal = readOnlyRefusal(shownTask(db, id), 'deleted');
      if (refusal) throw refusal;
    },
    apply: ({ id }, rows) => putTasks(rows, [id], (task) => ({ ...task, deleted: true })),
    view: ({ id }) => ({ row: rowKey('performanceTask', id), changes: { deleted: true } }),
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
  'performance.relateTask': {
    /** As the server's relate, on the relations as this device shows them (its queued ones included): a task outside the contract is not one this device can name. */
    check({ id, frontTaskIDList }, { db }) {
      const task = shownTask(db, id);
      const refusal = relateRefusal(task, frontTaskIDList, contractTasksOf(db, task), (frontId) => currentTask(db, frontId));
      if (refusal) throw refusal;
    },
    apply: ({ id, frontTaskIDList }, rows) => putTasks(rows, [id], (task) => ({ ...task, frontTaskIds: withPredecessors(task.frontTaskIds, frontTaskIDList) })),
    view: ({ id, frontTaskIDList }) => ({ row: rowKey('performanceTask', id), changes: { front: new Set(frontTaskIDList).size } }),
  },
  'performance.unrelateTask': {
    check({ id, frontTaskID }, { db }) {
      const refusal = unrelateRefusal(shownTask(db, id), frontTaskID);
      if (refusal) throw refusal;
    },
    apply: ({ id, frontTaskID }, rows) => putTasks(rows, [id], (task) => ({ ...task, frontTaskIds: withoutPredecessor(task.frontTaskIds, frontTaskID) })),
    view: ({ id }) => ({ row: rowKey('performanceTask', id), changes: { frontRemoved: 1 } }),
  },
  'performance.savePlan': {
    /** As the server's plan save: the plan's own contract and performance, its own rows, finished rows unchanged, a schedule that generates. */
    check(args, { db }) {
      const { performanceId, planId, plan, removes } = args;
      const stored = currentPlan(db, planId)!;
      if (stored.performanceId !== performanceId || stored.contractId !== plan.contractID) throw new AppFailure('not_found', 'the plan is not of this contract and performance');
      // The rows the save writes: as listed, or generated from a schedule it changes (which must fill the required columns too).
      const cellRefusal = sheetCellRefusal(stored.columns, plan.rows) ?? (changesCondition(args) ? sheetCellRefusal(stored.columns, planRows(plan)) : null);
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
  'performance.createPlan': {
    /** As the server's: a contract of a status that may have plans, no plan under the performance yet (as this device shows it), a schedule that makes as many rows as it has ids, unused ids. */
    check({ planId, performanceId, performance, plan }, { db }) {
      const contract = currentContract(db, plan.contractID);
      if (!contract) throw new AppFailure('not_found', 'contract not found', undefined, reason('contractNotOnDevice'));
      const refusal = planStatusRefusal(contract.status as ContractStatus | null);
      if (refusal) throw refusal;
      if (alterationQueued(db, plan.contractID)) throw new AppFailure('alteration_queued');
      const existing = contractPlans(db, plan.contractID).find((shown) => shown.performanceId === performanceId);
      if (existing) throw planExistsRefusal(existing.performanceName || performance.name);
      const rows = planCreateRows(plan);
      rows.forEach((row) => amountUnitOf(row));
      const cellRefusal = sheetCellRefusal(performance.columns, rows, true);
      if (cellRefusal) throw cellRefusal;
      if (currentPlan(db, planId) || rows.some((row) => currentTask(db, row.id))) throw new AppFailure('conflict', 'the plan or one of its task ids is taken already');
    },
    apply(args, rows, context) {
      const { planId, performanceId, performance, plan } = args;
      const made = planCreateRows(plan);
      const own = new Set(made.map((row) => row.id));
      // Numbered on from the contract's last row as shown, as the server numbers them when it applies the plan.
      const last = Math.max(0, ...contractTasks(context.db, plan.contractID).filter(({ task }) => !own.has(task.id)).map(({ task }) => task.rowIndex));
      const shown = { id: planId, contractId: plan.contractID, performanceId, performanceType: performance.type };
      rows.put(rowKey('performancePlan', planId), {
        ...shown,
        performanceName: performance.name,
        columns: performance.columns,
        fields: performance.fields,
        conditionType: plan.conditionType,
        schedule: plan.schedule ?? null,
        version: 0,
        updateTime: context.at,
        pendingRows: null,
        pendingRemoves: null,
      } satisfies ReplicaPlan);
      made.forEach((row, i) => rows.put(rowKey('performanceTask', row.id), newPlanTask(row, shown, rowIndexAfter(last) + i, context)));
    },
    view: ({ planId, performance, plan }) => ({
      row: rowKey('performancePlan', planId),
      changes: { performance: performance.name, schedule: plan.schedule ?? null, rows: plan.scheduleTaskIds.length + plan.rows.length },
      name: performance.name,
    }),
  },
  'performance.deletePlan': {
    /** As the server's: a plan of this performance shown here, no row of it finished, and the rows named the ones shown (a row the user did not see does not go unseen). */
    check({ performanceId, planId, taskIds }, { db }) {
      const plan = currentPlan(db, planId);
      if (!plan || plan.performanceId !== performanceId) throw new AppFailure('not_found', 'the plan is not of this performance');
      const rows = contractTasks(db, plan.contractId).filter(({ task }) => task.planId === planId).map(({ task }) => task);
      const refusal = planRemovalRefusal(rows);
      if (refusal) throw refusal;
      const named = new Set(taskIds);
      if (named.size !== rows.length || rows.some((task) => !named.has(task.id))) throw new AppFailure('validation_failed', 'taskIds: the rows named are not the rows of the plan as shown');
    },
    apply: ({ taskIds }, rows) => putTasks(rows, taskIds, (task) => ({ ...task, deleted: true })),
    view: ({ planId, taskIds }) => ({ row: rowKey('performancePlan', planId), changes: { removed: taskIds.length } }),
  },
};
