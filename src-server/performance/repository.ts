import { and, eq, inArray, max, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { canBeFrontQuerySchema } from '../../src-shared/api/performance';
import { TaskState } from '../../src-shared/domain/enums';
import type { Money } from '../../src-shared/domain/money';
import { quickTaskDate, type QuickTaskPayload, type TaskCard, type TaskUpdate } from '../../src-shared/domain/performance';
import { en } from '../../src-shared/i18n/en';
import { AppFailure, invalidFields, reason } from '../../src-shared/errors';
import { amountUnitOf, batchFinishRecord, finishRecord, type FinishRecord, finishRefusal, nameMatches, predecessorsOpenRefusal, readOnlyRefusal, relateCandidates, relateRefusal, restoreRefusal, rowIndexAfter, unrelateRefusal } from '../../src-shared/rules/fulfilment';
import { openStateFor, stateAfterEdit, taskTypeFor } from '../../src-shared/rules/performance';
import { visibleTo, type Viewer } from '../contracts/repository';
import type { OrgViewer } from '../http/feature-helpers';
import { checkIfMatch, ifMatchVersion } from '../http/write-safety';
import type { ServerDb } from '../db/database';
import { contracts, users } from '../db/schema';
import { sheetCellRefusal } from '../../src-shared/rules/sheet-cells';
import { sheetColumnsOf } from './definition';
import { performanceTaskRelations, performanceTasks } from './schema';
import {
  contractTaskRows,
  findTask,
  frontTasksOf,
  selectTasks,
  taskNotFound,
  taskVisibleTo,
  toPredecessor,
  toTaskCard,
  unfinishedPredecessors,
  type Executor,
  type StoredTask,
  type TaskRow,
} from './tasks';

// Writes to performance tasks and the task state machine (spec 4): pending/overdue → finish →
// success (4) → restore → the state its due date implies. A finished task is read-only.

export function refuseQuickTask(task: StoredTask): void {
  if (task.contractId === null) throw new AppFailure('bad_request', en.messages.quickTask);
}

function refuseFinished(task: StoredTask, action: 'edited' | 'deleted'): void {
  const refusal = readOnlyRefusal(task, action);
  if (refusal) throw refusal;
}

/** A leader must be a user of the viewer's organisation. */
export async function checkLeader(db: Executor, organisationId: string, userId: string, field: string): Promise<void> {
  const [row] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, userId), eq(users.organisationId, organisationId)));
  if (!row) throw invalidFields([{ path: field, message: 'unknown user' }]);
}

/** A contract the viewer may see, or 404. */
export async function findVisibleContract(db: Executor, viewer: Viewer, contractId: string) {
  const [row] = await db
    .select({ id: contracts.id, name: contracts.name, status: contracts.status })
    .from(contracts)
    .where(and(eq(contracts.id, contractId), visibleTo(viewer)));
  if (!row) throw contractNotFound();
  return row;
}

export const contractNotFound = () => new AppFailure('not_found', 'contract not found', undefined, reason('contractMissing'));

/** The next row number of a contract's sheet: the current maximum plus 1 (spec 5). */
export async function nextRowIndex(db: Executor, contractId: string): Promise<number> {
  const [row] = await db.select({ last: max(performanceTasks.rowIndex) }).from(performanceTasks).where(eq(performanceTasks.contractId, contractId));
  return rowIndexAfter(row?.last ?? null);
}

/** The next row number of each contract's sheet, in one statement. */
export async function nextRowIndexes(db: Executor, contractIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ contractId: performanceTasks.contractId, last: max(performanceTasks.rowIndex) })
    .from(performanceTasks)
    .where(inArray(performanceTasks.contractId, [...contractIds]))
    .groupBy(performanceTasks.contractId);
  const last = new Map(rows.map((row) => [row.contractId, row.last]));
  return new Map(contractIds.map((id) => [id, rowIndexAfter(last.get(id) ?? null)]));
}

