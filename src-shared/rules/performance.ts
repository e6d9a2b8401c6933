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

/** The stored states that turn overdue once their due date has passed. */
export const pendingStates: readonly TaskState[] = [TaskState.NotStarted, TaskState.InProgress];

const isPending = (state: number) => state === TaskState.NotStarted || state === TaskState.InProgress;

/**
 * The state after an edit that may move the due date (a sheet save, a task edit): an edit that
 * leaves the due date as it was leaves the state too (a not-started task stays not started);
 * a new due date sets it by `editedState`.
 */
export function stateAfterEdit(state: TaskState, dueBefore: string | null, dueAfter: string | null, today: string): TaskState {
  return dueAfter === dueBefore ? state : editedState(state, dueAfter, today);
}

/** The state shown and counted on `today`: a stored pending state whose date has passed is overdue. */
export function effectiveState(state: TaskState, dueDate: string | null, today: string): TaskState {
  return isPending(state) && dueDate !== null && dueDate < today ? TaskState.Overdue : state;
}

/**
 * A filter on the effective state as conditions on the stored state and due date, so a search
 * stays on its indexes (no expression over every row): a task's effective state is one of
 * `states` exactly when its stored state is in `always`, or in `beforeDue` with no due date or one
 * not passed, or in `afterDue` with its due date passed. Each state is in one list at most.
 */
export interface EffectiveStateFilter {
  always: number[];
  beforeDue: number[];
  afterDue: number[];
}

export function effectiveStateFilter(states: readonly number[]): EffectiveStateFilter {
  const asked = new Set(states);
  const afterDue = asked.has(TaskState.Overdue) ? pendingStates.filter((state) => !asked.has(state)) : [];
  const beforeDue = pendingStates.filter((state) => asked.has(state) && !asked.has(TaskState.Overdue));
  const always = [...asked].filter((state) => !beforeDue.includes(state as TaskState));
  return { always, beforeDue, afterDue };
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

/**
 * The names a new performance's columns and completion fields start with, by id (spec 2
 * default_form). They are data an administrator may rename; a name still the default is shown in
 * the user's language (the catalogs' fulfilment.defaultNames, whose English is this table).
 */
export const defaultPerformanceNames = {
  name: 'performance content',
  expirationTime: 'performance date',
  receivableAmount: 'receivable amount',
  payableAmount: 'payable amount',
  leader: 'task leader',
  taskState: 'task state',
  remark: 'remark',
  finishDate: 'completion date',
  finishAmount: 'completion amount',
  voucher: 'completion voucher',
  description: 'completion description',
} as const;

/** The completion form's field whose money is the task's finish amount (default_form's). */
export const finishAmountField = 'finishAmount';

/** The spec's money placeholder of the completion amount (spec 9). */
export const defaultFinishAmountPlaceholder = 'please enter payment amount';

/** The columns and completion fields a new performance of a task type starts with (default_form). */
export function defaultPerformanceForm(type: PerformanceTaskType): { fields: FormField[]; columns: SheetColumn[] } {
  const names = defaultPerformanceNames;
  const money = type === 'receivable' || type === 'collection' ? 'receivableAmount' : type === 'payable' || type === 'payment' ? 'payableAmount' : null;
  const columns: SheetColumn[] = [
    { id: 'name', name: names.name, type: 'text', isRequired: true, isState: false },
    { id: 'expirationTime', name: names.expirationTime, type: 'date', isRequired: true, isState: false },
    ...(money ? [{ id: money, name: names[money], type: 'money' as const, isRequired: true, isState: false }] : []),
    { id: 'leader', name: names.leader, type: 'people', config: { singleSelect: true }, isRequired: false, isState: false },
    { id: 'taskState', name: names.taskState, type: 'select', isRequired: false, isState: true },
    { id: 'remark', name: names.remark, type: 'textarea', isRequired: false, isState: false },
  ];
  const fields: FormField[] = [
    { id: 'finishDate', name: names.finishDate, type: 'date', required: true },
    ...(money ? [{ id: finishAmountField, name: names.finishAmount, type: 'money', required: true, placeholder: defaultFinishAmountPlaceholder }] : []),
    { id: 'voucher', name: names.voucher, type: 'upload', required: false },
    { id: 'description', name: names.description, type: 'textarea', required: false, maxlength: 1000 },
  ];
  return { fields, columns };
}
