import { DateTime } from 'luxon';
import { TaskState } from '../domain/enums';
import type { FormField, PerformanceTaskType, SheetColumn } from '../domain/performance';

// The performance task rules (spec 4 "Performance tasks", spec 9), shared by the server that
// enforces them and the clients that show them.

/** The organisation works in Beijing: "today" and due dates are its calendar days. */
export const organisationZone = 'Asia/Shanghai';

/** yyyy-MM-dd of `at` in the organisation's calendar. */
export function organisationDay(at: Date): string {
  return DateTime.fromJSDate(at, { zone: organisationZone }).toFormat('yyyy-MM-dd');
}

/**
 * The state an unfinished task is in on `today`: overdue once its due date has passed, otherwise
 * pending (in progress). Restoring a finished task returns it to this state.
 */
export function openStateFor(dueDate: string | null, today: string): TaskState {
  return dueDate !== null && dueDate < today ? TaskState.Overdue : TaskState.InProgress;
}

/** The state after an edit of an unfinished task: a task marked incomplete stays so; others follow the due date. */
export function editedState(state: TaskState, dueDate: string | null, today: string): TaskState {
  return state === TaskState.Incomplete ? state : openStateFor(dueDate, today);
}

/** The state shown and counted on `today`: a stored pending state whose date has passed is overdue. */
export function effectiveState(state: TaskState, dueDate: string | null, today: string): TaskState {
  const pending = state === TaskState.NotStarted || state === TaskState.InProgress;
  return pending && dueDate !== null && dueDate < today ? TaskState.Overdue : state;
}

/**
 * The task type becomes receivable or payable when a receivable or payable amount exists
 * (spec 4); receivable wins when both do. Otherwise the type stays as it is.
 */
export function taskTypeFor(type: string, amounts: { payableAmount: number | null; receivableAmount: number | null }): string {
  if ((amounts.receivableAmount ?? 0) > 0) return 'receivable';
  if ((amounts.payableAmount ?? 0) > 0) return 'payable';
  return type;
}

/** The columns and completion fields a new performance of a task type starts with (default_form). */
export function defaultPerformanceForm(type: PerformanceTaskType): { fields: FormField[]; columns: SheetColumn[] } {
  const money = type === 'receivable' || type === 'collection' ? 'receivableAmount' : type === 'payable' || type === 'payment' ? 'payableAmount' : null;
  const columns: SheetColumn[] = [
    { id: 'name', name: 'performance content', type: 'text', isRequired: true, isState: false },
    { id: 'expirationTime', name: 'performance date', type: 'date', isRequired: true, isState: false },
    ...(money ? [{ id: money, name: money === 'receivableAmount' ? 'receivable amount' : 'payable amount', type: 'money' as const, isRequired: true, isState: false }] : []),
    { id: 'leader', name: 'task leader', type: 'people', config: { singleSelect: true }, isRequired: false, isState: false },
    { id: 'taskState', name: 'task state', type: 'select', isRequired: false, isState: true },
    { id: 'remark', name: 'remark', type: 'textarea', isRequired: false, isState: false },
  ];
  const fields: FormField[] = [
    { id: 'finishDate', name: 'completion date', type: 'date', required: true },
    ...(money ? [{ id: 'finishAmount', name: 'completion amount', type: 'money', required: true, placeholder: 'please enter payment amount' }] : []),
    { id: 'voucher', name: 'completion voucher', type: 'upload', required: false },
    { id: 'description', name: 'completion description', type: 'textarea', required: false, maxlength: 1000 },
  ];
  return { fields, columns };
}
