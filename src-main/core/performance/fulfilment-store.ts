import { and, asc, eq, inArray, like, sql } from 'drizzle-orm';
import type { SyncPlan, SyncTask } from '../../../src-shared/api/sync';
import { TaskState, type ContractStatus } from '../../../src-shared/domain/enums';
import { formFieldSchema, planRowSchema, sheetColumnSchema, taskTypeSchema, type FormField } from '../../../src-shared/domain/performance';
import { appErrorSchema, AppFailure, reason } from '../../../src-shared/errors';
import type { ContractPerformance, FinishForm, PlanSheet, RelateCandidates, SheetTask, TaskRefusal } from '../../../src-shared/ipc/fulfilment';
import { blockingPredecessors, contractInChange, hasRelateCandidate, planRows, relateCandidates, rowIndexAfter, sheetBefore } from '../../../src-shared/rules/fulfilment';
import { defaultPerformanceForm, effectiveState, finishAmountField, openStateFor, stateAfterEdit } from '../../../src-shared/rules/performance';
import { mutations, rowKey } from '../../../src-shared/sync/mutations';
import { z } from 'zod';
import type { OpenReplica } from '../data/replica';
import { preparedInsert, preparedUpsert } from '../data/prepared-upsert';
import { preparedPerDatabase, splitRowKey, type OverlayEntity, type PullWriter, type ReplicaTx } from '../data/replica-features';
import { valueFieldGroup } from '../../../src-shared/sync/field-versions';
import { outbox, outboxTouches, performancePlans, performancePlansLocal, performanceTasks, performanceTasksLocal } from '../data/schema';
import { alterationQueued, currentContract } from '../contracts/contract-store';
import { parseQueuedQuickTasks, queuedQuickTasksWhere } from './quick-tasks';

// Performance plans and tasks as the contract page's performance tab edits them: the base rows
// pulls write, the optimistic rows (`*_local`) the outbox rebuilds from them and the queued
// fulfilment mutations, and the reads of a contract's sheets and of a task's finish form.

/** A task as the replica holds it (the feed's row), with the mark of a queued delete. */
export type ReplicaTask = SyncTask & { deleted?: boolean };
/**
 * A plan as the replica holds it, with the sheet a queued save lists and the rows it removes
 * (null: a save that names none, queued by a version before saves named them: every unlisted
 * unfinished row goes).
 */
export type ReplicaPlan = SyncPlan & { pendingRows?: z.output<typeof planRowSchema>[] | null; pendingRemoves?: string[] | null };

const parseJson = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));
const recordSchema = z.record(z.string(), z.unknown());
const idsSchema = z.array(z.string()).nullable().catch(null);

type TaskRow = typeof performanceTasks.$inferSelect;
type PlanRow = typeof performancePlans.$inferSelect;

function toReplicaTask(row: TaskRow & { deleted?: boolean }): ReplicaTask {
  return {
    ...row,
    state: row.state as SyncTask['state'],
    values: recordSchema.catch({}).parse(parseJson(row.values)),
    completionValues: recordSchema.nullable().catch(null).parse(parseJson(row.completionValues)),
    frontTaskIds: idsSchema.parse(parseJson(row.frontTaskIds)),
  };
}

function taskRow(task: ReplicaTask): TaskRow & { deleted: boolean } {
  return {
    ...task,
    values: JSON.stringify(task.values),
    completionValues: task.completionValues === null ? null : JSON.stringify(task.completionValues),
    frontTaskIds: task.frontTaskIds === null ? null : JSON.stringify(task.frontTaskIds),
    deleted: task.deleted ?? false,
  };
}

function toReplicaPlan(row: PlanRow & { pendingRows?: string; pendingRemoves?: string | null }): ReplicaPlan {
  return {
    ...row,
    conditionType: row.conditionType as SyncPlan['conditionType'],
    columns: z.array(sheetColumnSchema).catch([]).parse(parseJson(row.columns)),
    fields: z.array(formFieldSchema).catch([]).parse(parseJson(row.fields)),
    schedule: parseJson(row.schedule),
    pendingRows: row.pendingRows === undefined ? null : z.array(planRowSchema).nullable().catch(null).parse(parseJson(row.pendingRows)),
    pendingRemoves: z.array(z.string()).nullable().catch(null).parse(parseJson(row.pendingRemoves ?? null)),
  };
}

