import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  nameFieldId,
  sceneMessages,
  type FilterCondition,
  type LedgerField,
  type Scene,
  type SceneCreate,
  type SceneListItem,
  type SortField,
} from '../../src-shared/domain/ledger';
import type { SyncScene } from '../../src-shared/api/sync';
import { AppFailure, reason } from '../../src-shared/errors';
import { sceneSortProblem } from '../../src-shared/rules/scenes';
import type { SessionUser } from '../auth/service';
import type { ServerDb } from '../db/database';
import { performances } from '../performance/schema';
import { loadFields } from './fields';
import { ledgerScenes } from './schema';

// Ledger scenes per user (spec 5 "Dashboard and ledger", 6, 7): system scenes are made on first
// read, exactly one scene is the default, names are trimmed, at most 50 characters and unique
// per user. Every write of a user's scenes holds that user's advisory lock, so the checks below
// and the writes cannot interleave with another request of the same user.

type SceneRow = typeof ledgerScenes.$inferSelect;
type Viewer = Pick<SessionUser, 'id' | 'organisationId'>;

const systemScenes = [
  { name: 'all performance records', titleIds: null, isDefault: true },
  {
    name: 'receivables and payables',
    titleIds: [nameFieldId, 'contractName', 'taskType', 'expirationTime', 'receivableAmount', 'payableAmount', 'taskState'],
    isDefault: false,
  },
] as const;

const sceneLockSpace = 727_100;

