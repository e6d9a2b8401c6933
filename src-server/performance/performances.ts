import { and, asc, count, eq, gte, ilike, inArray, lte, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import { TaskState } from '../../src-shared/domain/enums';
import {
  type performanceCreateSchema,
  type performanceUpdateSchema,
  periodicScheduleSchema,
  type PerformanceTaskType,
  type Plan,
  type PlanCreate,
  type PlanSave,
  type ScheduleDay,
  type TaskUpdate,
  type TaskStatistics,
  taskTypeSchema,
} from '../../src-shared/domain/performance';
import type { ReminderSettings } from '../../src-shared/domain/reminders';
import { defaultReminderSettings, reminderSettingsSchema } from '../../src-shared/domain/reminders';
import { AppFailure, invalidFields, reason } from '../../src-shared/errors';
import { defaultPerformanceForm, openStateFor, stateAfterEdit } from '../../src-shared/rules/performance';
import { planCreateRows, planExistsRefusal, planRemovalRefusal, planRows, planStatusRefusal } from '../../src-shared/rules/fulfilment';
import { relatedCells, sheetCellRefusal } from '../../src-shared/rules/sheet-cells';
import { contractValues, hasRelatedColumns } from './related-cells';
import { toPerformance } from './definition';
import { insertNewRows } from '../db/json-rows';
import type { OrgViewer } from '../http/feature-helpers';
import { basedOnVersion, checkIfMatch, ifMatchVersion } from '../http/write-safety';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import { contracts, users } from '../db/schema';
import { visibleTo } from '../contracts/repository';
import { checkLeader, contractNotFound, findVisibleContract, nextRowIndex, nextRowIndexes, taskChanges } from './repository';
import { performancePlans, performances, performanceTasks, reminderSettings } from './schema';
import { effectiveStateSql, selectTasks, sheetOrder, taskVisibleTo, toTaskCard, type Executor } from './tasks';

// Performances (the configured kinds of fulfilment record with their sheet and completion form),
// contracts' plans under them, the dashboard figures and the reminder settings.

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const performanceNotFound = () => new AppFailure('not_found', 'performance not found', undefined, reason('performanceMissing'));

/** Performances are organisation configuration: everyone reads them, admins change them. */
function requireAdmin(viewer: OrgViewer): void {
  if (viewer.role !== 'admin') throw new AppFailure('forbidden', 'only administrators may change performances', undefined, reason('adminsOnlyPerformances'));
}

async function findPerformance(db: Executor, viewer: OrgViewer, id: string, lock = false) {
  const query = db.select().from(performances).where(and(eq(performances.id, id), eq(performances.organisationId, viewer.organisationId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw performanceNotFound();
  return row;
}

export async function listPerformances(db: ServerDb, viewer: OrgViewer, query: { type?: PerformanceTaskType; q?: string }) {
  const rows = await db
    .select()
    .from(performances)
    .where(
      and(
        eq(performances.organisationId, viewer.organisationId),
        query.type ? eq(performances.type, query.type) : undefined,
        query.q ? ilike(performances.name, containsPattern(query.q)) : undefined,
      ),
    )
    .orderBy(asc(performances.sortOrder), asc(performances.name));
  return { performanceList: rows.map(toPerformance) };
}

export async function createPerformance(db: ServerDb, viewer: OrgViewer, body: z.output<typeof performanceCreateSchema>) {
  requireAdmin(viewer);
  const [row] = await db.insert(performances).values({ id: uuidv7(), organisationId: viewer.organisationId, ...body }).returning();
  return toPerformance(row!);
}

export async function updatePerformance(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof performanceUpdateSchema>, headers: Headers) {
  requireAdmin(viewer);
  return db.transaction(async (tx) => {
    const current = await findPerformance(tx, viewer, id, true);
    const { version, ...changes } = body;
    await checkIfMatch('the performance', current.version, basedOnVersion(version, headers), () => toPerformance(current), reason('performanceChanged'));
    const [row] = await tx
      .update(performances)
      .set({ ...changes, version: sql`${performances.version} + 1`, updateTime: sql`now()` })
      .where(eq(performances.id, id))
      .returning();
    return toPerformance(row!);
  });
}

export async function deletePerformance(db: ServerDb, viewer: OrgViewer, id: string, version: number | undefined) {
  requireAdmin(viewer);
  return db.transaction(async (tx) => {
    const current = await findPerformance(tx, viewer, id, true);
    await checkIfMatch('the performance', current.version, version, () => toPerformance(current), reason('performanceChanged'));
    const [plans] = await tx.select({ count: count() }).from(performancePlans).where(eq(performancePlans.performanceId, id));
    const [tasks] = await tx.select({ count: count() }).from(performanceTasks).where(eq(performanceTasks.performanceId, id));
    if ((plans?.count ?? 0) + (tasks?.count ?? 0) > 0) throw new AppFailure('conflict', 'the performance is in use by plans or tasks and cannot be deleted', undefined, reason('performanceInUse'));
    await tx.delete(performances).where(eq(performances.id, id));
    return { id };
  });
}

async function planOf(db: Executor, viewer: OrgViewer, plan: typeof performancePlans.$inferSelect, today: string): Promise<Plan> {
  const rows = await selectTasks(db).where(and(eq(performanceTasks.planId, plan.id), taskVisibleTo(viewer))).orderBy(...sheetOrder);
  const schedule = periodicScheduleSchema.safeParse(plan.schedule);
  return {
    id: plan.id,
    contractID: plan.contractId,
    performanceID: plan.performanceId,
    conditionType: plan.conditionType,
    schedule: schedule.success ? schedule.data : null,
    version: plan.version,
    taskList: rows.map((row) => toTaskCard(row, today)),
  };
}

export async function performanceForm(db: ServerDb, viewer: OrgViewer, id: string, contractId: string | undefined, today: string) {
  const row = await findPerformance(db, viewer, id);
  let plan: Plan | null = null;
  if (contractId) {
    await findVisibleContract(db, viewer, contractId);
    const [stored] = await db
      .select()
      .from(performancePlans)
      .where(and(eq(performancePlans.performanceId, id), eq(performancePlans.contractId, contractId)));
    plan = stored ? await planOf(db, viewer, stored, today) : null;
  }
  return { performance: toPerformance(row), plan };
}

/** The completion form of a task: its performance's fields, or the default of its type. */
export async function completeForm(db: Executor, task: { performanceId: string | null; type: string; completionValues: Record<string, unknown> | null }) {
  const [row] = task.performanceId ? await db.select().from(performances).where(eq(performances.id, task.performanceId)) : [];
  const type = taskTypeSchema.catch('custom').parse(task.type);
  return { configFields: row ? toPerformance(row).fields : defaultPerformanceForm(type).fields, values: task.completionValues };
}

/**
 * How a save made offline (the sync mutation) was based: the plan version the device had read,
 * whether it leaves the plan's condition type and schedule as they were then, and the rows its
 * user removed (shown, so removed even if the plan version they came with was not pulled yet).
 */
export interface OfflinePlanSave {
  basePlanVersion: number;
  keepsCondition: boolean;
  removes: ReadonlySet<string>;
}

/** Where a new row of a plan goes: its task id, its plan and the row number the server gives it. */
interface NewPlanTask {
  id: string;
  planId: string;
  contractId: string;
  performance: typeof performances.$inferSelect;
  planVersion: number;
  rowIndex: number;
}

/** A new row of a plan: the performance's task type until an amount decides it, open as of `today`, led by its creator unless it names a leader. */
function planTaskRow(viewer: OrgViewer, task: NewPlanTask, update: TaskUpdate, today: string): typeof performanceTasks.$inferInsert {
  const changes = taskChanges({ type: task.performance.type, payableAmount: null, receivableAmount: null, amountUnit: null }, update);
  return {
    id: task.id,
    organisationId: task.performance.organisationId,
    planId: task.planId,
    contractId: task.contractId,
    performanceId: task.performance.id,
    name: changes.name ?? '',
    ...changes,
    state: openStateFor(changes.expirationTime ?? null, today),
    rowIndex: task.rowIndex,
    addedAtPlanVersion: task.planVersion,
    leaderUserId: changes.leaderUserId ?? viewer.id,
    createdBy: viewer.id,
  };
}

/** A plan creation as the sync mutation performance.createPlan makes it: the ids are the client's. */
export interface PlanCreation {
  planId: string;
  performanceId: string;
  plan: PlanCreate;
}

/** Ids per read of a creation run's users: well under PostgreSQL's bound-parameter limit. */
const idChunk = 1000;

/**
 * Adds contracts' plans under performances with the ids the client made (the sync mutation
 * performance.createPlan): the schedule's rows, then the rows typed by hand, numbered on from the
 * contract's last row. A contract that has a plan under the performance already is refused
 * (planExists), as is an id taken already: never two plans, nor rows merged in unseen.
 * Several creations (a drain of plans made offline) are written together, a statement per step
 * rather than per plan: any refusal refuses them all, and the caller's savepoint takes them back
 * (a push then applies them one by one, so that each refusal is its own plan's).
 */
export async function createPlans(tx: ServerDb, viewer: OrgViewer, creations: readonly PlanCreation[], today: string): Promise<void> {
  const performanceIds = [...new Set(creations.map((c) => c.performanceId))];
  const definitions = new Map(
    (await tx.select().from(performances).where(and(inArray(performances.id, performanceIds), eq(performances.organisationId, viewer.organisationId)))).map((row) => [row.id, row]),
  );
  const contractIds = [...new Set(creations.map((c) => c.plan.contractID))];
  const visible = new Map((await tx.select({ id: contracts.id, status: contracts.status }).from(contracts).where(and(inArray(contracts.id, contractIds), visibleTo(viewer)))).map((row) => [row.id, row]));
  const planned = [];
  for (const { planId, performanceId, plan } of creations) {
    const performance = definitions.get(performanceId);
    if (!performance) throw performanceNotFound();
    const contract = visible.get(plan.contractID);
    if (!contract) throw contractNotFound();
    const refusal = planStatusRefusal(contract.status);
    if (refusal) throw refusal;
    const rows = planCreateRows(plan);
    const columns = toPerformance(performance).columns;
    const cellRefusal = sheetCellRefusal(columns, rows, true);
    if (cellRefusal) throw cellRefusal;
    // Cells of columns that follow a contract field are the contract's, as in a sheet save.
    const related = hasRelatedColumns(columns) ? relatedCells(columns, await contractValues(tx, contract.id)) : {};
    planned.push({ planId, performance, contractId: contract.id, plan, rows, related });
  }
  // The one plan per contract and performance (a unique index) decides between two creations at once.
  const written = new Map(
    (
      await tx
        .insert(performancePlans)
        .values(planned.map(({ planId, performance, contractId, plan }) => ({ id: planId, contractId, performanceId: performance.id, createdBy: viewer.id, conditionType: plan.conditionType, schedule: plan.schedule ?? null })))
        .onConflictDoNothing()
        .returning({ id: performancePlans.id, version: performancePlans.version })
    ).map((row) => [row.id, row.version]),
  );
  const refused = planned.find(({ planId }) => !written.has(planId));
  if (refused) {
    const [existing] = await tx
      .select({ id: performancePlans.id })
      .from(performancePlans)
      .where(and(eq(performancePlans.performanceId, refused.performance.id), eq(performancePlans.contractId, refused.contractId)));
    throw existing ? planExistsRefusal(refused.performance.name) : new AppFailure('conflict', `the plan id ${refused.planId} is taken already`);
  }
  const nextIndex = await nextRowIndexes(tx, contractIds);
  await checkLeaders(tx, viewer.organisationId, planned);
  // One statement for all the plans' rows: a drain of many plans made offline is bounded by statements.
  // A task id taken already inserts nothing and refuses the plans (the caller's savepoint takes them back).
  const newRows = planned.flatMap(({ planId, performance, contractId, rows, related }) =>
    rows.map(({ id, ...update }) => {
      const following = Object.keys(related).length === 0 ? update : { ...update, values: { ...update.values, ...related } };
      // Plans of one contract number their rows on, one after the other, as if made one by one.
      const rowIndex = nextIndex.get(contractId)!;
      nextIndex.set(contractId, rowIndex + 1);
      return planTaskRow(viewer, { id, planId, contractId, performance, planVersion: written.get(planId)!, rowIndex }, following, today);
    }),
  );
  if (newRows.length === 0) return;
  const inserted = await insertNewRows(tx, performanceTasks, newRows);
  const taken = newRows.find((row) => !inserted.has(row.id));
  if (taken) throw new AppFailure('conflict', `the task id ${taken.id} is taken already`);
}

/** Each row's leader, when it names one, is a user of the organisation; the first that is not is refused by its row. */
async function checkLeaders(tx: ServerDb, organisationId: string, planned: readonly { rows: readonly { leaderUserID?: string | null }[] }[]): Promise<void> {
  const named = [...new Set(planned.flatMap(({ rows }) => rows.flatMap(({ leaderUserID }) => (leaderUserID ? [leaderUserID] : []))))];
  const known = new Set<string>();
  for (let at = 0; at < named.length; at += idChunk) {
    for (const { id } of await tx.select({ id: users.id }).from(users).where(and(inArray(users.id, named.slice(at, at + idChunk)), eq(users.organisationId, organisationId)))) known.add(id);
  }
  for (const { rows } of planned) {
    for (const [i, { leaderUserID }] of rows.entries()) if (leaderUserID && !known.has(leaderUserID)) throw invalidFields([{ path: `rows.${i}.leaderUserID`, message: 'unknown user' }]);
  }
}

/**
 * Creates or replaces a contract's plan under a performance. Listed rows are updated or added (new
 * rows get the next row number); unfinished rows left out are removed; finished rows are kept and
 * cannot be changed. A periodic plan's unfinished rows are generated from its schedule. A save
 * made offline removes only the rows left out that its base plan version held (rows saved since
 * elsewhere were not shown to its user), and one that keeps the condition writes none (so a
 * schedule changed elsewhere stays) and lists its rows rather than generating them.
 */
export async function savePlan(db: ServerDb, viewer: OrgViewer, performanceId: string, body: PlanSave, today: string, headers: Headers, offline?: OfflinePlanSave) {
  return db.transaction(async (tx) => {
    const performance = await findPerformance(tx, viewer, performanceId);
    const columns = toPerformance(performance).columns;
    const cellRefusal = sheetCellRefusal(columns, body.rows);
    if (cellRefusal) throw cellRefusal;
    const contract = await findVisibleContract(tx, viewer, body.contractID);
    const [existing] = await tx
      .select()
      .from(performancePlans)
      .where(and(eq(performancePlans.performanceId, performanceId), eq(performancePlans.contractId, contract.id)))
      .for('update');
    if (existing) await checkIfMatch('the plan', existing.version, ifMatchVersion(headers), () => planOf(tx, viewer, existing, today));
    else {
      const refusal = planStatusRefusal(contract.status);
      if (refusal) throw refusal;
    }
    const planId = existing?.id ?? uuidv7();
    const keepsCondition = existing !== undefined && offline?.keepsCondition === true;
    const condition = { conditionType: body.conditionType, schedule: body.schedule ?? null };
    const [written] = existing
      ? await tx
          .update(performancePlans)
          .set({ ...(!keepsCondition && condition), version: sql`${performancePlans.version} + 1`, updateTime: sql`now()` })
          .where(eq(performancePlans.id, planId))
          .returning({ version: performancePlans.version })
      : await tx.insert(performancePlans).values({ id: planId, contractId: contract.id, performanceId, createdBy: viewer.id, ...condition }).returning({ version: performancePlans.version });
    const planVersion = written!.version;
    // The rows the save's user saw: all of them, unless it was made offline from an older version.
    const knownUpTo = offline?.basePlanVersion ?? planVersion;

    // Cells of columns that follow a contract field are the contract's, whatever the save sent.
    const related = hasRelatedColumns(columns) ? relatedCells(columns, await contractValues(tx, contract.id)) : {};
    const following = (update: PlanSave['rows'][number]) => (Object.keys(related).length === 0 ? update : { ...update, values: { ...update.values, ...related } });

    const stored = await tx.select().from(performanceTasks).where(eq(performanceTasks.planId, planId)).for('update');
    const byId = new Map(stored.map((task) => [task.id, task]));
    const rows = keepsCondition ? body.rows : planRows(body);
    // Rows generated from the schedule hold what it knows; a required column it cannot fill refuses the save.
    const generatedRefusal = rows === body.rows ? null : sheetCellRefusal(columns, rows);
    if (generatedRefusal) throw generatedRefusal;
    const organisationId = performance.organisationId;
    const kept = new Set<string>();
    let rowIndex = await nextRowIndex(tx, contract.id);
    for (const [i, { id, ...sent }] of rows.entries()) {
      // A row listed unchanged stays as it is; one written takes the contract's related cells.
      const update = id !== undefined && Object.keys(sent).length === 0 ? sent : following(sent);
      const leader = update.leaderUserID;
      if (leader) await checkLeader(tx, organisationId, leader, `rows.${i}.leaderUserID`);
      if (id) {
        const task = byId.get(id);
        if (!task) throw new AppFailure('not_found', `rows.${i}.id: performance task not found in this plan`, undefined, reason('sheetRowMissing', { row: i + 1 }));
        kept.add(id);
        const edited = Object.keys(update).length > 0;
        if (task.state === TaskState.Success && edited) throw new AppFailure('conflict', `rows.${i}: a finished task is read-only and cannot be edited`, undefined, reason('sheetRowFinished', { row: i + 1 }));
        // A row listed by its id alone is kept as it is: saving a sheet changes only what its user changed.
        if (!edited) continue;
        // A row's values name only the columns it changes (as a sheet edit made offline sends
        // them): the others stay as they are, so edits of other cells of the row merge.
        const changes = taskChanges(task, update.values ? { ...update, values: { ...task.values, ...update.values } } : update);
        const due = changes.expirationTime === undefined ? task.expirationTime : changes.expirationTime;
        await tx
          .update(performanceTasks)
          .set({ ...changes, state: stateAfterEdit(task.state, task.expirationTime, due, today), version: sql`${performanceTasks.version} + 1`, updateTime: sql`now()` })
          .where(eq(performanceTasks.id, id));
      } else {
        await tx.insert(performanceTasks).values(planTaskRow(viewer, { id: uuidv7(), planId, contractId: contract.id, performance, planVersion, rowIndex: rowIndex++ }, update, today));
      }
    }
    const known = (task: (typeof stored)[number]) => task.addedAtPlanVersion <= knownUpTo || offline?.removes.has(task.id) === true;
    const dropped = stored.filter((task) => !kept.has(task.id) && task.state !== TaskState.Success && known(task)).map((task) => task.id);
    if (dropped.length > 0) await tx.delete(performanceTasks).where(inArray(performanceTasks.id, dropped));

    const [plan] = await tx.select().from(performancePlans).where(eq(performancePlans.id, planId));
    return planOf(tx, viewer, plan!, today);
  });
}

/**
 * Removes a plan (locked by the caller's transaction) with its rows, unless a row is finished
 * (planRemovalRefusal). `shown`: the rows the remover saw (a removal made offline); a row added
 * since, which they did not see, refuses it rather than going with the plan unseen.
 */
async function removePlan(tx: Executor, plan: typeof performancePlans.$inferSelect, shown?: ReadonlySet<string>) {
  const rows = await tx.select({ id: performanceTasks.id, name: performanceTasks.name, state: performanceTasks.state }).from(performanceTasks).where(eq(performanceTasks.planId, plan.id)).for('update');
  const refusal = planRemovalRefusal(rows);
  if (refusal) throw refusal;
  const unseen = shown ? rows.filter((row) => !shown.has(row.id)) : [];
  if (unseen.length > 0) throw new AppFailure('conflict', `rows were added to the plan meanwhile: ${unseen.map((row) => `"${row.name}"`).join(', ')}`, undefined, reason('editConflict'));
  await tx.delete(performanceTasks).where(eq(performanceTasks.planId, plan.id));
  await tx.delete(performancePlans).where(eq(performancePlans.id, plan.id));
  return { id: plan.id };
}

/** DELETE performances/{id}/plan: the contract's plan under the performance, with If-Match its version. */
export async function deletePlan(db: ServerDb, viewer: OrgViewer, performanceId: string, contractId: string, version: number | undefined, today: string) {
  return db.transaction(async (tx) => {
    await findPerformance(tx, viewer, performanceId);
    await findVisibleContract(tx, viewer, contractId);
    const [plan] = await tx.select().from(performancePlans).where(and(eq(performancePlans.performanceId, performanceId), eq(performancePlans.contractId, contractId))).for('update');
    if (!plan) throw new AppFailure('not_found', 'the contract has no plan under this performance', undefined, reason('rowMissing', { entity: 'performancePlan' }));
    await checkIfMatch('the plan', plan.version, version, () => planOf(tx, viewer, plan, today));
    return removePlan(tx, plan);
  });
}

/** The sync mutation performance.deletePlan: the push locked the plan and checked it visible; the rows its user saw are named. */
export async function deleteShownPlan(tx: ServerDb, performanceId: string, planId: string, shown: ReadonlySet<string>) {
  const [plan] = await tx.select().from(performancePlans).where(eq(performancePlans.id, planId));
  if (plan?.performanceId !== performanceId) throw new AppFailure('not_found', `performancePlan:${planId} does not exist`, undefined, reason('rowMissing', { entity: 'performancePlan' }));
  return removePlan(tx, plan, shown);
}

export async function tasksByContract(db: ServerDb, viewer: OrgViewer, contractId: string, today: string) {
  await findVisibleContract(db, viewer, contractId);
  const rows = await selectTasks(db)
    .where(and(eq(performanceTasks.contractId, contractId), taskVisibleTo(viewer)))
    .orderBy(...sheetOrder);
  return { list: rows.map((row) => toTaskCard(row, today)) };
}

/** The tasks due in [startDate, endDate] that the viewer may see. */
function dueIn(viewer: OrgViewer, range: { startDate: string; endDate: string }) {
  return and(taskVisibleTo(viewer), gte(performanceTasks.expirationTime, range.startDate), lte(performanceTasks.expirationTime, range.endDate));
}

export async function taskStatistics(db: ServerDb, viewer: OrgViewer, range: { startDate: string; endDate: string }, today: string): Promise<TaskStatistics> {
  const state = effectiveStateSql(today);
  const [row] = await db
    .select({
      total: count(),
      ongoingCount: sql<number>`count(*) filter (where ${state} in (${TaskState.NotStarted}, ${TaskState.InProgress}))`.mapWith(Number),
      completedCount: sql<number>`count(*) filter (where ${state} = ${TaskState.Success})`.mapWith(Number),
      toBeImprovedCount: sql<number>`count(*) filter (where ${state} = ${TaskState.Incomplete})`.mapWith(Number),
      overdueCount: sql<number>`count(*) filter (where ${state} = ${TaskState.Overdue})`.mapWith(Number),
    })
    .from(performanceTasks)
    .leftJoin(contracts, eq(contracts.id, performanceTasks.contractId))
    .where(dueIn(viewer, range));
  return row ?? { total: 0, ongoingCount: 0, completedCount: 0, toBeImprovedCount: 0, overdueCount: 0 };
}

/** A board day shows at most this many cards; `total` says how many are due that day. */
export const scheduleDayLimit = 20;

/**
 * The board's order within a day: by name, then id, as the replica's board walks its index
 * (due date, name, id), so both show the same first cards of a day.
 */
const boardOrder = [asc(performanceTasks.name), asc(performanceTasks.id)];

export async function taskScheduling(db: ServerDb, viewer: OrgViewer, range: { startDate: string; endDate: string }, today: string): Promise<ScheduleDay[]> {
  const ranked = db
    .select({
      id: performanceTasks.id,
      rank: sql<number>`row_number() over (partition by ${performanceTasks.expirationTime} order by ${sql.join(boardOrder, sql`, `)})`.as('rank'),
      total: sql<number>`count(*) over (partition by ${performanceTasks.expirationTime})`.as('total'),
    })
    .from(performanceTasks)
    .leftJoin(contracts, eq(contracts.id, performanceTasks.contractId))
    .where(dueIn(viewer, range))
    .as('ranked');
  const shown = await db.select({ id: ranked.id, total: ranked.total }).from(ranked).where(lte(ranked.rank, scheduleDayLimit));
  const rows = shown.length === 0 ? [] : await selectTasks(db).where(inArray(performanceTasks.id, shown.map((s) => s.id))).orderBy(asc(performanceTasks.expirationTime), ...boardOrder);
  const days = new Map<string, ScheduleDay>();
  for (let day = range.startDate; day <= range.endDate; day = nextDay(day)) days.set(day, { date: day, total: 0, taskList: [] });
  const totals = new Map(shown.map((s) => [s.id, Number(s.total)]));
  for (const row of rows) {
    const day = days.get(row.task.expirationTime!)!;
    day.taskList.push(toTaskCard(row, today));
    day.total = totals.get(row.task.id)!;
  }
  return [...days.values()];
}

const nextDay = (day: string) => DateTime.fromISO(day, { zone: 'utc' }).plus({ days: 1 }).toISODate()!;

export async function readReminderSettings(db: ServerDb, viewer: OrgViewer): Promise<ReminderSettings> {
  const [row] = await db.select().from(reminderSettings).where(eq(reminderSettings.userId, viewer.id));
  const stored = reminderSettingsSchema.safeParse(row?.settings);
  return stored.success ? stored.data : defaultReminderSettings;
}

export async function saveReminderSettings(db: ServerDb, viewer: OrgViewer, settings: ReminderSettings): Promise<ReminderSettings> {
  await db
    .insert(reminderSettings)
    .values({ userId: viewer.id, settings })
    .onConflictDoUpdate({
      target: reminderSettings.userId,
      set: { settings, version: sql`${reminderSettings.version} + 1`, updateTime: sql`now()` },
    });
  return settings;
}