/**
 * JSON text of a pulled performance's sheet columns or completion form, made once per object: a
 * pulled page hands the same one to every plan of the performance (the feed sends it once a page),
 * and nothing changes a pulled row's objects.
 */
const performanceJson = new WeakMap<object, string>();
function jsonOnce(value: object): string {
  let json = performanceJson.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    performanceJson.set(value, json);
  }
  return json;
}

function planRow(plan: SyncPlan, json: (value: object) => string = JSON.stringify): PlanRow {
  return { ...plan, columns: json(plan.columns), fields: json(plan.fields), schedule: plan.schedule === null ? null : JSON.stringify(plan.schedule) };
}

const fulfilmentQueries = preparedPerDatabase((db) => ({
  baseTask: db.select().from(performanceTasks).where(eq(performanceTasks.id, sql.placeholder('id'))).prepare(),
  localTask: db.select().from(performanceTasksLocal).where(eq(performanceTasksLocal.id, sql.placeholder('id'))).prepare(),
  basePlan: db.select().from(performancePlans).where(eq(performancePlans.id, sql.placeholder('id'))).prepare(),
  baseTaskVersion: db.select({ version: performanceTasks.version }).from(performanceTasks).where(eq(performanceTasks.id, sql.placeholder('id'))).prepare(),
  basePlanVersion: db.select({ version: performancePlans.version }).from(performancePlans).where(eq(performancePlans.id, sql.placeholder('id'))).prepare(),
  dropLocalTask: db.delete(performanceTasksLocal).where(eq(performanceTasksLocal.id, sql.placeholder('id'))).prepare(),
  insertLocalTask: preparedInsert(db, performanceTasksLocal),
  planRemovalQueued: db
    .select({ seq: outbox.seq })
    .from(outboxTouches)
    .innerJoin(outbox, eq(outbox.seq, outboxTouches.seq))
    // `+state`: the plan's key leads, not the walk of every queued edit the state index would start.
    .where(and(eq(outboxTouches.rowKey, sql.placeholder('key')), eq(outbox.name, 'performance.deletePlan'), sql`+${outbox.state} in ('pending', 'applied')`))
    .limit(1)
    .prepare(),
  dropLocalPlan: db.delete(performancePlansLocal).where(eq(performancePlansLocal.id, sql.placeholder('id'))).prepare(),
  localPlan: db.select().from(performancePlansLocal).where(eq(performancePlansLocal.id, sql.placeholder('id'))).prepare(),
  contractBaseTasks: db.select().from(performanceTasks).where(eq(performanceTasks.contractId, sql.placeholder('contractId'))).prepare(),
  contractLocalTasks: db.select().from(performanceTasksLocal).where(eq(performanceTasksLocal.contractId, sql.placeholder('contractId'))).prepare(),
  contractBasePlans: db.select().from(performancePlans).where(eq(performancePlans.contractId, sql.placeholder('contractId'))).prepare(),
  contractLocalPlans: db.select().from(performancePlansLocal).where(eq(performancePlansLocal.contractId, sql.placeholder('contractId'))).prepare(),
}));

export function baseTask(db: ReplicaTx, id: string): ReplicaTask | null {
  const row = fulfilmentQueries(db).baseTask.get({ id });
  return row ? toReplicaTask(row) : null;
}

/** The task as this device shows it: with the user's queued edits, else the synced one; null when deleted or absent. */
export function currentTask(db: ReplicaTx, id: string): ReplicaTask | null {
  const local = fulfilmentQueries(db).localTask.get({ id });
  if (local) return local.deleted ? null : toReplicaTask(local);
  return baseTask(db, id);
}

export function basePlan(db: ReplicaTx, id: string): ReplicaPlan | null {
  const row = fulfilmentQueries(db).basePlan.get({ id });
  return row ? toReplicaPlan(row) : null;
}

export function currentPlan(db: ReplicaTx, id: string): ReplicaPlan | null {
  const local = fulfilmentQueries(db).localPlan.get({ id });
  return local ? toReplicaPlan(local) : basePlan(db, id);
}

