import { describe, expect, it } from 'vitest';
import { contractStatuses } from '../../src-shared/domain/enums';
import { directStatusSteps, isEditableStatus, mayTake, stepBetween } from '../../src-shared/rules/contract-status';

describe('contract status rules', () => {
  it('edits the document only while drafting, rejected or without a status', () => {
    expect([null, ...contractStatuses].filter(isEditableStatus)).toEqual([null, 1, 3]);
  });

  it('finds the one step between two statuses, and none for a jump', () => {
    expect(stepBetween(1, 2)).toBe('submit');
    expect(stepBetween(3, 2)).toBe('submit');
    expect(stepBetween(2, 4)).toBe('approve');
    expect(stepBetween(2, 3)).toBe('reject');
    expect(stepBetween(4, 5)).toBe('archive');
    expect(stepBetween(1, 4)).toBeUndefined();
    expect(stepBetween(1, 5)).toBeUndefined();
    expect(stepBetween(5, 1)).toBeUndefined();
    expect(stepBetween(null, 2)).toBeUndefined();
  });

  it('leaves approving and rejecting to administrators', () => {
    expect(mayTake('staff', 'submit')).toBe(true);
    expect(mayTake('staff', 'approve')).toBe(false);
    expect(mayTake('staff', 'reject')).toBe(false);
    expect(mayTake('admin', 'approve')).toBe(true);
  });

  it('offers as direct status edits only the steps the user may take, never archiving', () => {
    expect(directStatusSteps(1, 'staff')).toEqual([2]);
    expect(directStatusSteps(2, 'staff')).toEqual([]);
    expect(directStatusSteps(2, 'admin')).toEqual([4, 3]);
    expect(directStatusSteps(4, 'admin')).toEqual([]);
    expect(directStatusSteps(null, 'admin')).toEqual([]);
  });
});