/** The column values of a task update, with the type rule applied; amounts share one unit. */
export function taskChanges(task: Pick<StoredTask, 'type' | 'payableAmount' | 'receivableAmount' | 'amountUnit'>, update: TaskUpdate) {
  const payable = update.payableAmount === undefined ? task.payableAmount : (update.payableAmount?.amount ?? null);
  const receivable = update.receivableAmount === undefined ? task.receivableAmount : (update.receivableAmount?.amount ?? null);
  const unit = amountUnitOf(update) ?? (payable === null && receivable === null ? null : task.amountUnit);
  return {
    ...(update.name !== undefined && { name: update.name }),
    ...(update.expirationTime !== undefined && { expirationTime: update.expirationTime }),
    ...(update.leaderUserID !== undefined && { leaderUserId: update.leaderUserID }),
    ...(update.level !== undefined && { level: update.level }),
    ...(update.values !== undefined && { values: update.values }),
    payableAmount: payable,
    receivableAmount: receivable,
    amountUnit: unit,
    type: taskTypeFor(update.type ?? task.type, { payableAmount: payable, receivableAmount: receivable }),
  };
}

const bump = { version: sql`${performanceTasks.version} + 1`, updateTime: sql`now()` };

export async function updateTask(db: ServerDb, viewer: Viewer, id: string, update: TaskUpdate, today: string, headers: Record<string, string | string[] | undefined>) {
  return db.transaction(async (tx) => {
    const { task } = await findTask(tx, viewer, id, true);
    await checkIfMatch('the task', task.version, ifMatchVersion(headers), async () => toTaskCard(await findTask(tx, viewer, id), today));
    refuseFinished(task, 'edited');
    // The cells it changes, by its sheet's rules as a sheet save of the row: a required one is not emptied.
    const cellRefusal = sheetCellRefusal(await sheetColumnsOf(tx, task.performanceId), [{ id, ...update }]);
    if (cellRefusal) throw cellRefusal;
    if (update.leaderUserID) await checkLeader(tx, task.organisationId, update.leaderUserID, 'leaderUserID');
    const changes = taskChanges(task, update);
    const due = changes.expirationTime === undefined ? task.expirationTime : changes.expirationTime;
    await tx.update(performanceTasks).set({ ...changes, state: stateAfterEdit(task.state, task.expirationTime, due, today), ...bump }).where(eq(performanceTasks.id, id));
    return toTaskCard(await findTask(tx, viewer, id), today);
  });
}

export async function deleteTask(db: ServerDb, viewer: Viewer, id: string, version: number | undefined, today: string, performanceId?: string) {
  return db.transaction(async (tx) => {
    const row = await findTask(tx, viewer, id, true);
    const { task } = row;
    if (performanceId !== undefined && task.performanceId !== performanceId) throw taskNotFound();
    await checkIfMatch('the task', task.version, version, () => toTaskCard(row, today));
    refuseFinished(task, 'deleted');
    await tx.delete(performanceTasks).where(eq(performanceTasks.id, id));
    return { id };
  });
}

async function finishOne(tx: Executor, viewer: Viewer, row: TaskRow, record: (task: StoredTask) => FinishRecord, at: Date) {
  const { task } = row;
  const refusal = finishRefusal(task, row.contractStatus);
  if (refusal) throw refusal;
  // A batch finishes its earlier rows first: those are finished here already when a later row's turn comes.
  const blocked = predecessorsOpenRefusal(task, (await unfinishedPredecessors(tx, task)).map((b) => b.task));
  if (blocked) throw blocked;
  await tx
    .update(performanceTasks)
    .set({ state: TaskState.Success, ...record(task), finishedAt: at, finishedBy: viewer.id, ...bump })
    .where(eq(performanceTasks.id, task.id));
}

async function restoreOne(tx: Executor, task: StoredTask, today: string) {
  const refusal = restoreRefusal(task);
  if (refusal) throw refusal;
  await tx
    .update(performanceTasks)
    .set({ state: openStateFor(task.expirationTime, today), finishedAmount: null, completionValues: null, finishedAt: null, finishedBy: null, ...bump })
    .where(eq(performanceTasks.id, task.id));
}

export async function finishTask(
  db: ServerDb, viewer: Viewer, id: string, input: { amount?: number; configFields?: Record<string, unknown> }, now: Date, today: string,
  headers: Record<string, string | string[] | undefined>,
) {
  return db.transaction(async (tx) => {
    const row = await findTask(tx, viewer, id, true);
    await checkIfMatch('the task', row.task.version, ifMatchVersion(headers), () => toTaskCard(row, today));
    await finishOne(tx, viewer, row, (task) => finishRecord(task, input), now);
    return toTaskCard(await findTask(tx, viewer, id), today);
  });
}

