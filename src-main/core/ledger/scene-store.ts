import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { SyncScene } from '../../../src-shared/api/sync';
import { filterConditionSchema, nameFieldId, sortFieldSchema, type FilterCondition, type LedgerField, type SortField } from '../../../src-shared/domain/ledger';
import { AppFailure } from '../../../src-shared/errors';
import type { SceneView } from '../../../src-shared/ipc/scenes';
import { sceneDeleteProblem, sceneNameProblem, sceneSortProblem, sortOfColumns } from '../../../src-shared/rules/scenes';
import { rowKey, type MutationArgs } from '../../../src-shared/sync/mutations';
import type { ClientMutations, OverlayEntity, PullWriter, ReplicaTx } from '../data/replica-features';
import { ledgerScenes, ledgerScenesLocal, performancePlans } from '../data/schema';

// The user's ledger scenes in the replica (issue 14): pulled base rows, the optimistic rows the
// queued scene edits make (base + those edits, as for contracts), and the client side of the
// scene mutations. Last writer wins per scene: edits move their scene, no version is compared.

type BaseRow = typeof ledgerScenes.$inferSelect;
/** A scene as edits see it: the base columns, whether an edit deleted it, and when one made it the default. */
export type LocalScene = typeof ledgerScenesLocal.$inferSelect;


const filtersOf = (value: unknown[]): FilterCondition[] => value.flatMap((item) => {
  const parsed = filterConditionSchema.safeParse(item);
  return parsed.success ? [parsed.data] : [];
});

const sortOf = (value: unknown): SortField | null => sortFieldSchema.safeParse(value).data ?? null;

function pulledRow(row: SyncScene): BaseRow {
  return {
    id: row.id, name: row.name, isDefault: row.isDefault, isSystem: row.isSystem, performanceId: row.performanceId,
    filterIds: row.filterIDs, titleIds: row.titleIDs, filters: row.filter, sortField: row.sortField, sortOrder: row.sortOrder, version: row.version, updateTime: row.updateTime,
  };
}

function baseScene(db: ReplicaTx, id: string): BaseRow | null {
  return db.select().from(ledgerScenes).where(eq(ledgerScenes.id, id)).get() ?? null;
}

export const sceneOverlay: OverlayEntity = {
  base: baseScene,
  setLocal(db, id, row) {
    db.delete(ledgerScenesLocal).where(eq(ledgerScenesLocal.id, id)).run();
    if (row) db.insert(ledgerScenesLocal).values(row as LocalScene).run();
  },
  name(db, id) {
    const local = db.select({ name: ledgerScenesLocal.name, deleted: ledgerScenesLocal.deleted }).from(ledgerScenesLocal).where(eq(ledgerScenesLocal.id, id)).get();
    if (local) return local.deleted ? null : local.name;
    return baseScene(db, id)?.name ?? null;
  },
  fields: (row) => {
    const { id: _id, version: _version, updateTime: _updateTime, ...fields } = row as BaseRow;
    return fields;
  },
  /** A scene's performance by its name, as the user's plans under it carry it. */
  valueName(db, _userId, field, value) {
    if (field !== 'performanceId') return null;
    return db.select({ name: performancePlans.performanceName }).from(performancePlans).where(eq(performancePlans.performanceId, value)).limit(1).get()?.name ?? null;
  },
};

/** Pulled scenes. A resync marks the base rows (version -1); those it does not bring again are gone at its end. */
export function scenePullWriter(): PullWriter<'scene'> {
  const { id: _id, ...updatable } = getTableColumns(ledgerScenes);
  const upsertSet = Object.fromEntries(Object.entries(updatable).map(([key, column]) => [key, sql.raw(`excluded.${column.name}`)]));
  return {
    page: (db) => ({
      write(change) {
        if (change.op === 'upsert') db.insert(ledgerScenes).values(pulledRow(change.row)).onConflictDoUpdate({ target: ledgerScenes.id, set: upsertSet }).run();
        else db.delete(ledgerScenes).where(eq(ledgerScenes.id, change.id)).run();
        return ['scene'];
      },
    }),
    startResync(db) {
      db.update(ledgerScenes).set({ version: -1 }).run();
      return [];
    },
    finishPull(db) {
      const gone = db.delete(ledgerScenes).where(eq(ledgerScenes.version, -1)).returning({ id: ledgerScenes.id }).all();
      return gone.map((row) => rowKey('scene', row.id));
    },
  };
}

