import { v7 as uuidv7 } from 'uuid';
import type { ContractStatus } from '../../src-shared/domain/enums';
import { approvalTransitions as transitions, isEditableStatus, mayTake, stepBetween, type ApprovalAction } from '../../src-shared/rules/contract-status';
import { AppFailure } from '../../src-shared/errors';
import type { SessionUser } from '../auth/service';
import type { ServerDb } from '../db/database';
import { approvalRecords } from './schema';

// The approval state machine shared by contracts and templates (spec 4, "Contract statuses").

export type { ApprovalAction } from '../../src-shared/rules/contract-status';

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

/** The status a step leads to, or a conflict naming why the step is not allowed now. */
export function nextStatus(subject: 'contract' | 'template', action: ApprovalAction, current: ContractStatus | null): ContractStatus {
  const transition = transitions[action];
  if (current === null || !transition.from.includes(current)) {
    const allowed = transition.from.map((s) => statusNames[s]).join(' or ');
    throw new AppFailure('conflict', `cannot ${action} a ${subject} that is ${statusName(current)}: only a ${subject} that is ${allowed} can be`);
  }
  return transition.to;
}

/** Approving and rejecting are for administrators (the approvers of this product). */
export function checkApprover(user: Pick<SessionUser, 'role'>, action: ApprovalAction): void {
  if (!mayTake(user.role, action)) {
    throw new AppFailure('forbidden', `only approvers (administrators) may ${action}`);
  }
}

/**
 * The step that moves `current` to `target` (a status set directly, as the sync mutation
 * contract.update may), or a conflict when no single step does. Archiving needs the archived
 * PDF, so it is refused here and done through the archive call.
 */
export function actionLeadingTo(subject: 'contract' | 'template', current: ContractStatus | null, target: ContractStatus): ApprovalAction {
  const action = stepBetween(current, target);
  if (!action) throw new AppFailure('conflict', `a ${subject} that is ${statusName(current)} cannot become ${statusNames[target]} in one step`);
  if (action === 'archive') throw new AppFailure('conflict', `archiving a ${subject} needs the archived PDF: use the archive action`);
  return action;
}

export function checkEditable(subject: 'contract' | 'template', status: ContractStatus | null): void {
  if (!isEditableStatus(status)) {
    throw new AppFailure('conflict', `a ${subject} that is ${statusName(status)} cannot be edited or deleted${subject === 'contract' ? ': alter an approved contract instead' : ''}`);
  }
}

export async function recordApproval(
  tx: ServerDb,
  record: { subjectKind: 'contract' | 'template'; subjectId: string; action: ApprovalAction; fromStatus: ContractStatus | null; toStatus: ContractStatus; userId: string; comment?: string; fileId?: string },
  at: Date,
): Promise<void> {
  await tx.insert(approvalRecords).values({ id: uuidv7(), ...record, comment: record.comment ?? null, fileId: record.fileId ?? null, createTime: at });
}
