import type { FieldOption } from '../form/field-config';
import { cascaderPath } from '../form/options';
import type { CaseTypeNode } from '../domain/ledger';

// The cascader's pure rules (spec 2 and 3): a case type in state 2 is disabled with everything
// under it; leaves are what is chosen; a multiple choice toggles a leaf, or every choosable leaf
// under a node at once.

/** Spec 3: case type state 2 means disabled. */
export const caseTypeDisabledState = 2;

export function caseTypeOptions(nodes: readonly CaseTypeNode[]): FieldOption[] {
  return nodes.map((node) => ({
    id: node.id,
    name: node.name,
    disabled: node.state === caseTypeDisabledState,
    ...(node.children.length > 0 ? { children: caseTypeOptions(node.children) } : {}),
  }));
}

/** The choosable leaves at or under `option` (none under a disabled node). */
export function choosableLeaves(option: FieldOption): string[] {
  if (option.disabled) return [];
  if (!option.children?.length) return [option.id];
  return option.children.flatMap(choosableLeaves);
}

/** A multiple choice after clicking `option`: a leaf toggles; a node adds all its leaves, or removes them when all were in. */
export function toggleChoice(chosen: readonly string[], option: FieldOption): string[] {
  const leaves = choosableLeaves(option);
  if (leaves.length === 0) return [...chosen];
  const allIn = leaves.every((id) => chosen.includes(id));
  return allIn ? chosen.filter((id) => !leaves.includes(id)) : [...chosen, ...leaves.filter((id) => !chosen.includes(id))];
}

/** How much of a node is chosen, for its checkbox: all, some or none of its choosable leaves. */
export function choiceState(chosen: readonly string[], option: FieldOption): 'all' | 'some' | 'none' {
  const leaves = choosableLeaves(option);
  const count = leaves.filter((id) => chosen.includes(id)).length;
  return count === 0 ? 'none' : count === leaves.length ? 'all' : 'some';
}

/** The names along the path to `id`, joined; '' for an id not in the tree. */
export function pathLabel(options: readonly FieldOption[], id: string, separator = ' / '): string {
  return cascaderPath(options, id).map((o) => o.name).join(separator);
}