/** Every scene as the user sees it (optimistic rows over base rows), deleted ones included, in display order. */
function allScenes(db: ReplicaTx): LocalScene[] {
  const local = new Map(db.select().from(ledgerScenesLocal).all().map((row) => [row.id, row]));
  const base = db.select().from(ledgerScenes).orderBy(asc(ledgerScenes.sortOrder), asc(ledgerScenes.id)).all();
  const merged: LocalScene[] = base.map((row) => local.get(row.id) ?? { ...row, deleted: false, defaultSetAt: null });
  for (const row of local.values()) if (!base.some((b) => b.id === row.id)) merged.push(row);
  return merged.sort((a, b) => a.sortOrder - b.sortOrder || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The scenes the ledger shows, in order, exactly one of them the default: the one a queued edit
 * made the default most recently, else the server's, else the first (its default was deleted here).
 */
export function readScenes(db: ReplicaTx): SceneView[] {
  const pending = new Set(db.select({ id: ledgerScenesLocal.id }).from(ledgerScenesLocal).all().map((row) => row.id));
  const live = allScenes(db).filter((scene) => !scene.deleted);
  const chosen =
    live.filter((scene) => scene.defaultSetAt !== null).sort((a, b) => (a.defaultSetAt! < b.defaultSetAt! ? 1 : -1))[0] ??
    live.find((scene) => scene.isDefault) ??
    live[0];
  return live.map((scene) => ({
    id: scene.id, name: scene.name, isDefault: scene === chosen, isSystem: scene.isSystem, performanceId: scene.performanceId,
    filterIDs: scene.filterIds, titleIDs: scene.titleIds, filter: filtersOf(scene.filters), sortField: sortOf(scene.sortField), pending: pending.has(scene.id),
  }));
}

/**
 * Where a scene made here goes: after every scene shown, except itself and the scenes made here
 * after it (ids are made in time order, uuidv7). A queued creation is replayed whenever its scene
 * is edited again, and the replay must put it back where it was, not after those made since.
 */
function newSceneOrder(db: ReplicaTx, id: string): number {
  const pulled = new Set(db.select({ id: ledgerScenes.id }).from(ledgerScenes).all().map((row) => row.id));
  return allScenes(db)
    .filter((scene) => scene.id !== id && (pulled.has(scene.id) || scene.id < id))
    .reduce((max, scene) => Math.max(max, scene.sortOrder + 1), 0);
}

function refuse(path: string, message: string): AppFailure {
  return new AppFailure('validation_failed', message, [{ path, message }]);
}

/**
 * What the server refuses of a scene's fields, from the field definitions this replica keeps:
 * `titleIds` are the scene's columns once edited, which a sort the edit gives must be one of.
 */
function checkFields(fields: readonly LedgerField[], patch: { titleIDs?: string[]; filterIDs?: string[]; filter?: FilterCondition[]; sortField?: SortField | null }, titleIds: readonly string[]): void {
  const known = new Set(fields.map((field) => field.id));
  const lists: [string, readonly string[] | undefined][] = [['titleIDs', patch.titleIDs], ['filterIDs', patch.filterIDs], ['filter', patch.filter?.map((f) => f.id)]];
  for (const [path, ids] of lists) {
    const unknown = ids?.find((id) => !known.has(id));
    if (unknown !== undefined) throw refuse(path, `unknown ledger field: ${unknown}`);
  }
  const problem = sceneSortProblem(patch.sortField ?? null, titleIds, fields);
  if (problem) throw refuse(problem.path, problem.message);
}

function checkName(db: ReplicaTx, name: string, exceptId: string | null): void {
  const others = readScenes(db).filter((scene) => scene.id !== exceptId).map((scene) => scene.name);
  const problem = sceneNameProblem(name, others);
  if (problem) throw refuse('name', problem);
}

/** The columns, 'name' first, as the server keeps them (its defaults when none are chosen). */
function titlesOf(fields: readonly LedgerField[], titleIDs: readonly string[]): string[] {
  const ids = titleIDs.length > 0 ? titleIDs : fields.filter((f) => f.isDefaultTitle).map((f) => f.id);
  return [nameFieldId, ...new Set(ids.filter((id) => id !== nameFieldId))];
}

type Patch = MutationArgs<'scene.update'>['patch'];

function patched(row: LocalScene, patch: Patch, fields: readonly LedgerField[], at: string): LocalScene {
  const titleIds = patch.titleIDs !== undefined ? titlesOf(fields, patch.titleIDs) : row.titleIds;
  return {
    ...row,
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.performanceId !== undefined && { performanceId: patch.performanceId }),
    titleIds,
    ...(patch.filterIDs !== undefined && { filterIds: [...new Set(patch.filterIDs)] }),
    ...(patch.filter !== undefined && { filters: patch.filter }),
    // Columns changed without a word of the sort: the sort goes with its column, as on the server.
    sortField: patch.sortField !== undefined ? patch.sortField : sortOfColumns(row.sortField, titleIds),
    updateTime: at,
  };
}

const asLocal = (row: unknown): LocalScene => {
  const scene = row as LocalScene;
  return { ...scene, deleted: scene.deleted ?? false, defaultSetAt: scene.defaultSetAt ?? null };
};

/** The client side of the scene mutations; `fields` are the ledger field definitions the replica keeps. */
export function sceneMutations(fields: (db: ReplicaTx) => readonly LedgerField[]): ClientMutations<'scene.create' | 'scene.update' | 'scene.delete' | 'scene.reorder' | 'scene.setDefault'> {
  const view = (id: string, changes: Record<string, unknown>) => ({ row: rowKey('scene', id), changes });
  return {
    'scene.create': {
      check(args, { db }) {
        checkName(db, args.name, null);
        checkFields(fields(db), args, titlesOf(fields(db), args.titleIDs));
        if (baseScene(db, args.id) || readScenes(db).some((scene) => scene.id === args.id)) throw refuse('id', 'a scene with this id exists');
      },
      apply(args, rows, { at, db }) {
        const sortOrder = newSceneOrder(db, args.id);
        rows.put(rowKey('scene', args.id), {
          id: args.id, name: args.name, isDefault: false, isSystem: false, performanceId: args.performanceId,
          filterIds: [...new Set(args.filterIDs)], titleIds: titlesOf(fields(db), args.titleIDs), filters: args.filter, sortField: args.sortField,
          sortOrder, version: 0, updateTime: at, deleted: false, defaultSetAt: null,
        } satisfies LocalScene);
      },
      view: (args) => ({ ...view(args.id, { name: args.name }), name: args.name }),
    },
    'scene.update': {
      check(args, { db }) {
        if (args.patch.name !== undefined) checkName(db, args.patch.name, args.id);
        const scene = readScenes(db).find((s) => s.id === args.id);
        checkFields(fields(db), args.patch, args.patch.titleIDs !== undefined ? titlesOf(fields(db), args.patch.titleIDs) : (scene?.titleIDs ?? []));
      },
      apply(args, rows, { at, db }) {
        const key = rowKey('scene', args.id);
        const row = rows.get(key);
        if (row) rows.put(key, patched(asLocal(row), args.patch, fields(db), at));
      },
      view: (args) => view(args.id, args.patch),
    },
    'scene.delete': {
      check(args, { db }) {
        const problem = sceneDeleteProblem(readScenes(db).find((scene) => scene.id === args.id));
        if (problem) throw refuse('id', problem);
      },
      apply(args, rows) {
        const key = rowKey('scene', args.id);
        const row = rows.get(key);
        if (row) rows.put(key, { ...asLocal(row), deleted: true });
      },
      view: (args) => view(args.id, { deleted: true }),
    },
    'scene.reorder': {
      check(args) {
        if (new Set(args.ids).size !== args.ids.length) throw refuse('ids', 'a scene is listed twice');
      },
      apply(args, rows) {
        args.ids.forEach((id, sortOrder) => {
          const key = rowKey('scene', id);
          const row = rows.get(key);
          if (row) rows.put(key, { ...asLocal(row), sortOrder });
        });
      },
      view: (args) => view(args.ids[0]!, { order: args.ids }),
    },
    'scene.setDefault': {
      check() {},
      apply(args, rows, { at }) {
        const key = rowKey('scene', args.id);
        const row = rows.get(key);
        if (row) rows.put(key, { ...asLocal(row), isDefault: true, defaultSetAt: at });
      },
      view: (args) => view(args.id, { isDefault: true }),
    },
  };
}