export const taskOverlay: OverlayEntity = {
  base: baseTask,
  baseVersion: (db, id) => fulfilmentQueries(db).baseTaskVersion.get({ id })?.version ?? null,
  setLocal(db, id, row) {
    const queries = fulfilmentQueries(db);
    queries.dropLocalTask.run({ id });
    if (row) queries.insertLocalTask(taskRow(row as ReplicaTask));
  },
  name: (db, id) => currentTask(db, id)?.name ?? null,
  fields: (row) => taskFieldGroups(row as SyncTask),
  fieldNames(db, id) {
    const planId = currentTask(db, id)?.planId;
    const plan = planId ? currentPlan(db, planId) : null;
    return Object.fromEntries((plan?.columns ?? []).map((column) => [valueFieldGroup(column.id), column.name]));
  },
};

/**
 * A task's fields by field group (src-shared/sync/field-versions.ts), as the conflict panel shows
 * them: amounts in hundredths, the finished amount as the completion, each cell under its column.
 */
export function taskFieldGroups(task: SyncTask): Record<string, unknown> {
  return {
    name: task.name,
    type: task.type,
    state: task.state,
    completion: task.finishedAmount,
    level: task.level,
    rowIndex: task.rowIndex,
    expirationTime: task.expirationTime,
    amount: task.receivableAmount ?? task.payableAmount,
    leader: task.leaderUserId,
    plan: task.planId,
    front: task.frontTaskIds?.length ?? null,
    ...Object.fromEntries(Object.entries(task.values).map(([column, value]) => [valueFieldGroup(column), value])),
  };
}

export const planOverlay: OverlayEntity = {
  base: basePlan,
  baseVersion: (db, id) => fulfilmentQueries(db).basePlanVersion.get({ id })?.version ?? null,
  setLocal(db, id, row) {
    fulfilmentQueries(db).dropLocalPlan.run({ id });
    if (!row) return;
    const plan = row as ReplicaPlan;
    db.insert(performancePlansLocal)
      .values({ ...planRow(plan), pendingRows: JSON.stringify(plan.pendingRows ?? null), pendingRemoves: plan.pendingRemoves ? JSON.stringify(plan.pendingRemoves) : null })
      .run();
  },
  name: (db, id) => currentPlan(db, id)?.performanceName ?? null,
  fields: (row) => {
    const plan = row as SyncPlan;
    return { schedule: plan.schedule, performance: plan.performanceName };
  },
};

/** Pulled plans; a contract that leaves the replica takes its plans along, and a resync brings every plan again. */
export function planPullWriter({ sqlite }: OpenReplica): PullWriter<'performancePlan'> {
  const upsert = preparedUpsert(sqlite, performancePlans);
  return {
    page: (db) => ({
      write(change) {
        if (change.op === 'upsert') upsert(planRow(change.row, jsonOnce));
        else {
          db.delete(performancePlans).where(eq(performancePlans.id, change.id)).run();
        }
        return ['performancePlan'];
      },
    }),
    startResync(db) {
      db.delete(performancePlans).run();
      return ['performancePlan'];
    },
    rowGone(db, key) {
      const { entity, id } = splitRowKey(key);
      if (entity !== 'contract') return [];
      const { changes } = db.delete(performancePlans).where(eq(performancePlans.contractId, id)).run();
      return changes > 0 ? ['performancePlan'] : [];
    },
  };
}

/** The contract's tasks as shown, in sheet order: live optimistic rows, and base rows without one. */
export function contractTasks(db: ReplicaTx, contractId: string): { task: ReplicaTask; pending: boolean }[] {
  const local = fulfilmentQueries(db).contractLocalTasks.all({ contractId });
  const moved = new Set(local.map((row) => row.id));
  const shown = [
    ...local.filter((row) => !row.deleted).map((row) => ({ task: toReplicaTask(row), pending: true })),
    ...fulfilmentQueries(db)
      .contractBaseTasks.all({ contractId })
      .filter((row) => !moved.has(row.id))
      .map((row) => ({ task: toReplicaTask(row), pending: false })),
  ];
  return shown.sort((a, b) => (sheetBefore(a.task, b.task) ? -1 : sheetBefore(b.task, a.task) ? 1 : 0));
}

