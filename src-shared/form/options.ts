import type { FieldOption } from './field-config';

// Option lists of select-like fields: dynamic selects load pages that are appended as they
// arrive (spec 7), cascaders (such as case type) can have disabled nodes (spec 2).

/** Appends a loaded page, skipping options already listed (pages can overlap as data changes). */
export function appendOptionPage(loaded: readonly FieldOption[], page: readonly FieldOption[]): FieldOption[] {
  const seen = new Set(loaded.map((o) => o.id));
  return [...loaded, ...page.filter((o) => !seen.has(o.id))];
}

/** The names from the root down to the option with this id; empty when there is none. */
export function cascaderPath(options: readonly FieldOption[], id: string): FieldOption[] {
  for (const option of options) {
    if (option.id === id) return [option];
    const below = cascaderPath(option.children ?? [], id);
    if (below.length > 0) return [option, ...below];
  }
  return [];
}

/** A node can be chosen unless it or one of its ancestors is disabled. */
export function isSelectableOption(options: readonly FieldOption[], id: string): boolean {
  const path = cascaderPath(options, id);
  return path.length > 0 && path.every((o) => !o.disabled);
}

/** Keeps the chosen ids that can still be chosen (single or multi select). */
export function selectableValues(options: readonly FieldOption[], ids: readonly string[]): string[] {
  return ids.filter((id) => isSelectableOption(options, id));
}
