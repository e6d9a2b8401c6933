import { and, asc, count, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { SyncChange, SyncPlan, SyncTask } from '../../src-shared/api/sync';
import type { Performance } from '../../src-shared/domain/performance';
import { defaultReminderSettings, reminderSettingsSchema } from '../../src-shared/domain/reminders';
import type { ServerDb } from '../db/database';
import { contracts, contractTombstones, counterparties, departments, users } from '../db/schema';
import { tombstoneOwner, visibleTo, type Viewer } from '../contracts/repository';
import { toSyncScene } from '../ledger/scenes';
import { ledgerScenes, ledgerSceneTombstones } from '../ledger/schema';
import { countLedgerRecords } from '../ledger/totals';
import { toPerformance } from '../performance/definition';
import { quickTaskVisibleTo, taskVisibleTo } from '../performance/tasks';
import { performancePlans, performancePlanTombstones, performances, performanceTasks, performanceTaskTombstones, reminderSettings } from '../performance/schema';

// The change feed is the merge, by position, of these sources. Each serves its changes in
// (after, below) visible to the viewer: the first `limit` of them in position order, and how
// many there are in all (for `remaining`).

export interface FeedEntry {
  position: bigint;
  change: SyncChange;
  /** The change's bytes as JSON, where the source has them at hand (else the page estimates them). */
  bytes?: number;
}

export interface FeedSource {
  /** The column of the source's table that holds each change's position (visible or not). */
  position: PgColumn;
  page(tx: ServerDb, viewer: Viewer, after: bigint, below: bigint, limit: number): Promise<FeedEntry[]>;
  count(tx: ServerDb, viewer: Viewer, after: bigint, below: bigint): Promise<number>;
}

/** A source over one table: where its rows are visible, and how a row of it reads as a change. */
function tableSource<Row>(options: {
  position: PgColumn;
  visible: (viewer: Viewer) => SQL | undefined;
  select: (tx: ServerDb, where: SQL | undefined, limit: number) => Promise<Row[]>;
  countFrom: (tx: ServerDb, where: SQL | undefined) => Promise<{ count: number }[]>;
  entry: (row: Row) => FeedEntry;
}): FeedSource {
  const where = (viewer: Viewer, after: bigint, below: bigint) => and(gt(options.position, after), lt(options.position, below), options.visible(viewer));
  return {
    position: options.position,
    async page(tx, viewer, after, below, limit) {
      return (await options.select(tx, where(viewer, after, below), limit)).map(options.entry);
    },
    async count(tx, viewer, after, below) {
      const [total] = await options.countFrom(tx, where(viewer, after, below));
      return total?.count ?? 0;
    },
  };
}

/**
 * A row built by PostgreSQL as JSON text, with these keys and values: a first sync reads 250,000
 * rows, and mapping each row's columns into objects (and its times into Dates and back) cost most
 * of the feed's time. Times as toISOString writes them (milliseconds, truncated as a JavaScript
 * Date holds them). The text's length bounds the change's JSON (PostgreSQL spaces its colons).
 */
function rowJson(columns: Record<string, PgColumn | SQL>, times: ReadonlySet<string>): SQL<string> {
  const pairs = Object.entries(columns).map(([key, column]) => {
    const value = times.has(key) ? sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : sql`${column}`;
    return sql`${key}::text, ${value}`;
  });
  return sql<string>`json_build_object(${sql.join(pairs, sql`, `)})::text`;
}

/** The most bytes a change's JSON adds around its row (the longest entity named here). */
const entryWrapperBytes = '{"entity":"performanceTask","op":"upsert","row":}'.length;

/** A feed entry of a row read as JSON text (its shape is the query's: `rowJson` above). */
function jsonEntry(entity: 'contract' | 'performanceTask', changeSeq: bigint, row: string): FeedEntry {
  return {
    position: changeSeq,
    change: { entity, op: 'upsert', row: JSON.parse(row) } as SyncChange,
    bytes: Buffer.byteLength(row) + entryWrapperBytes,
  };
}

/** A contract as the feed's row (`toSyncContract`, the keys in its order). */
const contractRowJson = rowJson(
  {
    id: contracts.id,
    name: contracts.name,
    contractNumber: contracts.contractNumber,
    status: contracts.status,
    contractTypeName: contracts.contractTypeName,
    templateName: contracts.templateName,
    counterpartName: counterparties.name,
    responsibleUserId: contracts.responsibleUserId,
    responsibleUserName: users.displayName,
    departmentId: contracts.departmentId,
    departmentName: departments.name,
    signDate: contracts.signDate,
    version: contracts.version,
    amount: sql`case when ${contracts.amount} is not null and ${contracts.amountUnit} is not null then json_build_object('amount', ${contracts.amount}, 'unit', ${contracts.amountUnit}) end`,
    createTime: contracts.createTime,
    updateTime: contracts.updateTime,
    contractNumberAuto: contracts.contractNumberAuto,
    contractTypeId: contracts.contractTypeId,
    templateId: contracts.templateId,
    formValues: contracts.formValues,
    counterpartyId: contracts.counterpartyId,
    approvalTrail: contracts.approvalTrail,
  },
  new Set(['createTime', 'updateTime']),
);

const contractSource = tableSource({
  position: contracts.changeSeq,
  visible: (viewer) => visibleTo(viewer),
  select: (tx, where, limit) =>
    tx
      .select({ changeSeq: contracts.changeSeq, row: contractRowJson })
      .from(contracts)
      .leftJoin(counterparties, eq(counterparties.id, contracts.counterpartyId))
      .leftJoin(users, eq(users.id, contracts.responsibleUserId))
      .leftJoin(departments, eq(departments.id, contracts.departmentId))
      .where(where)
      .orderBy(asc(contracts.changeSeq))
      .limit(limit),
  countFrom: (tx, where) => tx.select({ count: count() }).from(contracts).where(where),
  entry: ({ changeSeq, row }) => jsonEntry('contract', changeSeq, row),
});

const contractTombstoneSource = tableSource({
  position: contractTombstones.changeSeq,
  visible: (viewer) => visibleTo(viewer, tombstoneOwner),
  select: (tx, where, limit) =>
    tx
      .select({ changeSeq: contractTombstones.changeSeq, id: contractTombstones.contractId })
      .from(contractTombstones)
      .where(where)
      .orderBy(asc(contractTombstones.changeSeq))
      .limit(limit),
  countFrom: (tx, where) => tx.select({ count: count() }).from(contractTombstones).where(where),
  entry: ({ changeSeq, id }) => ({ position: changeSeq, change: { entity: 'contract', op: 'delete', id } }),
});

/** The columns of a task as the feed sends it. */
export const syncTaskColumns = {
  changeSeq: performanceTasks.changeSeq,
  id: performanceTasks.id,
  contractId: performanceTasks.contractId,
  planId: performanceTasks.planId,
  performanceId: performanceTasks.performanceId,
  name: performanceTasks.name,
  type: performanceTasks.type,
  state: performanceTasks.state,
  expirationTime: performanceTasks.expirationTime,
  receivableAmount: performanceTasks.receivableAmount,
  payableAmount: performanceTasks.payableAmount,
  amountUnit: performanceTasks.amountUnit,
  leaderUserId: performanceTasks.leaderUserId,
  rowIndex: performanceTasks.rowIndex,
  level: performanceTasks.level,
  values: performanceTasks.values,
  completionValues: performanceTasks.completionValues,
  finishedAmount: performanceTasks.finishedAmount,
  frontTaskIds: performanceTasks.frontTaskIds,
  createTime: performanceTasks.createTime,
  version: performanceTasks.version,
  updateTime: performanceTasks.updateTime,
};

/** A task as the feed's row (`taskChange`). */
const taskRowJson = (() => {
  const times = new Set<string>(['createTime', 'updateTime']);
  const keys = [...Object.keys(syncTaskColumns).filter((key) => key !== 'changeSeq' && !times.has(key)), ...times] as (keyof typeof syncTaskColumns)[];
  return rowJson(Object.fromEntries(keys.map((key) => [key, syncTaskColumns[key]])), times);
})();

const taskSource = tableSource({
  position: performanceTasks.changeSeq,
  visible: (viewer) => taskVisibleTo(viewer),
  select: (tx, where, limit) =>
    tx
      .select({ changeSeq: performanceTasks.changeSeq, row: taskRowJson })
      .from(performanceTasks)
      .leftJoin(contracts, eq(contracts.id, performanceTasks.contractId))
      .where(where)
      .orderBy(asc(performanceTasks.changeSeq))
      .limit(limit),
  countFrom: (tx, where) =>
    tx.select({ count: count() }).from(performanceTasks).leftJoin(contracts, eq(contracts.id, performanceTasks.contractId)).where(where),
  entry: ({ changeSeq, row }) => jsonEntry('performanceTask', changeSeq, row),
});

type TaskFeedRow = Pick<typeof performanceTasks.$inferSelect, keyof typeof syncTaskColumns>;

/** A task row as the feed's change (also a conflict's `current`). */
export function taskChange({ changeSeq: _position, updateTime, createTime, ...task }: TaskFeedRow): SyncChange {
  return { entity: 'performanceTask', op: 'upsert', row: { ...task, createTime: createTime.toISOString(), updateTime: updateTime.toISOString() } satisfies SyncTask };
}

/**
 * The tasks, counted on a first sync's first page (nothing held yet: every task is to come) from
 * the ledger's kept counts of the tasks with a contract, plus the viewer's quick tasks, instead
 * of joining every task to its contract. An estimate: a task committed while the page was read
 * is counted here but served on a later pull (see `remaining` in src-shared/api/sync.ts).
 */
const taskFeedSource: FeedSource = {
  position: taskSource.position,
  page: (tx, viewer, after, below, limit) => taskSource.page(tx, viewer, after, below, limit),
  async count(tx, viewer, after, below) {
    if (after !== 0n) return taskSource.count(tx, viewer, after, below);
    const [quick] = await tx
      .select({ count: count() })
      .from(performanceTasks)
      .where(quickTaskVisibleTo(viewer));
    return (await countLedgerRecords(tx, viewer, null)) + (quick?.count ?? 0);
  },
};

const taskTombstoneSource = tableSource({
  position: performanceTaskTombstones.changeSeq,
  visible: (viewer) => taskVisibleTo(viewer, performanceTaskTombstones),
  select: (tx, where, limit) =>
    tx
      .select({ changeSeq: performanceTaskTombstones.changeSeq, id: performanceTaskTombstones.taskId })
      .from(performanceTaskTombstones)
      .leftJoin(contracts, eq(contracts.id, performanceTaskTombstones.contractId))
      .where(where)
      .orderBy(asc(performanceTaskTombstones.changeSeq))
      .limit(limit),
  countFrom: (tx, where) =>
    tx
      .select({ count: count() })
      .from(performanceTaskTombstones)
      .leftJoin(contracts, eq(contracts.id, performanceTaskTombstones.contractId))
      .where(where),
  entry: ({ changeSeq, id }) => ({ position: changeSeq, change: { entity: 'performanceTask', op: 'delete', id } }),
});

/**
 * A plan with its performance's sheet columns and completion form, visible with its contract (an
 * inner join: a plan always has one). A page's plans share a handful of performances: each is
 * read and checked once per page, not once per plan (10,000 plans of 4 performances at 10,000 contracts).
 */
const planSource: FeedSource = {
  position: performancePlans.changeSeq,
  async page(tx, viewer, after, below, limit) {
    const plans = await tx
      .select({ plan: performancePlans })
      .from(performancePlans)
      .innerJoin(contracts, eq(contracts.id, performancePlans.contractId))
      .where(planWhere(viewer, after, below))
      .orderBy(asc(performancePlans.changeSeq))
      .limit(limit);
    const ids = [...new Set(plans.map(({ plan }) => plan.performanceId))];
    const forms = new Map((ids.length === 0 ? [] : await tx.select().from(performances).where(inArray(performances.id, ids))).map((row) => [row.id, toPerformance(row)]));
    return plans.map(({ plan }) => ({ position: plan.changeSeq, change: planRowChange(plan, forms.get(plan.performanceId)!) }));
  },
  async count(tx, viewer, after, below) {
    const [total] = await tx.select({ count: count() }).from(performancePlans).innerJoin(contracts, eq(contracts.id, performancePlans.contractId)).where(planWhere(viewer, after, below));
    return total?.count ?? 0;
  },
};

function planWhere(viewer: Viewer, after: bigint, below: bigint): SQL | undefined {
  return and(gt(performancePlans.changeSeq, after), lt(performancePlans.changeSeq, below), visibleTo(viewer));
}

/** A plan row with its performance as the feed's change (also a conflict's `current`). */
export function planChange({ plan, performance }: { plan: typeof performancePlans.$inferSelect; performance: typeof performances.$inferSelect }): SyncChange {
  return planRowChange(plan, toPerformance(performance));
}

function planRowChange(plan: typeof performancePlans.$inferSelect, { name, type, fields, columns }: Performance): SyncChange {
  const row: SyncPlan = {
    id: plan.id,
    contractId: plan.contractId,
    performanceId: plan.performanceId,
    performanceName: name,
    performanceType: type,
    columns,
    fields,
    conditionType: plan.conditionType,
    schedule: plan.schedule ?? null,
    version: plan.version,
    updateTime: plan.updateTime.toISOString(),
  };
  return { entity: 'performancePlan', op: 'upsert', row };
}

/** A deleted plan, seen by whoever sees its contract (a contract's own tombstone removes its plans on the client). */
const planTombstoneSource = tableSource({
  position: performancePlanTombstones.changeSeq,
  visible: (viewer) => visibleTo(viewer),
  select: (tx, where, limit) =>
    tx
      .select({ changeSeq: performancePlanTombstones.changeSeq, id: performancePlanTombstones.planId })
      .from(performancePlanTombstones)
      .innerJoin(contracts, eq(contracts.id, performancePlanTombstones.contractId))
      .where(where)
      .orderBy(asc(performancePlanTombstones.changeSeq))
      .limit(limit),
  countFrom: (tx, where) =>
    tx.select({ count: count() }).from(performancePlanTombstones).innerJoin(contracts, eq(contracts.id, performancePlanTombstones.contractId)).where(where),
  entry: ({ changeSeq, id }) => ({ position: changeSeq, change: { entity: 'performancePlan', op: 'delete', id } }),
});

/** Only the user's own settings; stored settings the schema no longer accepts read as the defaults, as over REST. */
const reminderSettingsSource = tableSource({
  position: reminderSettings.changeSeq,
  visible: (viewer) => eq(reminderSettings.userId, viewer.id),
  select: (tx, where, limit) => tx.select().from(reminderSettings).where(where).orderBy(asc(reminderSettings.changeSeq)).limit(limit),
  countFrom: (tx, where) => tx.select({ count: count() }).from(reminderSettings).where(where),
  entry: ({ changeSeq, userId, settings, version, updateTime }) => {
    const parsed = reminderSettingsSchema.safeParse(settings);
    return {
      position: changeSeq,
      change: {
        entity: 'reminderSettings',
        op: 'upsert',
        row: { userId, settings: parsed.success ? parsed.data : defaultReminderSettings, version, updateTime: updateTime.toISOString() },
      },
    };
  },
});

/** Only the user's own ledger scenes. */
const sceneSource = tableSource({
  position: ledgerScenes.changeSeq,
  visible: (viewer) => eq(ledgerScenes.userId, viewer.id),
  select: (tx, where, limit) => tx.select().from(ledgerScenes).where(where).orderBy(asc(ledgerScenes.changeSeq)).limit(limit),
  countFrom: (tx, where) => tx.select({ count: count() }).from(ledgerScenes).where(where),
  entry: (row) => ({ position: row.changeSeq, change: { entity: 'scene', op: 'upsert', row: toSyncScene(row) } }),
});

const sceneTombstoneSource = tableSource({
  position: ledgerSceneTombstones.changeSeq,
  visible: (viewer) => eq(ledgerSceneTombstones.userId, viewer.id),
  select: (tx, where, limit) =>
    tx
      .select({ changeSeq: ledgerSceneTombstones.changeSeq, id: ledgerSceneTombstones.sceneId })
      .from(ledgerSceneTombstones)
      .where(where)
      .orderBy(asc(ledgerSceneTombstones.changeSeq))
      .limit(limit),
  countFrom: (tx, where) => tx.select({ count: count() }).from(ledgerSceneTombstones).where(where),
  entry: ({ changeSeq, id }) => ({ position: changeSeq, change: { entity: 'scene', op: 'delete', id } }),
});

export const feedSources: readonly FeedSource[] = [
  contractSource,
  contractTombstoneSource,
  taskFeedSource,
  taskTombstoneSource,
  reminderSettingsSource,
  planSource,
  planTombstoneSource,
  sceneSource,
  sceneTombstoneSource,
];

/** Tables of tombstones, pruned together under one horizon. */
export const tombstoneTables = ['contract_tombstones', 'performance_task_tombstones', 'performance_plan_tombstones', 'ledger_scene_tombstones'] as const;
