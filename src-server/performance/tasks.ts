import { and, asc, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { PredecessorTask, TaskCard } from '../../src-shared/domain/performance';
import { TaskState } from '../../src-shared/domain/enums';
import { AppFailure, reason } from '../../src-shared/errors';
import { blockingPredecessors } from '../../src-shared/rules/fulfilment';
import { effectiveState } from '../../src-shared/rules/performance';
import { visibleTo, type Viewer } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { contracts, counterparties, users } from '../db/schema';
import { performanceTaskRelations, performanceTasks } from './schema';

// Reading performance tasks: the task card shape, and who may see a task. One rule for every
// reader (the change feed, the dashboard's statistics and board, the contract's tab, the writes):
// a contract's task is visible exactly when its contract is (the contracts' rule, `visibleTo`, which
// lets admins see every contract); a quick task, having no contract, to its creator and its leader
// only, admins included (the feed sends it to no one else, so no replica could count it).

/** A transaction or the database: reads run inside the writes' transactions too. */
export type Executor = Pick<ServerDb, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

const leaders = alias(users, 'leader');

/** The columns the rule reads: a task's, or its tombstone's (the feed tells a deletion to whoever saw the task). */
export interface TaskOwnerColumns {
  contractId: PgColumn;
  createdBy: PgColumn;
  leaderUserId: PgColumn;
}

/** Whether the viewer sees a task; the query joins `contracts` on the left by the task's contract (a missing contract hides it). */
export function taskVisibleTo(viewer: Viewer, task: TaskOwnerColumns = performanceTasks): SQL | undefined {
  return or(and(isNotNull(task.contractId), isNotNull(contracts.id), visibleTo(viewer)), quickTaskVisibleTo(viewer, task));
}

/** The viewer's quick tasks: those they created or lead. */
export function quickTaskVisibleTo(viewer: Viewer, task: TaskOwnerColumns = performanceTasks): SQL | undefined {
  return and(isNull(task.contractId), or(eq(task.createdBy, viewer.id), eq(task.leaderUserId, viewer.id)));
}

/** Tasks with their contract, counterparty and leader; callers add `taskVisibleTo` to the where. */
export function selectTasks(db: Executor) {
  return db
    .select({
      task: performanceTasks,
      contractName: contracts.name,
      contractStatus: contracts.status,
      counterpartName: counterparties.name,
      leaderName: leaders.displayName,
    })
    .from(performanceTasks)
    .leftJoin(contracts, eq(contracts.id, performanceTasks.contractId))
    .leftJoin(counterparties, eq(counterparties.id, contracts.counterpartyId))
    .leftJoin(leaders, eq(leaders.id, performanceTasks.leaderUserId));
}

export type TaskRow = Awaited<ReturnType<typeof selectTasks>>[number];
export type StoredTask = TaskRow['task'];

const money = (amount: number | null, unit: string | null) => (amount !== null && unit !== null ? { amount, unit } : null);

/** The wire shape, with the state as it stands on `today` (a passed due date makes a pending task overdue). */
export function toTaskCard({ task, contractName, counterpartName, leaderName }: TaskRow, today: string): TaskCard {
  return {
    id: task.id,
    planID: task.planId,
    contractID: task.contractId,
    performanceID: task.performanceId,
    taskName: task.name,
    taskState: effectiveState(task.state, task.expirationTime, today),
    expirationTime: task.expirationTime,
    counterpartName,
    contractName,
    taskLeader: leaderName,
    leaderUserID: task.leaderUserId,
    payableAmount: money(task.payableAmount, task.amountUnit),
    receivableAmount: money(task.receivableAmount, task.amountUnit),
    type: task.type,
    date: task.expirationTime,
    level: task.level,
    rowIndex: task.rowIndex,
    values: task.values,
    finishedAmount: task.finishedAmount,
    version: task.version,
  };
}

export const taskNotFound = () => new AppFailure('not_found', 'performance task not found', undefined, reason('taskMissing'));

/**
 * One task the viewer may see, or 404 (a task the viewer may not see does not exist for them).
 * `lock` takes the row lock for a write in `db`'s transaction.
 */
export async function findTask(db: Executor, viewer: Viewer, id: string, lock = false): Promise<TaskRow> {
  const query = selectTasks(db).where(and(eq(performanceTasks.id, id), taskVisibleTo(viewer)));
  const [row] = lock ? await query.for('update', { of: performanceTasks }) : await query;
  if (!row) throw taskNotFound();
  return row;
}

/** The SQL twin of `effectiveState`, for counting by state. */
export function effectiveStateSql(today: string): SQL<number> {
  return sql<number>`case when ${performanceTasks.state} in (${TaskState.NotStarted}, ${TaskState.InProgress}) and ${performanceTasks.expirationTime} < ${today}::date then ${TaskState.Overdue} else ${performanceTasks.state} end`;
}

/** Sheet order within a contract: due date, then row number. */
export const sheetOrder = [asc(performanceTasks.expirationTime), asc(performanceTasks.rowIndex), asc(performanceTasks.id)];

export function toPredecessor({ task, contractName }: TaskRow): PredecessorTask {
  return { taskID: task.id, taskName: task.name, contractName, contractID: task.contractId, taskState: task.state };
}

/** The tasks `taskId` was related to as its front (predecessor) tasks. */
export async function frontTasksOf(db: Executor, taskId: string): Promise<TaskRow[]> {
  return selectTasks(db)
    .innerJoin(performanceTaskRelations, eq(performanceTaskRelations.frontTaskId, performanceTasks.id))
    .where(eq(performanceTaskRelations.taskId, taskId))
    .orderBy(...sheetOrder);
}

/** The tasks of a contract with their contract, in sheet order. */
export async function contractTaskRows(db: Executor, contractId: string): Promise<TaskRow[]> {
  return selectTasks(db).where(eq(performanceTasks.contractId, contractId)).orderBy(...sheetOrder);
}

/**
 * What must be finished before `task`, by the shared rule (src-shared/rules/fulfilment): its
 * unfinished predecessors and, under no plan, the earlier unfinished tasks of its contract (spec 4).
 */
export async function unfinishedPredecessors(db: Executor, task: StoredTask): Promise<TaskRow[]> {
  if (task.contractId === null) return [];
  const rows = await contractTaskRows(db, task.contractId);
  const byId = new Map(rows.map((row) => [row.task.id, row]));
  return blockingPredecessors(task, rows.map((row) => row.task)).map((blocking) => byId.get(blocking.id)!);
}
