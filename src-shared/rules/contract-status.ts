import { ContractStatus } from '../domain/enums';

// The approval state machine of contracts and templates (spec 4, "Contract statuses"), shared so
// the server enforces it and the desktop offers only the steps the server will accept.

export type ApprovalAction = 'submit' | 'approve' | 'reject' | 'archive';

/** Where each step may start and where it leads. */
export const approvalTransitions: Record<ApprovalAction, { from: readonly ContractStatus[]; to: ContractStatus }> = {
  submit: { from: [ContractStatus.Drafting, ContractStatus.ApprovalRejected], to: ContractStatus.UnderApproval },
  approve: { from: [ContractStatus.UnderApproval], to: ContractStatus.Approved },
  reject: { from: [ContractStatus.UnderApproval], to: ContractStatus.ApprovalRejected },
  archive: { from: [ContractStatus.Approved], to: ContractStatus.Archived },
};

/** Statuses in which the document itself may still be edited or deleted (approved ones are altered). */
export const editableStatuses: readonly (ContractStatus | null)[] = [ContractStatus.Drafting, ContractStatus.ApprovalRejected, null];

export function isEditableStatus(status: ContractStatus | null): boolean {
  return editableStatuses.includes(status);
}

/** Approving and rejecting are for administrators (the approvers of this product). */
export function mayTake(role: 'admin' | 'staff', action: ApprovalAction): boolean {
  return role === 'admin' || (action !== 'approve' && action !== 'reject');
}

/** The step leading from `current` to `target`, if one step does. */
export function stepBetween(current: ContractStatus | null, target: ContractStatus): ApprovalAction | undefined {
  if (current === null) return undefined;
  return (Object.keys(approvalTransitions) as ApprovalAction[]).find(
    (action) => approvalTransitions[action].to === target && approvalTransitions[action].from.includes(current),
  );
}

/**
 * The statuses a user may set directly from `current` (a status edit, as the desktop's ledger
 * offers): one approval step they may take. Archiving needs the archived PDF, so it has its own
 * action and is never offered here.
 */
export function directStatusSteps(current: ContractStatus | null, role: 'admin' | 'staff'): ContractStatus[] {
  return (Object.keys(approvalTransitions) as ApprovalAction[])
    .filter((action) => action !== 'archive' && mayTake(role, action) && current !== null && approvalTransitions[action].from.includes(current))
    .map((action) => approvalTransitions[action].to);
}
