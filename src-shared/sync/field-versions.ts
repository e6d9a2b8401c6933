// Per-field versions (architecture, sync rule 6). A row of an entity that keeps them holds, per
// field group ("name", "form:<field id>", …), the row version at which the group last changed;
// "*" is the floor for groups whose changes predate the keeping. The server decides conflicts
// with these; the engine's model test (tests/main/sync-fakes.ts) decides them the same way.

export type FieldVersions = Readonly<Record<string, number>>;

/** The row version at which `group` last changed. */
export function fieldVersionOf(versions: FieldVersions, group: string): number {
  return versions[group] ?? versions['*'] ?? 0;
}

/** The groups whose version differs between two states of a row: what happened in between changed them. */
export function changedGroups(before: FieldVersions, after: FieldVersions): string[] {
  return Object.keys(after).filter((group) => group !== '*' && after[group] !== before[group]);
}

/** The groups an edit changed that moved on the server after its base: where it conflicts. */
export function conflictingGroups(before: FieldVersions, changed: readonly string[], base: number): string[] {
  return changed.filter((group) => fieldVersionOf(before, group) > base);
}

/** The field group of one form value. */
export const formFieldGroup = (fieldId: string) => `form:${fieldId}`;

/** The field group of one sheet cell of a task (the column's value). */
export const valueFieldGroup = (columnId: string) => `value:${columnId}`;

/** A row's or an edit's fields by field group: each form value under its own, the rest as they are. */
export function byFieldGroup(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { formValues, ...rest } = fields;
  const form = typeof formValues === 'object' && formValues !== null ? Object.entries(formValues) : [];
  return { ...rest, ...Object.fromEntries(form.map(([id, value]) => [formFieldGroup(id), value])) };
}

/** The field group a refusal's issue names by its path in the edit's args ("formValues.<id>…", "patch.name"). */
export function issueFieldGroup(path: string): string {
  const bare = path.startsWith('patch.') ? path.slice('patch.'.length) : path;
  return bare.startsWith('formValues.') ? formFieldGroup(bare.slice('formValues.'.length).split('.')[0]!) : bare;
}

/** What a conflict error says of the field groups both sides changed (its issues' paths). */
export const conflictIssue = (group: string) => ({ path: group, message: 'changed on the server since this edit was made' });

/**
 * The field groups of every entity the core writes, by entity: the names the server's
 * sync_track_field_versions triggers write (server migrations 0020 and 0025, checked by
 * tests/server/sync-field-groups.test.ts) and the client and the engine's model decide with. A
 * group ending in ":*" stands for one group per key of a keyed value ("form:<field id>").
 */
export const entityFieldGroups = {
  contract: ['name', 'contractNumber', 'signDate', 'amount', 'contractTypeId', 'counterparty', 'status', 'responsible', 'template', 'project', 'archive', 'caseType', 'form:*'],
  performanceTask: ['name', 'type', 'state', 'completion', 'level', 'rowIndex', 'expirationTime', 'amount', 'leader', 'plan', 'front', 'value:*'],
  performancePlan: ['schedule', 'performance'],
  scene: ['name', 'isDefault', 'performanceId', 'filterIDs', 'filter', 'titleIDs', 'sortField', 'sortOrder'],
} as const;

/** An entity whose rows carry versions and field versions. */
export type VersionedEntity = keyof typeof entityFieldGroups;

type DeclaredGroup<E extends VersionedEntity> = (typeof entityFieldGroups)[E][number];

/** A field group of entity E: a declared one, or a key of a keyed one. */
export type FieldGroup<E extends VersionedEntity> = DeclaredGroup<E> extends infer G ? (G extends `${infer P}:*` ? `${P}:${string}` : G) : never;

/** Whether `group` is one of the entity's field groups (a keyed group's key included). */
export function isFieldGroupOf(entity: VersionedEntity, group: string): boolean {
  return (entityFieldGroups[entity] as readonly string[]).some((g) => g === group || (g.endsWith(':*') && group.startsWith(g.slice(0, -1)) && group.length > g.length - 1));
}
