import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { applyScore } from '../scoring/repository';
import { organisationDay } from '../../src-shared/rules/performance';
import { changesCondition, missingRow, rowKey } from '../../src-shared/sync/mutations';
import { createPlans, deleteShownPlan, readReminderSettings, savePlan, saveReminderSettings } from '../performance/performances';
import { createQuickTask, deleteTask, finishTask, finishTasks, relateTasks, restoreTask, restoreTasks, unrelateTask } from '../performance/repository';
import { performancePlans, performances, performanceTasks } from '../performance/schema';
import { taskVisibleTo } from '../performance/tasks';
import { planChange, syncTaskColumns, taskChange } from './feed-sources';
import type { MutationOutcome, SyncChange } from '../../src-shared/api/sync';
import type { MutationArgs, MutationName, RowKey } from '../../src-shared/sync/mutations';
import type { ServerDb } from '../db/database';
import type { VersionedEntity } from '../../src-shared/sync/field-versions';
import { contracts } from '../db/schema';
import { alterLockedContract, archiveLockedContract, insertContract, patchContract, stepLockedContract } from '../contract-forms/contracts';
import { selectContractRows, toSyncContract, visibleTo, type Viewer } from '../contracts/repository';
import type { OrgViewer } from '../http/feature-helpers';
import { withReminderPatch } from '../../src-shared/domain/reminders';
import type { SceneListItem } from '../../src-shared/domain/ledger';
import { sortOfColumns, withDefaultScene, withSceneDeleted, withSceneOrder } from '../../src-shared/rules/scenes';
import { changeScenes, createScene, toSyncScene } from '../ledger/scenes';
import { ledgerScenes } from '../ledger/schema';

// The server side of the shared mutation registry: how each mutation changes the database, and
// how each entity a mutation may touch is locked and read back. `applyMutation` is keyed by
// mutation name, so a mutation added to the registry without a server implementation does not
// type-check.

export interface LockedRow {
  version: number;
  /** Whether the viewer may see (and so edit) the row. */
  visible: boolean;
  /**
   * The version at which each field group last changed, for an entity that keeps them (a
   * field_versions column kept by the sync_track_field_versions trigger, migration 0020): its
   * edits conflict per field. Without it, any change of the row since the base is a conflict.
   */
  fieldVersions?: Record<string, number>;
}

interface EntityAccess {
  /** The entity's table: a push locks the rows it names there up front, in id order. */
  table: typeof contracts | typeof performanceTasks | typeof performancePlans | typeof ledgerScenes;
  /** Locks the rows until the transaction ends, in one statement; a row that does not exist is not in the answer. */
  lock(tx: ServerDb, viewer: Viewer, ids: readonly string[]): Promise<Map<string, LockedRow>>;
  /** The row as the pull sends it, for a conflict's `current`. */
  current(tx: ServerDb, id: string): Promise<SyncChange | undefined>;
}


const byId = (rows: (LockedRow & { id: string })[]) => new Map(rows.map(({ id, ...row }) => [id, row]));

/** Task or plan rows locked for a mutation: visible with their contract (a quick task to its creator and leader). */
async function lockFulfilmentRows(tx: ServerDb, viewer: Viewer, table: typeof performanceTasks | typeof performancePlans, ids: readonly string[], visible: SQL | undefined) {
  const rows = await tx
    .select({ id: table.id, version: table.version, fieldVersions: table.fieldVersions, visible: visible ? sql<boolean>`coalesce(${visible}, false)` : sql<boolean>`true` })
    .from(table)
    .leftJoin(contracts, eq(contracts.id, table.contractId))
    .where(inArray(table.id, [...ids]))
    .for('update', { of: table });
  return byId(rows);
}