/** The plans this device queued removals of (performance.deletePlan, sent or not), gone from its screens until the pull confirms it. */
/** Whether the plan's removal is queued (or applied and not pulled yet): looked up by the plan's row key, never by a walk of the queue. */
function removalQueued(db: ReplicaTx, planId: string): boolean {
  return fulfilmentQueries(db).planRemovalQueued.get({ key: rowKey('performancePlan', planId) }) !== undefined;
}

/** The contract's plans as shown, by performance name: optimistic rows, and base rows without one; none whose removal is queued. */
export function contractPlans(db: ReplicaTx, contractId: string): ReplicaPlan[] {
  const local = fulfilmentQueries(db).contractLocalPlans.all({ contractId });
  const edited = new Set(local.map((row) => row.id));
  const base = fulfilmentQueries(db).contractBasePlans.all({ contractId }).filter((row) => !edited.has(row.id));
  return [...local, ...base].filter((row) => !removalQueued(db, row.id)).map(toReplicaPlan).sort((a, b) => a.performanceName.localeCompare(b.performanceName) || a.id.localeCompare(b.id));
}

const money = (amount: number | null, unit: string | null) => (amount !== null && unit !== null ? { amount, unit } : null);

/** An outbox row of a refused edit and a task row it names ("performanceTask:<id>"), as the stores read them. */
export interface RefusedEditRow {
  mutationId: string;
  name: string;
  state: string;
  error: string | null;
  key: string;
}

/** The refused edits by task, the latest one of each (the rows read in outbox order). */
export function refusalsByTask(rows: readonly RefusedEditRow[]): Map<string, TaskRefusal> {
  const refusals = new Map<string, TaskRefusal>();
  for (const { key, state, error, ...edit } of rows) {
    const parsed = error === null ? null : appErrorSchema.safeParse(parseJson(error));
    refusals.set(splitRowKey(key).id, { ...edit, state: state === 'conflict' ? 'conflict' : 'rejected', error: parsed?.success ? parsed.data : null });
  }
  return refusals;
}

/**
 * This device's edits of tasks the server refused (or found changed meanwhile), by task, the
 * latest one of each: kept in the outbox until the user dismisses them (src-main/core/sync).
 */
function refusedEdits(db: ReplicaTx): Map<string, TaskRefusal> {
  return refusalsByTask(
    db
      .select({ mutationId: outbox.id, name: outbox.name, state: outbox.state, error: outbox.error, key: outboxTouches.rowKey })
      .from(outboxTouches)
      .innerJoin(outbox, eq(outbox.seq, outboxTouches.seq))
      .where(and(inArray(outbox.state, ['rejected', 'conflict']), like(outboxTouches.rowKey, 'performanceTask:%')))
      .orderBy(asc(outbox.seq))
      .all(),
  );
}

/** A task's predecessors as its contract's sheet shows them, in sheet order (a relation to a task outside the contract holds nothing, as on the server). */
function predecessorsOf(task: ReplicaTask, byId: ReadonlyMap<string, ReplicaTask>): SheetTask['predecessors'] {
  return (task.frontTaskIds ?? [])
    .flatMap((id) => {
      const front = byId.get(id);
      return front ? [front] : [];
    })
    .sort((a, b) => (sheetBefore(a, b) ? -1 : 1))
    .map((front) => ({ id: front.id, name: front.name, finished: front.state === TaskState.Success }));
}

function toSheetTask({ task, pending }: { task: ReplicaTask; pending: boolean }, today: string, byId: ReadonlyMap<string, ReplicaTask>, refusals: ReadonlyMap<string, TaskRefusal>): SheetTask {
  return {
    id: task.id,
    planId: task.planId,
    performanceId: task.performanceId,
    name: task.name,
    type: task.type,
    state: effectiveState(task.state, task.expirationTime, today),
    dueDate: task.expirationTime,
    rowIndex: task.rowIndex,
    level: task.level,
    leaderUserId: task.leaderUserId,
    values: task.values,
    receivableAmount: money(task.receivableAmount, task.amountUnit),
    payableAmount: money(task.payableAmount, task.amountUnit),
    finishedAmount: money(task.finishedAmount, task.amountUnit),
    completionValues: task.completionValues,
    predecessors: predecessorsOf(task, byId),
    relatable: hasRelateCandidate(task, byId),
    pending,
    queuedNew: false,
    refusal: refusals.get(task.id) ?? null,
  };
}