/** Holds the user's scene list until the transaction ends: every change of the list takes it first. */
export async function lockScenes(tx: ServerDb, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${sceneLockSpace}, hashtext(${userId}))`);
}

function invalid(path: string, message: string): AppFailure {
  return new AppFailure('validation_failed', message, [{ path, message }]);
}

function toScene(row: SceneRow, fields: Map<string, LedgerField>): Scene {
  return {
    id: row.id,
    name: row.name,
    isDefault: row.isDefault,
    isSystem: row.isSystem,
    performanceId: row.performanceId,
    filterIDs: row.filterIds,
    titleIDs: row.titleIds,
    filter: row.filters as FilterCondition[],
    sortField: row.sortField,
    titles: row.titleIds.flatMap((id) => fields.get(id) ?? []),
    version: row.version,
  };
}

/** Known field ids only, without repeats, and the name column first whatever the client sent. */
function checkFieldIds(path: string, ids: readonly string[], fields: Map<string, LedgerField>, withName: boolean): string[] {
  const unknown = ids.find((id) => !fields.has(id));
  if (unknown !== undefined) throw invalid(path, `unknown ledger field: ${unknown}`);
  const unique = [...new Set(ids)];
  return withName ? [nameFieldId, ...unique.filter((id) => id !== nameFieldId)] : unique;
}

async function checkPerformance(tx: ServerDb, viewer: Viewer, path: string, performanceId: string | null): Promise<void> {
  if (performanceId === null) return;
  const [found] = await tx
    .select({ id: performances.id })
    .from(performances)
    .where(and(eq(performances.id, performanceId), eq(performances.organisationId, viewer.organisationId)));
  if (!found) throw invalid(path, `unknown performance: ${performanceId}`);
}

function checkFilters(path: string, filters: readonly FilterCondition[], fields: Map<string, LedgerField>): void {
  checkFieldIds(path, filters.map((f) => f.id), fields, false);
}

/** A kept sort is by one of the scene's columns (`titleIds` as kept), one the ledger sorts by. */
function checkSort(path: string, sort: SortField | null, titleIds: readonly string[], fields: Map<string, LedgerField>): void {
  const problem = sceneSortProblem(sort, titleIds, [...fields.values()]);
  if (problem) throw invalid(`${path}${problem.path}`, problem.message);
}

async function userScenes(tx: ServerDb, userId: string): Promise<SceneRow[]> {
  return tx.select().from(ledgerScenes).where(eq(ledgerScenes.userId, userId)).orderBy(asc(ledgerScenes.sortOrder), asc(ledgerScenes.createTime), asc(ledgerScenes.id));
}

/** Makes the system scenes the first time a user reads their scenes. */
async function ensureSystemScenes(tx: ServerDb, userId: string, fields: LedgerField[]): Promise<void> {
  const existing = await userScenes(tx, userId);
  if (existing.some((scene) => scene.isSystem)) return;
  await lockScenes(tx, userId);
  const locked = await userScenes(tx, userId);
  if (locked.some((scene) => scene.isSystem)) return;
  const hasDefault = locked.some((scene) => scene.isDefault);
  const defaults = {
    titleIds: fields.filter((f) => f.isDefaultTitle).map((f) => f.id),
    filterIds: fields.filter((f) => f.isDefaultFilter).map((f) => f.id),
  };
  await tx.update(ledgerScenes).set({ sortOrder: sql`${ledgerScenes.sortOrder} + ${systemScenes.length}` }).where(eq(ledgerScenes.userId, userId));
  await tx.insert(ledgerScenes).values(
    systemScenes.map((scene, sortOrder) => ({
      id: uuidv7(),
      userId,
      name: scene.name,
      isSystem: true,
      isDefault: scene.isDefault && !hasDefault,
      filterIds: defaults.filterIds,
      titleIds: scene.titleIds ? [...scene.titleIds] : defaults.titleIds,
      sortOrder,
    })),
  );
}

/** A scene as the change feed sends it to its user. */
export function toSyncScene(row: SceneRow): SyncScene {
  return {
    id: row.id, name: row.name, isDefault: row.isDefault, isSystem: row.isSystem, performanceId: row.performanceId,
    filterIDs: row.filterIds, titleIDs: row.titleIds, filter: row.filters as FilterCondition[], sortField: row.sortField, sortOrder: row.sortOrder,
    version: row.version, updateTime: row.updateTime.toISOString(),
  };
}

const byId = (fields: LedgerField[]) => new Map(fields.map((f) => [f.id, f]));

/** The user's system scenes exist (a desktop may pull before the ledger was ever read over REST). */
export async function ensureUserScenes(db: ServerDb, viewer: Viewer): Promise<void> {
  const fields = await loadFields(db);
  await db.transaction((tx) => ensureSystemScenes(tx, viewer.id, fields));
}

export async function listScenes(db: ServerDb, viewer: Viewer): Promise<Scene[]> {
  const fields = await loadFields(db);
  return db.transaction(async (tx) => {
    await ensureSystemScenes(tx, viewer.id, fields);
    const map = byId(fields);
    return (await userScenes(tx, viewer.id)).map((row) => toScene(row, map));
  });
}

function duplicated(): AppFailure {
  return invalid('name', sceneMessages.nameDuplicated);
}

/** Makes a scene; `id` is the client's for a scene made offline (the sync mutation scene.create). */
export async function createScene(db: ServerDb, viewer: Viewer, body: SceneCreate, id: string = uuidv7()): Promise<Scene> {
  const fields = await loadFields(db);
  const map = byId(fields);
  const titleIds = checkFieldIds('titleIDs', body.titleIDs.length > 0 ? body.titleIDs : fields.filter((f) => f.isDefaultTitle).map((f) => f.id), map, true);
  const filterIds = checkFieldIds('filterIDs', body.filterIDs, map, false);
  checkFilters('filter', body.filter, map);
  checkSort('', body.sortField, titleIds, map);
  return db.transaction(async (tx) => {
    await checkPerformance(tx, viewer, 'performanceId', body.performanceId);
    await ensureSystemScenes(tx, viewer.id, fields);
    await lockScenes(tx, viewer.id);
    const existing = await userScenes(tx, viewer.id);
    // Create: the name is checked against all of the user's scenes.
    if (existing.some((scene) => scene.name === body.name)) throw duplicated();
    const [row] = await tx
      .insert(ledgerScenes)
      .values({
        id, userId: viewer.id, name: body.name, isSystem: false, isDefault: false, performanceId: body.performanceId,
        filterIds, filters: body.filter, sortField: body.sortField, titleIds, sortOrder: existing.reduce((max, s) => Math.max(max, s.sortOrder + 1), 0),
      })
      .returning();
    return toScene(row!, map);
  });
}

/**
 * The manage dialog's save: the full list in display order. Scenes left out are deleted (never
 * a system one); each listed scene takes its name, fields, performance and default flag.
 */
export async function saveScenes(db: ServerDb, viewer: Viewer, list: SceneListItem[], now: Date): Promise<Scene[]> {
  const fields = await loadFields(db);
  const map = byId(fields);
  const defaults = list.filter((scene) => scene.isDefault);
  if (defaults.length !== 1) throw invalid('isDefault', sceneMessages.oneDefault);
  const names = new Set<string>();
  // Edit: each name is checked against all the others.
  list.forEach((scene, i) => {
    if (names.has(scene.name)) throw invalid(`${i}.name`, sceneMessages.nameDuplicated);
    names.add(scene.name);
  });
  const ids = new Set(list.map((scene) => scene.id));
  if (ids.size !== list.length) throw invalid('id', 'a scene is listed twice');
  const prepared = list.map((scene, i) => ({
    scene,
    titleIds: checkFieldIds(`${i}.titleIDs`, scene.titleIDs, map, true),
    filterIds: checkFieldIds(`${i}.filterIDs`, scene.filterIDs, map, false),
  }));
  list.forEach((scene, i) => checkFilters(`${i}.filter`, scene.filter, map));
  prepared.forEach(({ scene, titleIds }, i) => checkSort(`${i}.`, scene.sortField, titleIds, map));

  return db.transaction(async (tx) => {
    await ensureSystemScenes(tx, viewer.id, fields);
    await lockScenes(tx, viewer.id);
    const existing = new Map((await userScenes(tx, viewer.id)).map((row) => [row.id, row]));
    for (const [i, { scene }] of prepared.entries()) {
      const row = existing.get(scene.id);
      if (!row) throw new AppFailure('not_found', `scene not found: ${scene.id}`, undefined, reason('sceneMissing'));
      if (scene.version !== undefined && scene.version !== row.version) throw new AppFailure('conflict', `scene ${row.name} was changed meanwhile: reload the scenes`, undefined, reason('sceneChanged', { name: row.name }));
      if (scene.isSystem !== row.isSystem) throw invalid(`${i}.isSystem`, 'whether a scene is a system scene cannot be changed');
      await checkPerformance(tx, viewer, `${i}.performanceId`, scene.performanceId);
    }
    const removed = [...existing.values()].filter((row) => !ids.has(row.id));
    if (removed.some((row) => row.isSystem)) throw invalid('id', sceneMessages.systemUndeletable);
    if (removed.length > 0) await tx.delete(ledgerScenes).where(inArray(ledgerScenes.id, removed.map((row) => row.id)));
    // The default moves in two steps so the one-default index never sees two.
    await tx.update(ledgerScenes).set({ isDefault: false }).where(and(eq(ledgerScenes.userId, viewer.id), eq(ledgerScenes.isDefault, true)));
    for (const [sortOrder, { scene, titleIds, filterIds }] of prepared.entries()) {
      const row = existing.get(scene.id)!;
      const changed =
        row.name !== scene.name || row.isDefault !== scene.isDefault || row.sortOrder !== sortOrder || row.performanceId !== scene.performanceId ||
        JSON.stringify([row.titleIds, row.filterIds, row.filters, row.sortField]) !== JSON.stringify([titleIds, filterIds, scene.filter, scene.sortField]);
      await tx
        .update(ledgerScenes)
        .set({
          name: scene.name, isDefault: scene.isDefault, sortOrder, performanceId: scene.performanceId, titleIds, filterIds, filters: scene.filter, sortField: scene.sortField,
          ...(changed ? { version: sql`${ledgerScenes.version} + 1`, updateTime: now } : {}),
        })
        .where(eq(ledgerScenes.id, scene.id));
    }
    return (await userScenes(tx, viewer.id)).map((row) => toScene(row, map));
  });
}

/**
 * One change of the user's scene list (the sync mutations scene.update, .delete, .reorder,
 * .setDefault): the current list, changed by `edit`, saved as the manage dialog's save is, so the
 * desktop's offline edits obey the same rules. No versions are compared: last writer wins per scene.
 */
export async function changeScenes(db: ServerDb, viewer: Viewer, now: Date, edit: (list: SceneListItem[]) => SceneListItem[]): Promise<Scene[]> {
  const current = await listScenes(db, viewer);
  const list = current.map(({ id, name, isDefault, isSystem, performanceId, filterIDs, titleIDs, filter, sortField }) => ({
    id, name, isDefault, isSystem, performanceId, filterIDs, titleIDs, filter, sortField,
  }));
  return saveScenes(db, viewer, edit(list), now);
}

/** One of the viewer's scenes, or 404. */
export async function findScene(db: ServerDb, viewer: Viewer, id: string): Promise<SceneRow> {
  const [row] = await db.select().from(ledgerScenes).where(and(eq(ledgerScenes.id, id), eq(ledgerScenes.userId, viewer.id)));
  if (!row) throw new AppFailure('not_found', `scene not found: ${id}`, undefined, reason('sceneMissing'));
  return row;
}

/** The title-list call: every field, the scene's titles first and marked. */
export async function sceneTitles(db: ServerDb, viewer: Viewer, configId: string | undefined) {
  const fields = await loadFields(db);
  const scene = configId ? await findScene(db, viewer, configId) : undefined;
  const titleIds = scene?.titleIds ?? fields.filter((f) => f.isDefaultTitle).map((f) => f.id);
  const filterIds = new Set(scene?.filterIds ?? fields.filter((f) => f.isDefaultFilter).map((f) => f.id));
  const rank = (id: string) => (titleIds.includes(id) ? titleIds.indexOf(id) : titleIds.length);
  return {
    fields: [...fields]
      .sort((a, b) => rank(a.id) - rank(b.id))
      .map((field) => ({ ...field, isTitle: titleIds.includes(field.id), isFilter: filterIds.has(field.id) })),
  };
}