export const entities = {
  contract: {
    table: contracts,
    async lock(tx, viewer, ids) {
      const visible = visibleTo(viewer);
      const rows = await tx
        .select({ id: contracts.id, version: contracts.version, fieldVersions: contracts.fieldVersions, visible: visible ? sql<boolean>`coalesce(${visible}, false)` : sql<boolean>`true` })
        .from(contracts)
        .where(inArray(contracts.id, [...ids]))
        .for('update');
      return byId(rows);
    },
    async current(tx, id) {
      const [row] = await selectContractRows(tx).where(eq(contracts.id, id));
      return row && { entity: 'contract', op: 'upsert', row: toSyncContract(row) };
    },
  },
  performanceTask: {
    table: performanceTasks,
    lock: (tx, viewer, ids) => lockFulfilmentRows(tx, viewer, performanceTasks, ids, taskVisibleTo(viewer)),
    async current(tx, id) {
      const [row] = await tx.select(syncTaskColumns).from(performanceTasks).where(eq(performanceTasks.id, id));
      return row && taskChange(row);
    },
  },
  performancePlan: {
    table: performancePlans,
    lock: (tx, viewer, ids) => lockFulfilmentRows(tx, viewer, performancePlans, ids, visibleTo(viewer)),
    async current(tx, id) {
      const [row] = await tx
        .select({ plan: performancePlans, performance: performances })
        .from(performancePlans)
        .innerJoin(performances, eq(performances.id, performancePlans.performanceId))
        .where(eq(performancePlans.id, id));
      return row && planChange(row);
    },
  },
  scene: {
    table: ledgerScenes,
    async lock(tx, viewer, ids) {
      const rows = await tx
        .select({ id: ledgerScenes.id, version: ledgerScenes.version, fieldVersions: ledgerScenes.fieldVersions, userId: ledgerScenes.userId })
        .from(ledgerScenes)
        .where(inArray(ledgerScenes.id, [...ids]))
        .for('update');
      return byId(rows.map(({ userId, ...row }) => ({ ...row, visible: userId === viewer.id })));
    },
    async current(tx, id) {
      const [row] = await tx.select().from(ledgerScenes).where(eq(ledgerScenes.id, id));
      return row && { entity: 'scene', op: 'upsert', row: toSyncScene(row) };
    },
  },
} as const satisfies Record<VersionedEntity, EntityAccess>;

export type EntityName = keyof typeof entities;

/** "contract:0192…" → its entity and id; the registry only names known entities. */
export function parseRowKey(key: RowKey): { entity: EntityName; id: string } {
  const at = key.indexOf(':');
  const entity = key.slice(0, at);
  if (!Object.prototype.hasOwnProperty.call(entities, entity)) throw new Error(`the mutation registry names an unknown entity in ${key}`);
  return { entity: entity as EntityName, id: key.slice(at + 1) };
}

type ApplyFunctions = {
  [N in MutationName]: (tx: ServerDb, args: MutationArgs<N>, viewer: OrgViewer, at: Date, baseVersions: Readonly<Record<RowKey, number>>) => Promise<MutationOutcome | void>;
};

/**
 * Runs after the touched rows are locked, found visible and at their base versions. Each
 * mutation calls the feature's own write so the desktop's offline edits obey the REST rules.
 */