export async function restoreTask(db: ServerDb, viewer: Viewer, id: string, today: string, headers: Record<string, string | string[] | undefined>) {
  return db.transaction(async (tx) => {
    const { task } = await findTask(tx, viewer, id, true);
    await checkIfMatch('the task', task.version, ifMatchVersion(headers), async () => toTaskCard(await findTask(tx, viewer, id), today));
    await restoreOne(tx, task, today);
    return toTaskCard(await findTask(tx, viewer, id), today);
  });
}

/** The tasks of `ids` under one performance, locked, in sheet order; 404 if any is missing or hidden. */
async function performanceRows(tx: Executor, viewer: Viewer, performanceId: string, ids: readonly string[]): Promise<TaskRow[]> {
  const unique = [...new Set(ids)];
  const rows = await selectTasks(tx)
    .where(and(inArray(performanceTasks.id, unique), eq(performanceTasks.performanceId, performanceId), taskVisibleTo(viewer)))
    .orderBy(performanceTasks.expirationTime, performanceTasks.rowIndex, performanceTasks.id)
    .for('update', { of: performanceTasks });
  if (rows.length !== unique.length) throw taskNotFound();
  return rows;
}

/** What a batch finish gives: the tasks, the completion values they share, and each one's own completion amount where entered. */
export interface BatchFinish {
  planIDList: readonly string[];
  configFields?: Record<string, unknown> | undefined;
  finishAmounts?: Record<string, Money> | undefined;
}

/** Batch finish: earlier rows first, so a row whose predecessor is in the same batch may finish too; each records its own amount. */
export async function finishTasks(db: ServerDb, viewer: Viewer, performanceId: string, batch: BatchFinish, now: Date, today: string) {
  return db.transaction(async (tx) => {
    const rows = await performanceRows(tx, viewer, performanceId, batch.planIDList);
    for (const row of rows) await finishOne(tx, viewer, row, (task) => batchFinishRecord(task, batch), now);
    return listCards(tx, rows, today);
  });
}

export async function restoreTasks(db: ServerDb, viewer: Viewer, performanceId: string, ids: readonly string[], today: string) {
  return db.transaction(async (tx) => {
    const rows = await performanceRows(tx, viewer, performanceId, ids);
    for (const { task } of rows) await restoreOne(tx, task, today);
    return listCards(tx, rows, today);
  });
}

async function listCards(tx: Executor, rows: readonly TaskRow[], today: string): Promise<{ list: TaskCard[] }> {
  const fresh = await selectTasks(tx).where(inArray(performanceTasks.id, rows.map((r) => r.task.id)));
  const byId = new Map(fresh.map((row) => [row.task.id, row]));
  return { list: rows.map((r) => toTaskCard(byId.get(r.task.id)!, today)) };
}

/** `id`: the client's, for a quick task queued offline (sync mutation performance.quickTask). */
export async function createQuickTask(db: ServerDb, viewer: OrgViewer, payload: QuickTaskPayload, today: string, id: string = uuidv7()) {
  return db.transaction(async (tx) => {
    const { organisationId } = viewer;
    const contract = payload.relatedID ? await findVisibleContract(tx, viewer, payload.relatedID) : null;
    const leaderUserId = payload.leaderUserID ?? viewer.id;
    await checkLeader(tx, organisationId, leaderUserId, 'leaderUserID');
    const dueDate = quickTaskDate(payload.fieldList);
    await tx.insert(performanceTasks).values({
      id,
      organisationId,
      contractId: contract?.id ?? null,
      name: payload.name,
      type: payload.type,
      state: openStateFor(dueDate, today),
      level: payload.level ?? null,
      rowIndex: contract ? await nextRowIndex(tx, contract.id) : 1,
      expirationTime: dueDate,
      leaderUserId,
      values: Object.fromEntries(payload.fieldList.map((field) => [field.id, field.value ?? null])),
      createdBy: viewer.id,
    });
    return toTaskCard(await findTask(tx, viewer, id), today);
  });
}

/** Serialises edits of the predecessor graph, so two concurrent relates cannot close a cycle. */
const relationLockKey = 727_301;

