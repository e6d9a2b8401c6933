import type { RelationGroup } from './field-config';
import { formMessage, type FormMessage } from './messages';

// Spec 5, "Related contracts": every relation group holds at least two related contracts, each
// with a contract name and a relationship.

export const minRelatedContracts = 2;

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