export const applyMutation: ApplyFunctions = {
  'contract.update': (tx, { id, patch }, viewer, at) => patchContract(tx, viewer, id, patch, at),
  // The client's provisional number is only what it showed: the rules decide the number here.
  'contract.create': async (tx, { provisionalNumber: _shown, ...body }, viewer, at) => {
    const created = await insertContract(tx, viewer, body, at);
    return { contractNumber: created.contractNumber };
  },
  'contract.alter': (tx, { id, formValues, reason }, viewer, at) => alterLockedContract(tx, viewer, id, { formValues, reason }, at),
  'contract.approvalStep': (tx, { id, ...step }, viewer, at) => stepLockedContract(tx, viewer, id, step, at),
  'contract.archive': (tx, { id, fileId, takenAt }, viewer, at) => archiveLockedContract(tx, viewer, id, { fileId, takenAt }, at),
  // The REST call's checks and write, by its messages: a score changed since its base is refused as stale.
  'contract.score': (tx, { id, ...body }, viewer, at) => applyScore(tx, viewer, id, body, uuidv7, at),
  // Fulfilment: the REST handlers' own writes (src-server/performance), with "today" of the
  // time the server applies the mutation and no If-Match (the state is checked instead).
  'performance.finishTask': async (tx, { id, ...input }, viewer, at) => void (await finishTask(tx, viewer, id, input, at, organisationDay(at), {})),
  'performance.finishTasks': async (tx, { performanceId, ...batch }, viewer, at) => void (await finishTasks(tx, viewer, performanceId, batch, at, organisationDay(at))),
  'performance.restoreTasks': async (tx, { performanceId, planIDList }, viewer, at) => void (await restoreTasks(tx, viewer, performanceId, planIDList, organisationDay(at))),
  'performance.restoreTask': async (tx, { id }, viewer, at) => void (await restoreTask(tx, viewer, id, organisationDay(at), {})),
  'performance.deleteTask': async (tx, { id }, viewer, at) => void (await deleteTask(tx, viewer, id, undefined, organisationDay(at))),
  'performance.deletePlanTask': async (tx, { performanceId, planID }, viewer, at) => void (await deleteTask(tx, viewer, planID, undefined, organisationDay(at), performanceId)),
  'performance.savePlan': async (tx, args, viewer, at, baseVersions) => {
    const { performanceId, planId, plan } = args;
    // The plan's base version is there: the push checked it before applying the save.
    const offline = { basePlanVersion: baseVersions[rowKey('performancePlan', planId)]!, keepsCondition: !changesCondition(args), removes: new Set(args.removes) };
    const saved = await savePlan(tx, viewer, performanceId, plan, organisationDay(at), {}, offline);
    // The plan named by the mutation is the one saved: a plan of another contract or performance is refused.
    if (saved.id !== planId) throw missingRow(rowKey('performancePlan', planId));
  },
  // The ids are the client's: the tasks it showed offline are the ones made here.
  'performance.createPlan': async (tx, { planId, performanceId, plan }, viewer, at) => {
    await createPlans(tx, viewer, [{ planId, performanceId, plan }], organisationDay(at));
  },
  'performance.deletePlan': async (tx, { performanceId, planId, taskIds }) => {
    await deleteShownPlan(tx, performanceId, planId, new Set(taskIds));
  },
  'performance.relateTask': async (tx, { id, frontTaskIDList }, viewer) => void (await relateTasks(tx, viewer, id, frontTaskIDList)),
  'performance.unrelateTask': async (tx, { id, frontTaskID }, viewer) => void (await unrelateTask(tx, viewer, id, frontTaskID)),
  // A repeated id (the same task queued twice) fails on the primary key: exactly once either way.
  'performance.quickTask': async (tx, { id, payload }, viewer, at) => {
    await createQuickTask(tx, viewer, payload, organisationDay(at), id);
  },
  'performance.reminderSettings': async (tx, { settings }, viewer) => {
    await saveReminderSettings(tx, viewer, withReminderPatch(await readReminderSettings(tx, viewer), settings));
  },
  'scene.create': async (tx, { id, ...body }, viewer) => {
    await createScene(tx, viewer, body, id);
  },
  'scene.update': async (tx, { id, patch }, viewer, at) => {
    // Columns changed without a word of the sort: the sort goes with its column (sortOfColumns).
    const edited = (scene: SceneListItem) => ({ ...scene, ...patch, sortField: patch.sortField !== undefined ? patch.sortField : sortOfColumns(scene.sortField, patch.titleIDs ?? scene.titleIDs) });
    await changeScenes(tx, viewer, at, (list) => list.map((scene) => (scene.id === id ? edited(scene) : scene)));
  },
  'scene.delete': async (tx, { id }, viewer, at) => {
    await changeScenes(tx, viewer, at, (list) => withSceneDeleted(list, id));
  },
  'scene.reorder': async (tx, { ids }, viewer, at) => {
    await changeScenes(tx, viewer, at, (list) => withSceneOrder(list, ids));
  },
  'scene.setDefault': async (tx, { id }, viewer, at) => {
    await changeScenes(tx, viewer, at, (list) => withDefaultScene(list, id));
  },
};

type ApplyTogetherFunctions = {
  [N in MutationName]?: (tx: ServerDb, args: readonly MutationArgs<N>[], viewer: OrgViewer, at: Date) => Promise<void>;
};

/**
 * Mutations that only create rows and can be written several at once: a push writes a run of
 * them together, a statement per step instead of per mutation, and when any of them is refused
 * takes the run back and applies them one by one (src-server/sync/push.ts).
 */
export const applyTogether: ApplyTogetherFunctions = {
  'performance.createPlan': (tx, creations, viewer, at) => createPlans(tx, viewer, creations, organisationDay(at)),
};