/** The row numbers the server will give what this device queued for a contract's sheet. */
interface QueuedRowNumbers {
  /** Per plan, the new rows of its last queued save, in order. */
  plans: Map<string, number[]>;
  quickTasks: Map<string, number>;
}

/**
 * Numbers the queued new rows of a contract's sheet as the server will: it applies the queued
 * edits in order (outbox seq), and each new row, of any plan or a quick task, takes the contract's
 * next number then (rowIndexAfter, the server's rule); a save drops its plan's unfinished rows it
 * does not list only after numbering its own. So two plans' new rows never share a number. Starts
 * from the rows as shown (queued deletes and finishes already applied).
 */
function queuedRowNumbers(db: ReplicaTx, contractId: string, shown: readonly SheetTask[]): QueuedRowNumbers {
  const held = new Map(shown.map((task) => [task.id, { planId: task.planId, finished: task.state === TaskState.Success, rowIndex: task.rowIndex }]));
  const numbers: QueuedRowNumbers = { plans: new Map(), quickTasks: new Map() };
  const next = () => rowIndexAfter(Math.max(0, ...[...held.values()].map((row) => row.rowIndex)));
  const edits = db
    .select({ seq: outbox.seq, name: outbox.name, args: outbox.args })
    .from(outbox)
    .where(
      sql`(${outbox.name} = 'performance.savePlan' and ${outbox.state} in ('pending', 'applied') and json_extract(${outbox.args}, '$.plan.contractID') = ${contractId})
        or (${sql.raw(queuedQuickTasksWhere)} and json_extract(${outbox.args}, '$.payload.relatedID') = ${contractId})`,
    )
    .orderBy(outbox.seq)
    .all();
  for (const edit of edits) {
    if (edit.name === 'performance.quickTask') {
      for (const { id } of parseQueuedQuickTasks([edit])) {
        const rowIndex = next();
        numbers.quickTasks.set(id, rowIndex);
        held.set(id, { planId: null, finished: false, rowIndex });
      }
      continue;
    }
    const save = mutations['performance.savePlan'].args.safeParse(JSON.parse(edit.args));
    if (!save.success) continue;
    const { planId, plan } = save.data;
    const rows = planRows(plan);
    const added: number[] = [];
    const listed = new Set(rows.flatMap((row) => (row.id === undefined ? [] : [row.id])));
    for (const row of rows) {
      if (row.id !== undefined) continue;
      const key = `queued:${edit.seq}:${added.length}`;
      const rowIndex = next();
      added.push(rowIndex);
      held.set(key, { planId, finished: false, rowIndex });
      listed.add(key);
    }
    // Rows this save's user saw and left out go: those it names as removed, and earlier queued
    // saves' new rows (it lists them again as new ones); a save naming none drops every unlisted one.
    const { removes } = save.data;
    const seen = (id: string) => !removes || removes.includes(id) || id.startsWith('queued:');
    for (const [id, row] of held) if (row.planId === planId && !row.finished && !listed.has(id) && seen(id)) held.delete(id);
    numbers.plans.set(planId, added);
  }
  return numbers;
}

/**
 * The plan's rows as its queued sheet save lists them, as the server will store them: listed
 * tasks with their changes, new rows with the numbers the server will give them, unlisted
 * unfinished tasks the save removes gone, finished ones kept (the server never drops those).
 */
