import { describe, expect, it } from 'vitest';
import { TaskState } from '../../src-shared/domain/enums';
import { quickTaskPayloadSchema } from '../../src-shared/domain/performance';
import { batchFinishRecord, finishRecord } from '../../src-shared/rules/fulfilment';
import { defaultPerformanceForm, editedState, effectiveState, effectiveStateFilter, openStateFor, organisationDay, stateAfterEdit, taskTypeFor } from '../../src-shared/rules/performance';

describe('performance task rules', () => {
  it('an unfinished task is overdue once its due date has passed, pending otherwise', () => {
    expect(openStateFor('2026-11-20', '2026-11-21')).toBe(TaskState.Overdue);
    expect(openStateFor('2026-11-21', '2026-11-21')).toBe(TaskState.InProgress);
    expect(openStateFor(null, '2026-11-21')).toBe(TaskState.InProgress);
  });

  it('shows a pending task past its date as overdue, and never touches finished or incomplete ones', () => {
    expect(effectiveState(TaskState.InProgress, '2026-01-01', '2026-11-21')).toBe(TaskState.Overdue);
    expect(effectiveState(TaskState.NotStarted, '2026-01-01', '2026-11-21')).toBe(TaskState.Overdue);
    expect(effectiveState(TaskState.Success, '2026-01-01', '2026-11-21')).toBe(TaskState.Success);
    expect(effectiveState(TaskState.Incomplete, '2026-01-01', '2026-11-21')).toBe(TaskState.Incomplete);
    expect(editedState(TaskState.Incomplete, '2099-01-01', '2026-11-21')).toBe(TaskState.Incomplete);
    expect(editedState(TaskState.Overdue, '2099-01-01', '2026-11-21')).toBe(TaskState.InProgress);
  });

  it('filters on the effective state by conditions on the stored state and due date alone, for every set of states asked', () => {
    const today = '2026-11-21';
    const states = [TaskState.NotStarted, TaskState.InProgress, TaskState.Overdue, TaskState.Success, TaskState.Incomplete];
    const dues = [null, '2026-11-20', today, '2026-11-22'];
    // Every subset of the states, plus one with a value no task has.
    const asked = [...Array.from({ length: 1 << states.length }, (_, bits) => states.filter((_, k) => (bits >> k) & 1)), [TaskState.Overdue, 9]];
    for (const set of asked) {
      const { always, beforeDue, afterDue } = effectiveStateFilter(set);
      for (const state of states) {
        for (const due of dues) {
          const matched = always.includes(state) || (beforeDue.includes(state) && (due === null || due >= today)) || (afterDue.includes(state) && due !== null && due < today);
          expect(matched, `${JSON.stringify(set)} ${state} ${due}`).toBe((set as number[]).includes(effectiveState(state, due, today)));
        }
      }
      expect(new Set([...always, ...beforeDue, ...afterDue]).size, JSON.stringify(set)).toBe(always.length + beforeDue.length + afterDue.length);
    }
    expect(effectiveStateFilter([TaskState.Overdue])).toEqual({ always: [TaskState.Overdue], beforeDue: [], afterDue: [TaskState.NotStarted, TaskState.InProgress] });
  });

  it('moves the state of an edited task only when its due date moved (issue 28)', () => {
    expect(stateAfterEdit(TaskState.NotStarted, '2099-01-01', '2099-01-01', '2026-11-21')).toBe(TaskState.NotStarted);
    expect(stateAfterEdit(TaskState.NotStarted, null, null, '2026-11-21')).toBe(TaskState.NotStarted);
    expect(stateAfterEdit(TaskState.NotStarted, '2099-01-01', '2026-01-01', '2026-11-21')).toBe(TaskState.Overdue);
    expect(stateAfterEdit(TaskState.Incomplete, '2099-01-01', '2026-01-01', '2026-11-21')).toBe(TaskState.Incomplete);
  });

  it('records a finish amount per task: the entered one, else the task\'s own; a batch never puts one amount on every task (issue 28)', () => {
    const task = { id: 't1', receivableAmount: 1_755_000, payableAmount: null, amountUnit: 'CNY' };
    expect(finishRecord(task, {})).toEqual({ finishedAmount: 1_755_000, completionValues: {} });
    expect(finishRecord(task, { amount: 12.345, configFields: { note: 'x' } })).toEqual({ finishedAmount: 1235, completionValues: { note: 'x' } });
    const shared = { finishDate: '2026-11-20', finishAmount: { amount: 3_510_000, unit: 'CNY' } };
    expect(batchFinishRecord(task, { configFields: shared })).toEqual({ finishedAmount: 1_755_000, completionValues: { finishDate: '2026-11-20', finishAmount: { amount: 1_755_000, unit: 'CNY' } } });
    expect(batchFinishRecord(task, { configFields: { finishDate: '2026-11-20' }, finishAmounts: { t1: { amount: 100, unit: 'USD' } } })).toEqual({
      finishedAmount: 100,
      completionValues: { finishDate: '2026-11-20', finishAmount: { amount: 100, unit: 'USD' } },
    });
    // Neither an amount field nor an amount for the task: no amount is added to its values.
    expect(batchFinishRecord(task, { configFields: { finishDate: '2026-11-20' } }).completionValues).toEqual({ finishDate: '2026-11-20' });
    // A task without an amount of its own records none, whatever the batch typed.
    expect(batchFinishRecord({ ...task, receivableAmount: null, amountUnit: null }, { configFields: shared })).toEqual({ finishedAmount: null, completionValues: { finishDate: '2026-11-20' } });
  });

  it('makes the type receivable or payable when such an amount exists', () => {
    expect(taskTypeFor('invoicing', { payableAmount: 1, receivableAmount: null })).toBe('payable');
    expect(taskTypeFor('payment', { payableAmount: 1, receivableAmount: 5 })).toBe('receivable');
    expect(taskTypeFor('invoicing', { payableAmount: 0, receivableAmount: null })).toBe('invoicing');
  });

  it('counts days in Beijing', () => {
    expect(organisationDay(new Date('2026-11-21T16:30:00Z'))).toBe('2026-11-22');
  });

  it('gives money types a money column and completion amount', () => {
    expect(defaultPerformanceForm('collection').columns.map((c) => c.id)).toContain('receivableAmount');
    expect(defaultPerformanceForm('expiration').fields.map((f) => f.id)).not.toContain('finishAmount');
  });

  it('validates the quick task payload with the spec’s messages', () => {
    const result = quickTaskPayloadSchema.safeParse({ name: ' ', type: 'custom', fieldList: [{ id: 'd', name: 'd', type: 'date', value: '2026-02-30' }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message).sort()).toEqual(['Please enter the performance content', 'Please select the performance date']);
  });
});
