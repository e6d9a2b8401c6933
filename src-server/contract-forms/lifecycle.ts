import { v7 as uuidv7 } from 'uuid';
import type { ContractStatus } from '../../src-shared/domain/enums';
import { approvalTransitions, approverRefusal, isEditableStatus, statusName, transitionRefusal, type ApprovalAction, type ApprovalSubject } from '../../src-shared/rules/contract-status';
import { AppFailure, reason } from '../../src-shared/errors';
import type { SessionUser } from '../auth/service';
import type { ServerDb } from '../db/database';
import { approvalRecords } from './schema';

// The approval state machine shared by contracts and templates (spec 4, "Contract statuses"): the
// rules are src-shared's (the core checks the same ones before queueing); here they throw.

export type { ApprovalAction } from '../../src-shared/rules/contract-status';

/** The status a step leads to, or a conflict naming why the step is not allowed now. */
export function nextStatus(subject: ApprovalSubject, action: ApprovalAction, current: ContractStatus | null): ContractStatus {
  const refusal = transitionRefusal(subject, action, current);
  if (refusal) throw refusal;
  return approvalTransitions[action].to;
}

/** Approving and rejecting are for administrators (the approvers of this product). */
export function checkApprover(user: Pick<SessionUser, 'role'>, action: ApprovalAction): void {
  const refusal = approverRefusal(user.role, action);
  if (refusal) throw refusal;
}

export function checkEditable(subject: ApprovalSubject, status: ContractStatus | null): void {
  if (!isEditableStatus(status)) {
    const why = subject === 'contract' ? reason('notEditableContract', { status: status ?? 'none' }) : reason('notEditable', { subject, status: status ?? 'none' });
    throw new AppFailure('conflict', `a ${subject} that is ${statusName(status)} cannot be edited or deleted${subject === 'contract' ? ': alter an approved contract instead' : ''}`, undefined, why);
  }
}

export async function recordApproval(
  tx: ServerDb,
  record: {
    subjectKind: ApprovalSubject;
    subjectId: string;
    action: ApprovalAction;
    fromStatus: ContractStatus | null;
    toStatus: ContractStatus;
    userId: string;
    comment?: string;
    fileId?: string;
    /** The device's time of a step queued offline. */
    takenAt?: Date;
  },
  at: Date,
): Promise<void> {
  await tx.insert(approvalRecords).values({ id: uuidv7(), ...record, comment: record.comment ?? null, fileId: record.fileId ?? null, takenAt: record.takenAt ?? null, createTime: at });
}
