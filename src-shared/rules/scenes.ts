import { nameFieldId, sceneMessages, sceneNameMax, type LedgerField, type SortField } from '../domain/ledger';
import { catalogueField } from '../domain/ledger-fields';

// A user's ledger scenes (spec 5 "Dashboard and ledger", 6): the rules the desktop checks before
// it queues an edit and the server checks when it applies it, and the list operations both sides
// apply the same way, so an offline edit shows exactly what the server will make of it.

/** What every list operation needs of a scene. */
export interface SceneOrderItem {
  id: string;
  name: string;
  isDefault: boolean;
  isSystem: boolean;
}

/** Why a (trimmed) name cannot be used beside the other scenes' names; null when it can. */
export function sceneNameProblem(name: string, otherNames: readonly string[]): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return sceneMessages.nameEmpty;
  if (trimmed.length > sceneNameMax) return `scene name must be at most ${sceneNameMax} characters`;
  if (otherNames.includes(trimmed)) return sceneMessages.nameDuplicated;
  return null;
}

/** Whether a scene with these columns shows `id` ('name' is always shown). */
const shows = (titleIDs: readonly string[], id: string) => id === nameFieldId || titleIDs.includes(id);

/**
 * Why a scene with the columns `titleIDs` cannot keep `sort` (an unknown field, one it does not
 * show, one the ledger cannot sort by, a type not the field's), as the issue to answer; null when it can.
 */
export function sceneSortProblem(sort: SortField | null, titleIDs: readonly string[], fields: readonly LedgerField[]): { path: string; message: string } | null {
  if (!sort) return null;
  const field = fields.find((f) => f.id === sort.id);
  if (!field) return { path: 'sortField.id', message: `unknown ledger field: ${sort.id}` };
  if (!shows(titleIDs, sort.id)) return { path: 'sortField.id', message: sceneMessages.sortNotShown };
  if (!catalogueField(sort.id)) return { path: 'sortField.id', message: `the ledger cannot sort by ${sort.id}` };
  if (sort.type !== undefined && sort.type !== field.type) return { path: 'sortField.type', message: `field ${field.id} is of type ${field.type}` };
  return null;
}

/**
 * A scene's kept sort once its columns are `titleIDs`: an edit of the columns alone takes the
 * sort away with its column, so edits of the two on two devices merge into a scene that holds.
 */
export function sortOfColumns(sort: SortField | null, titleIDs: readonly string[]): SortField | null {
  return sort && shows(titleIDs, sort.id) ? sort : null;
}

/** Exactly one default: the flagged one, else the first (after the default scene was deleted). */
function withOneDefault<T extends SceneOrderItem>(list: T[]): T[] {
  const chosen = list.find((scene) => scene.isDefault) ?? list[0];
  return list.map((scene) => ({ ...scene, isDefault: scene === chosen }));
}

/** Why the scene cannot be deleted; null when it can. */
export function sceneDeleteProblem(scene: SceneOrderItem | undefined): string | null {
  if (!scene) return null;
  return scene.isSystem ? sceneMessages.systemUndeletable : null;
}

/** The list without the scene; the first scene becomes the default when it was the default. */
export function withSceneDeleted<T extends SceneOrderItem>(list: readonly T[], id: string): T[] {
  return withOneDefault(list.filter((scene) => scene.id !== id));
}

/**
 * The list in the given order; scenes the order does not name (made elsewhere meanwhile) keep
 * their relative order after the named ones, and names of scenes gone meanwhile are skipped.
 */
export function withSceneOrder<T extends SceneOrderItem>(list: readonly T[], ids: readonly string[]): T[] {
  const rank = new Map(ids.map((id, i) => [id, i]));
  return [...list].sort((a, b) => (rank.get(a.id) ?? ids.length) - (rank.get(b.id) ?? ids.length));
}

/** The list with `id` as its only default (unchanged when there is no such scene). */
export function withDefaultScene<T extends SceneOrderItem>(list: readonly T[], id: string): T[] {
  if (!list.some((scene) => scene.id === id)) return [...list];
  return list.map((scene) => ({ ...scene, isDefault: scene.id === id }));
}