function refuse(refusal: AppFailure | null): void {
  if (refusal) throw refusal;
}

/** The tasks of the task's contract (none for a quick task without one), as the shared predecessor rules read them. */
async function contractTasksOf(tx: Executor, task: StoredTask): Promise<StoredTask[]> {
  return task.contractId === null ? [] : (await contractTaskRows(tx, task.contractId)).map((row) => row.task);
}

/** Relates `id` to predecessors by the shared rules (src-shared/rules/fulfilment relateRefusal). */
export async function relateTasks(db: ServerDb, viewer: Viewer, id: string, frontIds: readonly string[]) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${relationLockKey})`);
    const { task } = await findTask(tx, viewer, id, true);
    const contractTasks = await contractTasksOf(tx, task);
    // A named task outside the contract, if the viewer may see it, is refused as one of another contract; else it is not found.
    const outside = frontIds.filter((frontId) => !contractTasks.some((other) => other.id === frontId));
    const others = new Map(
      outside.length === 0 ? [] : (await selectTasks(tx).where(and(inArray(performanceTasks.id, outside), taskVisibleTo(viewer)))).map(({ task: other }) => [other.id, other]),
    );
    refuse(relateRefusal(task, frontIds, contractTasks, (frontId) => others.get(frontId) ?? null));
    const added = [...new Set(frontIds)].filter((frontId) => !(task.frontTaskIds ?? []).includes(frontId));
    // One statement: the task takes its new predecessors and one new version (migration 0037's trigger).
    if (added.length > 0) await tx.insert(performanceTaskRelations).values(added.map((frontId) => ({ taskId: id, frontTaskId: frontId }))).onConflictDoNothing();
    return { list: (await frontTasksOf(tx, id)).map(toPredecessor) };
  });
}

export async function unrelateTask(db: ServerDb, viewer: Viewer, id: string, frontId: string) {
  return db.transaction(async (tx) => {
    const { task } = await findTask(tx, viewer, id, true);
    refuse(unrelateRefusal(task, frontId));
    await tx.delete(performanceTaskRelations).where(and(eq(performanceTaskRelations.taskId, id), eq(performanceTaskRelations.frontTaskId, frontId)));
    return { list: (await frontTasksOf(tx, id)).map(toPredecessor) };
  });
}

export async function frontTasks(db: ServerDb, viewer: Viewer, id: string) {
  const { task } = await findTask(db, viewer, id);
  refuseQuickTask(task);
  return { list: (await frontTasksOf(db, id)).map(toPredecessor) };
}

/** Predecessor check (spec 4): the unfinished tasks that keep `currentTaskID` from finishing, per contract. */
export async function checkFront(db: ServerDb, viewer: Viewer, contractId: string, taskId: string) {
  const { task } = await findTask(db, viewer, taskId);
  refuseQuickTask(task);
  if (task.contractId !== contractId) throw taskNotFound();
  const groups = new Map<string | null, { contractID: string | null; contractName: string | null; taskList: ReturnType<typeof toPredecessor>[] }>();
  for (const row of await unfinishedPredecessors(db, task)) {
    const group = groups.get(row.task.contractId) ?? { contractID: row.task.contractId, contractName: row.contractName, taskList: [] };
    group.taskList.push(toPredecessor(row));
    groups.set(row.task.contractId, group);
  }
  return { list: [...groups.values()] };
}

/** Tasks the viewer may make a predecessor of `taskID` (the shared rule relateCandidates): earlier tasks of its contract, not related yet, closing no cycle. */
export async function canBeFront(db: ServerDb, viewer: Viewer, query: z.output<typeof canBeFrontQuerySchema>) {
  const { task } = await findTask(db, viewer, query.taskID);
  refuseQuickTask(task);
  if (query.contractID !== undefined && query.contractID !== task.contractId) return { list: [], count: 0 };
  const rows = await contractTaskRows(db, task.contractId!);
  const byId = new Map(rows.map((row) => [row.task.id, row]));
  const found = relateCandidates(task, rows.map((row) => row.task)).filter((candidate) => nameMatches(candidate.name, query.q));
  const page = found.slice((query.pageNum - 1) * query.pageSize, query.pageNum * query.pageSize);
  return { list: page.map((candidate) => toPredecessor(byId.get(candidate.id)!)), count: found.length };
}
