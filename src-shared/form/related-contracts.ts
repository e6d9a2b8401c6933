import type { FieldOption, RelationGroup } from './field-config';
import { formMessage, type FormMessage } from './messages';

// Spec 5, "Related contracts": every relation group holds at least two related contracts, each
// with a contract name and a relationship.

export const minRelatedContracts = 2;

/**
 * The relationships a related contract may have to this one when the field's config lists none
 * (the spec names none; defined here): its id is the row's relationshipID, its key names it in
 * the catalogs. A field's own options, where given, replace these.
 */
export const defaultRelationships = [
  { id: 1, key: 'mainContract' },
  { id: 2, key: 'supplement' },
  { id: 3, key: 'amendment' },
  { id: 4, key: 'renewal' },
  { id: 5, key: 'termination' },
  { id: 6, key: 'frameworkOrder' },
] as const;
export type RelationshipKey = (typeof defaultRelationships)[number]['key'];

/** The relationships to choose from: the field's options, else the defaults (each with its catalog key). */
export function relationshipChoices(options: readonly FieldOption[] | undefined): { id: number; name?: string; key?: RelationshipKey }[] {
  const own = (options ?? []).flatMap((option) => (Number.isInteger(Number(option.id)) && Number(option.id) !== 0 ? [{ id: Number(option.id), name: option.name }] : []));
  return own.length > 0 ? own : defaultRelationships.map(({ id, key }) => ({ id, key }));
}

/** How many candidates a related-contract search shows at most. */
export const relatedCandidateLimit = 20;

export interface RelatedContractsIssue {
  /** Index of the relation group, and of the row inside it when the row is at fault. */
  group: number;
  row?: number;
  message: FormMessage;
}

export function isRelatedContractRowValid(row: RelationGroup['relatedContracts'][number]): boolean {
  return row.contractName.trim() !== '' && row.relationshipID !== 0;
}

export function validateRelatedContracts(groups: readonly RelationGroup[]): RelatedContractsIssue[] {
  return groups.flatMap((group, groupIndex) => {
    const rows = group.relatedContracts.flatMap((row, rowIndex) =>
      isRelatedContractRowValid(row) ? [] : [{ group: groupIndex, row: rowIndex, message: formMessage('relatedContractInvalid') }],
    );
    const tooFew = group.relatedContracts.length < minRelatedContracts ? [{ group: groupIndex, message: formMessage('relatedContractsMin') }] : [];
    return [...tooFew, ...rows];
  });
}
