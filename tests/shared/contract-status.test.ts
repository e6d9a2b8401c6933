import { describe, expect, it } from 'vitest';
import { contractStatuses } from '../../src-shared/domain/enums';
import { allowedSteps, isEditableStatus, mayTake, stepRefusal } from '../../src-shared/rules/contract-status';
import { mutations, retiredReason, rowsOf, statusByHandMessage } from '../../src-shared/sync/mutations';

describe('contract status rules', () => {
  it('edits the document only while drafting, rejected or without a status', () => {
    expect([null, ...contractStatuses].filter(isEditableStatus)).toEqual([null, 1, 3]);
  });

  it('leaves approving and rejecting to administrators', () => {
    expect(mayTake('staff', 'submit')).toBe(true);
    expect(mayTake('staff', 'approve')).toBe(false);
    expect(mayTake('staff', 'reject')).toBe(false);
    expect(mayTake('admin', 'approve')).toBe(true);
  });

  it('allows submit from drafting or rejected, approve and reject from under approval, nothing else', () => {
    const legal = (role: 'admin' | 'staff') => Object.fromEntries([null, ...contractStatuses].map((status) => [String(status), allowedSteps('contract', status, role)]));
    expect(legal('admin')).toEqual({ null: [], 1: ['submit'], 2: ['approve', 'reject'], 3: ['submit'], 4: [], 5: [] });
    expect(legal('staff')).toEqual({ null: [], 1: ['submit'], 2: [], 3: ['submit'], 4: [], 5: [] });
  });

  it("words a refusal as the server does: who may take it first, then the status it needs", () => {
    expect(stepRefusal('contract', 'approve', 4, 'staff')?.error).toEqual({
      code: 'forbidden',
      message: 'only approvers (administrators) may approve',
      reason: { key: 'notApprover', params: { step: 'approve' } },
    });
    expect(stepRefusal('contract', 'reject', 4, 'admin')?.error).toEqual({
      code: 'conflict',
      message: 'cannot reject a contract that is approved: only a contract that is under approval can be',
      reason: { key: 'transitionRefused', params: { subject: 'contract', status: 4, stepDone: 'reject', allowed: [2] } },
    });
    expect(stepRefusal('template', 'submit', 2, 'staff')?.error.message).toBe('cannot submit a template that is under approval: only a template that is drafting or approval rejected can be');
    expect(stepRefusal('contract', 'submit', null, 'admin')?.error.message).toContain('that is without a status');
    expect(stepRefusal('contract', 'submit', 3, 'staff')).toBeUndefined();
  });
});

describe('the approval step mutation', () => {
  const id = '0192f000-0000-7000-8000-000000000001';

  it('moves the contract without a base version, and takes only the three steps with a short comment', () => {
    const args = mutations['contract.approvalStep'].args;
    expect(rowsOf('contract.approvalStep', { id, action: 'submit' })).toEqual({ touches: [], creates: [], moves: [`contract:${id}`], removes: [] });
    expect(args.parse({ id, action: 'reject', comment: '  too vague  ' })).toEqual({ id, action: 'reject', comment: 'too vague' });
    expect(args.safeParse({ id, action: 'archive' }).success).toBe(false);
    expect(args.safeParse({ id, action: 'reject', comment: 'x'.repeat(2001) }).success).toBe(false);
    expect(args.safeParse({ id, action: 'approve', status: 4 }).success).toBe(false);
  });

  it('no longer sets a status by contract.update, and names why for an edit of an earlier version', () => {
    expect(mutations['contract.update'].args.safeParse({ id, patch: { status: 2 } }).success).toBe(false);
    expect(retiredReason('contract.update', { id, patch: { name: 'x', status: 2 } })).toEqual({ message: statusByHandMessage, reason: { key: 'statusByHand' } });
    expect(retiredReason('contract.update', { id, patch: { name: 'x' } })).toBeUndefined();
    expect(retiredReason('contract.update', 'not an object')).toBeUndefined();
  });
});
