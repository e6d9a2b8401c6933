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

/** A row's or an edit's fields by field group: each form value under its own, the rest as they are. */
export function byFieldGroup(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { formValues, ...rest } = fields;
  const form = typeof formValues === 'object' && formValues !== null ? Object.entries(formValues) : [];
  return { ...rest, ...Object.fromEntries(form.map(([id, value]) => [formFieldGroup(id), value])) };
}

/** What a conflict error says of the field groups both sides changed (its issues' paths). */
export const conflictIssue = (group: string) => ({ path: group, message: 'changed on the server since this edit was made' });
