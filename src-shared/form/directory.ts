import type { DirectoryDepartment, DirectoryUser } from '../api/directory';
import type { FormField } from './field-config';

// People and department fields (spec 3, "Field types"): chosen from the organisation's directory.
// A value keeps each entry's name beside its id, so it reads offline and after the directory
// changes; one entry, or a list when the field config says `multiple`.

export interface DirectoryEntry {
  id: string;
  name: string;
  /** What tells same-named entries apart: a user's department, a department's parent. */
  detail?: string;
}

/** What the field stores for one chosen entry. */
export type DirectoryValueEntry = { id?: string; name: string };

/** The most entries a picker lists at once: typing narrows the rest. */
export const directoryListLimit = 50;

export function isMultipleDirectoryField(field: Pick<FormField, 'multiple'>): boolean {
  return field.multiple === true;
}

/** The entries of a kept value: {id, name}, a list of them, or a bare name kept from elsewhere. */
export function directoryValueEntries(value: unknown): DirectoryValueEntry[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.flatMap((entry): DirectoryValueEntry[] => {
    if (typeof entry === 'string') return entry.trim() === '' ? [] : [{ name: entry }];
    if (typeof entry !== 'object' || entry === null) return [];
    const { id, name } = entry as { id?: unknown; name?: unknown };
    if (typeof name !== 'string' || name.trim() === '') return [];
    return [{ ...(typeof id === 'string' && { id }), name }];
  });
}

/** The field's value once `chosen` is the list of entries: a single field keeps one, or nothing. */
export function directoryValue(chosen: readonly DirectoryValueEntry[], multiple: boolean): DirectoryValueEntry | DirectoryValueEntry[] | undefined {
  if (chosen.length === 0) return undefined;
  return multiple ? [...chosen] : chosen[chosen.length - 1];
}

export function userEntries(users: readonly DirectoryUser[]): DirectoryEntry[] {
  return users.map((user) => ({ id: user.id, name: user.name, ...(user.department && { detail: user.department.name }) }));
}

export function departmentEntries(departments: readonly DirectoryDepartment[]): DirectoryEntry[] {
  const names = new Map(departments.map((d) => [d.id, d.name]));
  return departments.map((d) => {
    const parent = d.parent === null ? undefined : names.get(d.parent);
    return { id: d.id, name: d.name, ...(parent && { detail: parent }) };
  });
}

/** The entries whose name or detail contains the typed text (any case), not yet chosen, at most the limit. */
export function searchDirectory(entries: readonly DirectoryEntry[], typed: string, chosenIds: ReadonlySet<string>): { shown: DirectoryEntry[]; more: boolean } {
  const needle = typed.trim().toLocaleLowerCase();
  const matches = entries.filter(
    (e) => !chosenIds.has(e.id) && (needle === '' || e.name.toLocaleLowerCase().includes(needle) || (e.detail?.toLocaleLowerCase().includes(needle) ?? false)),
  );
  return { shown: matches.slice(0, directoryListLimit), more: matches.length > directoryListLimit };
}