function sheetAsSaved(plan: ReplicaPlan, tasks: SheetTask[], newRowNumbers: readonly number[], today: string): SheetTask[] {
  const rows = plan.pendingRows;
  if (!rows) return tasks;
  const byId = new Map(tasks.map((task) => [task.id, task]));
  let added = 0;
  const listed = rows.flatMap((row, i): SheetTask[] => {
    const task = row.id === undefined ? undefined : byId.get(row.id);
    if (row.id !== undefined && !task) return [];
    const dueDate = row.expirationTime === undefined ? (task?.dueDate ?? null) : row.expirationTime;
    const cells = {
      name: row.name ?? task?.name ?? '',
      dueDate,
      level: row.level === undefined ? (task?.level ?? null) : row.level,
      leaderUserId: row.leaderUserID === undefined ? (task?.leaderUserId ?? null) : row.leaderUserID,
      values: { ...task?.values, ...row.values },
      receivableAmount: row.receivableAmount === undefined ? (task?.receivableAmount ?? null) : row.receivableAmount,
      payableAmount: row.payableAmount === undefined ? (task?.payableAmount ?? null) : row.payableAmount,
      pending: true,
    };
    // As the server's save: a row listed by its id alone stays as it is, and a changed row's state moves only with its due date.
    if (task) return [Object.keys(row).length === 1 ? task : { ...task, ...cells, type: row.type ?? task.type, state: stateAfterEdit(task.state, task.dueDate, dueDate, today) }];
    return [
      {
        ...cells,
        id: `${plan.id}:row:${i}`,
        planId: plan.id,
        performanceId: plan.performanceId,
        type: row.type ?? plan.performanceType,
        state: openStateFor(dueDate, today),
        rowIndex: newRowNumbers[added++] ?? 0,
        finishedAmount: null,
        completionValues: null,
        predecessors: [],
        relatable: false,
        queuedNew: true,
        refusal: null,
      },
    ];
  });
  const ids = new Set(rows.map((row) => row.id));
  // Unlisted rows stay when finished (the server never drops those) or, for a save that names the
  // rows its user removed, when not among them: added elsewhere after the save's base.
  const removed = plan.pendingRemoves ? new Set(plan.pendingRemoves) : null;
  const kept = (task: SheetTask) => task.state === TaskState.Success || (removed !== null && !removed.has(task.id));
  return [...listed, ...tasks.filter((task) => !ids.has(task.id) && kept(task))].sort((a, b) => a.rowIndex - b.rowIndex);
}

/** The quick tasks queued here for the contract, as the server will make them, with the row numbers it will give them. */
function queuedQuickTasks(db: ReplicaTx, contractId: string, numbers: ReadonlyMap<string, number>, today: string): SheetTask[] {
  const rows = db
    .select({ args: outbox.args })
    .from(outbox)
    .where(sql`${sql.raw(queuedQuickTasksWhere)} and json_extract(${outbox.args}, '$.payload.relatedID') = ${contractId}`)
    .orderBy(outbox.seq)
    .all();
  return parseQueuedQuickTasks(rows).map(({ id, payload, dueDate }) => ({
    id,
    planId: null,
    performanceId: null,
    name: payload.name,
    type: payload.type,
    state: openStateFor(dueDate, today),
    dueDate,
    rowIndex: numbers.get(id) ?? 0,
    level: payload.level ?? null,
    leaderUserId: payload.leaderUserID ?? null,
    values: Object.fromEntries(payload.fieldList.map((field) => [field.id, field.value ?? null])),
    receivableAmount: null,
    payableAmount: null,
    finishedAmount: null,
    completionValues: null,
    predecessors: [],
    relatable: false,
    pending: true,
    queuedNew: true,
    refusal: null,
  }));
}

export interface FulfilmentReader {
  contract(contractId: string, today: string): ContractPerformance;
  /** The tasks `taskId` may be related to (src-shared/rules/fulfilment relateCandidates), as this device shows them, with their states on `today`. */
  relateCandidates(taskId: string, today: string): RelateCandidates;
  /** With `batch`, the other tasks finished with it (a batch finish). */
  finishForm(taskId: string, batch?: readonly string[]): FinishForm;
}

/** The tasks of the task's contract as this device shows them (none for a quick task without one). */
export function contractTasksOf(db: ReplicaTx, task: ReplicaTask): ReplicaTask[] {
  return task.contractId === null ? [] : contractTasks(db, task.contractId).map((shown) => shown.task);
}

/**
 * The unfinished tasks that keep the named tasks from being finished together, by the server's
 * rule (src-shared/rules/fulfilment blockingPredecessors): each in sheet order, those finished
 * before it in the same batch no longer holding it back. One task: its own. In sheet order, each once.
 */
