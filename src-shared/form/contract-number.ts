import { DuplicateDialogType } from '../domain/enums';
import type { DuplicateResult } from './field-config';
import { fail, ok, type FormMessageKey, type RuleResult } from './messages';

// Spec 2 "Dialogs", spec 4 "Contract number" and spec 5: who may type the number, when the
// auto-numbering preview shows, and the duplicate check with its dialog.

/** Width of the auto-numbering rule preview popover (spec 2). */
export const numberingRulePopoverWidth = 400;

export interface ContractNumberContext {
  userId: string;
  /** Ids on the contract-number editors list. */
  editors: readonly string[];
  /** An automatic numbering rule applies to this contract. */
  automatic: boolean;
}

/** The input is editable for number editors, or when no auto mode applies. */
export function canEditContractNumber(context: ContractNumberContext): boolean {
  return !context.automatic || context.editors.includes(context.userId);
}

/** The rule preview shows when the number is automatic and the user cannot edit it. */
export function showsNumberingRulePreview(context: ContractNumberContext): boolean {
  return context.automatic && !canEditContractNumber(context);
}

export type DuplicateCheckRequest = { contractNumber: string } | { checkAll: true };

/** Checking one number needs the number: 'please enter the number'. */
export function duplicateCheckRequest(contractNumber: string | null | undefined): RuleResult<DuplicateCheckRequest> {
  const trimmed = contractNumber?.trim() ?? '';
  return trimmed === '' ? fail('enterNumber') : ok({ contractNumber: trimmed });
}

export const duplicateDialogTitles: Record<DuplicateDialogType, FormMessageKey> = {
  NoData: 'duplicateTitleNoData',
  All: 'duplicateTitleAll',
  Single: 'duplicateTitleSingle',
};

export interface DuplicateDialog {
  type: DuplicateDialogType;
  title: FormMessageKey;
  /** Only numbers that really have duplicates; each contract gets a 'view' link. */
  entries: DuplicateResult[];
  confirm: FormMessageKey;
}

/**
 * The dialog a duplicate check opens: NoData when nothing duplicates, else All (checkAll) or Single.
 * `holders`: what the listed numbers belong to; a template's number is checked against templates,
 * and the Single title names them.
 */
export function duplicateDialog(request: DuplicateCheckRequest, results: readonly DuplicateResult[], holders: 'contracts' | 'templates' = 'contracts'): DuplicateDialog {
  const entries = results.filter((r) => r.contractList.length > 0);
  const type = entries.length === 0 ? DuplicateDialogType.NoData : 'checkAll' in request ? DuplicateDialogType.All : DuplicateDialogType.Single;
  const title = type === DuplicateDialogType.Single && holders === 'templates' ? 'duplicateTitleSingleTemplate' : duplicateDialogTitles[type];
  return { type, title, entries, confirm: 'iKnow' };
}

/** The 'view' link of a listed contract: its detail, opened in a new tab (spec 2, routes). */
export function duplicateContractLink(contractId: string): string {
  return `/standingBook/detail?${new URLSearchParams({ contractId, mode: 'contract' }).toString()}`;
}
