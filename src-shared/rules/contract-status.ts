import { ContractStatus } from '../domain/enums';
import type { UserRole } from '../domain/user';
import { AppFailure, reason } from '../errors';

// The approval state machine of contracts and templates (spec 4, "Contract statuses"), shared so
// the server enforces it, the core refuses at once what the server would refuse, and the screens
// offer only the steps the server will accept.

export type ApprovalAction = 'submit' | 'approve' | 'reject' | 'archive';
/** The steps a user takes from the contract and template approval pages; archiving has its own action (it needs the archived PDF). */
export const approvalSteps = ['submit', 'approve', 'reject'] as const satisfies readonly ApprovalAction[];
export type ApprovalStep = (typeof approvalSteps)[number];
export type ApprovalSubject = 'contract' | 'template';
/** The longest comment a step keeps (the REST body's limit). */
export const approvalCommentMax = 2000;

/** Where each step may start and where it leads. */
export const approvalTransitions: Record<ApprovalAction, { from: readonly ContractStatus[]; to: ContractStatus }> = {
  submit: { from: [ContractStatus.Drafting, ContractStatus.ApprovalRejected], to: ContractStatus.UnderApproval },
  approve: { from: [ContractStatus.UnderApproval], to: ContractStatus.Approved },
  reject: { from: [ContractStatus.UnderApproval], to: ContractStatus.ApprovalRejected },
  archive: { from: [ContractStatus.Approved], to: ContractStatus.Archived },
};

const statusNames: Record<ContractStatus, string> = {
  1: 'drafting',
  2: 'under approval',
  3: 'approval rejected',
  4: 'approved',
  5: 'archived',
};

export function statusName(status: ContractStatus | null): string {
  return status === null ? 'without a status' : statusNames[status];
}

/** Statuses in which the document itself may still be edited or deleted (approved ones are altered). */
export const editableStatuses: readonly (ContractStatus | null)[] = [ContractStatus.Drafting, ContractStatus.ApprovalRejected, null];

export function isEditableStatus(status: ContractStatus | null): boolean {
  return editableStatuses.includes(status);
}

/** Approving and rejecting are for administrators (the approvers of this product). */
export function mayTake(role: UserRole, action: ApprovalAction): boolean {
  return role === 'admin' || (action !== 'approve' && action !== 'reject');
}

/** Why this role may not take the step at all, or undefined. */
export function approverRefusal(role: UserRole, action: ApprovalAction): AppFailure | undefined {
  return mayTake(role, action) ? undefined : new AppFailure('forbidden', `only approvers (administrators) may ${action}`, undefined, reason('notApprover', { step: action }));
}

/** Why the step cannot start from `current`, or undefined. */
export function transitionRefusal(subject: ApprovalSubject, action: ApprovalAction, current: ContractStatus | null): AppFailure | undefined {
  const transition = approvalTransitions[action];
  if (current !== null && transition.from.includes(current)) return undefined;
  const allowed = transition.from.map((s) => statusNames[s]).join(' or ');
  const why = reason('transitionRefused', { subject, status: current ?? 'none', stepDone: action, allowed: transition.from });
  return new AppFailure('conflict', `cannot ${action} a ${subject} that is ${statusName(current)}: only a ${subject} that is ${allowed} can be`, undefined, why);
}

/** Why this user may not take the step now (the server's refusal, checked in the server's order), or undefined. */
export function stepRefusal(subject: ApprovalSubject, action: ApprovalAction, current: ContractStatus | null, role: UserRole): AppFailure | undefined {
  return approverRefusal(role, action) ?? transitionRefusal(subject, action, current);
}

/** The approval steps to offer this user on a record in status `current`. */
export function allowedSteps(subject: ApprovalSubject, current: ContractStatus | null, role: UserRole): ApprovalStep[] {
  return approvalSteps.filter((action) => !stepRefusal(subject, action, current, role));
}