export function blockingOf(db: ReplicaTx, tasks: readonly ReplicaTask[]): ReplicaTask[] {
  const ordered = [...tasks].sort((a, b) => (sheetBefore(a, b) ? -1 : 1));
  const finishing = new Set<string>();
  const blocking = new Map<string, ReplicaTask>();
  for (const task of ordered) {
    for (const front of blockingPredecessors(task, contractTasksOf(db, task), finishing)) blocking.set(front.id, front);
    finishing.add(task.id);
  }
  return [...blocking.values()].filter((front) => !finishing.has(front.id)).sort((a, b) => (sheetBefore(a, b) ? -1 : 1));
}

/** The completion form of a task: its plan's performance's (kept with the plan), else the default of its type, as complete_form answers. */
export function completionFields(db: ReplicaTx, task: ReplicaTask): FormField[] {
  const plan = task.planId === null ? null : currentPlan(db, task.planId);
  if (plan && plan.performanceId === task.performanceId) return plan.fields;
  return defaultPerformanceForm(taskTypeSchema.catch('custom').parse(task.type)).fields;
}

export function createFulfilmentReader(db: ReplicaTx): FulfilmentReader {
  return {
    contract(contractId, today) {
      const contract = currentContract(db, contractId);
      if (!contract) throw new AppFailure('not_found', `contract ${contractId} is not in this device's data: it is not synced yet, or not yours to see`);
      const refusals = refusedEdits(db);
      const shown = contractTasks(db, contractId);
      const byId = new Map(shown.map(({ task }) => [task.id, task]));
      const tasks = shown.map((row) => toSheetTask(row, today, byId, refusals));
      const numbers = queuedRowNumbers(db, contractId, tasks);
      const plans: PlanSheet[] = contractPlans(db, contractId).map((plan) => {
        return {
          id: plan.id,
          performanceId: plan.performanceId,
          performanceName: plan.performanceName,
          performanceType: plan.performanceType,
          columns: plan.columns,
          conditionType: plan.conditionType,
          schedule: plan.schedule,
          version: plan.version,
          tasks: sheetAsSaved(
            plan,
            tasks.filter((task) => task.planId === plan.id),
            numbers.plans.get(plan.id) ?? [],
            today,
          ),
          pendingRows: plan.pendingRows ?? null,
        };
      });
      const planIds = new Set(plans.map((plan) => plan.id));
      const status = contract.status as ContractStatus | null;
      const looseTasks = tasks.filter((task) => task.planId === null || !planIds.has(task.planId));
      return { contractStatus: status, inChange: contractInChange(status), alterationQueued: alterationQueued(db, contractId), plans, looseTasks: [...looseTasks, ...queuedQuickTasks(db, contractId, numbers.quickTasks, today)] };
    },
    relateCandidates(taskId, today) {
      const task = currentTask(db, taskId);
      if (!task) throw new AppFailure('not_found', 'performance task not found', undefined, reason('taskMissing'));
      return relateCandidates(task, contractTasksOf(db, task)).map((other) => ({ id: other.id, name: other.name, dueDate: other.expirationTime, rowIndex: other.rowIndex, state: effectiveState(other.state, other.expirationTime, today) }));
    },
    finishForm(taskId, batch = []) {
      const task = currentTask(db, taskId);
      if (!task) throw new AppFailure('not_found', 'performance task not found');
      const finishing = [task, ...batch.flatMap((id) => currentTask(db, id) ?? [])];
      const fields = completionFields(db, task);
      // A finished task shows the amount recorded, in the task's currency (the form's value may hold none).
      const recorded = money(task.finishedAmount, task.amountUnit);
      const asked = recorded !== null && fields.some((field) => field.id === finishAmountField);
      return {
        taskId: task.id,
        taskName: task.name,
        fields,
        values: task.state === TaskState.Success ? { ...task.completionValues, ...(asked && { [finishAmountField]: recorded }) } : null,
        amount: money(task.receivableAmount ?? task.payableAmount, task.amountUnit),
        blockingPredecessors: blockingOf(db, finishing).map((other) => ({ id: other.id, name: other.name, dueDate: other.expirationTime })),
      };
    },
  };
}
