import { ContractStatus, ScheduleConditionType, TaskState } from '../domain/enums';
import type { PeriodicSchedule, PlanCreate, PlanCreateRow, PlanSave, TaskUpdate } from '../domain/performance';
import { toMinorUnits, type Money } from '../domain/money';
import { AppFailure, reason } from '../errors';
import { finishAmountField } from './performance';
import { generatePeriodicSchedule } from './schedule';

// The task state machine's refusals (spec 4 "Performance tasks"), shared by the server, which
// enforces them when a REST call or a synced mutation applies, and the desktop core, which
// refuses the same edits at once before queueing them.

/** What the refusals need of a task and of its contract (null for a quick task). */
export interface TaskStateView {
  name: string;
  state: TaskState;
}

/**
 * A contract whose change is under approval: its tasks wait for the decision (spec 4, "not during
 * contract change"). Finishing one would record fulfilment against terms that may still change.
 */
export const contractInChange = (contractStatus: ContractStatus | null) => contractStatus === ContractStatus.UnderApproval;

export const contractInChangeMessage = 'the contract is being changed (under approval): its tasks cannot be finished until the change is decided';

export function finishRefusal(task: TaskStateView, contractStatus: ContractStatus | null): AppFailure | null {
  if (task.state === TaskState.Success) return new AppFailure('conflict', `the task "${task.name}" is already finished`, undefined, reason('taskAlreadyFinished', { task: task.name }));
  if (contractInChange(contractStatus)) return new AppFailure('conflict', contractInChangeMessage, undefined, reason('contractInChange'));
  return null;
}

export function restoreRefusal(task: TaskStateView): AppFailure | null {
  return task.state === TaskState.Success ? null : new AppFailure('conflict', `the task "${task.name}" is not finished`, undefined, reason('taskNotFinished', { task: task.name }));
}

/** A finished task is read-only (spec 4): it cannot be edited or deleted. */
export function readOnlyRefusal(task: TaskStateView, action: 'edited' | 'deleted'): AppFailure | null {
  return task.state === TaskState.Success ? new AppFailure('conflict', `a finished task is read-only and cannot be ${action}`, undefined, reason('finishedTaskReadOnly', { change: action })) : null;
}

/** What finishing needs of a task's own amount: in hundredths, with its unit. */
export interface TaskAmounts {
  receivableAmount: number | null;
  payableAmount: number | null;
  amountUnit: string | null;
}

/** What a finish records on a task: its finish amount (hundredths) and its completion values. */
export interface FinishRecord {
  finishedAmount: number | null;
  completionValues: Record<string, unknown>;
}

const ownAmount = (task: TaskAmounts) => task.receivableAmount ?? task.payableAmount;

/**
 * What finishing one task records (spec 4): the finish amount is the entered amount (major units)
 * times 100, else the task's own amount; the completion values as entered. The server stores it,
 * and the desktop shows it at once: one rule, so both record the same.
 */
export function finishRecord(task: TaskAmounts, input: { amount?: number | undefined; configFields?: Record<string, unknown> | undefined }): FinishRecord {
  return { finishedAmount: input.amount !== undefined ? toMinorUnits(input.amount) : ownAmount(task), completionValues: input.configFields ?? {} };
}

/**
 * What a batch finish records on one of its tasks: the completion values entered for the batch,
 * but the amount is this task's own, never one amount on every task: the completion amount
 * entered for this task (`finishAmounts`, money as the completion form holds it), else the task's
 * own amount. The amount field of the completion values holds that same amount, when the batch
 * gave that field or an amount for the task.
 */
export function batchFinishRecord(
  task: TaskAmounts & { id: string },
  payload: { configFields?: Record<string, unknown> | undefined; finishAmounts?: Record<string, Money> | undefined },
): FinishRecord {
  const entered = payload.finishAmounts?.[task.id];
  const { [finishAmountField]: shared, ...values } = payload.configFields ?? {};
  const finishedAmount = entered ? entered.amount : ownAmount(task);
  const unit = entered?.unit ?? task.amountUnit;
  const amountAsked = shared !== undefined || entered !== undefined;
  return {
    finishedAmount,
    completionValues: amountAsked && finishedAmount !== null && unit !== null ? { ...values, [finishAmountField]: { amount: finishedAmount, unit } } : values,
  };
}

/** Pending (not started, in progress) or overdue: the states that offer finish, alone or in a batch. */
export const isFinishable = (state: TaskState) => state === TaskState.NotStarted || state === TaskState.InProgress || state === TaskState.Overdue;

/** Batch finish is offered only for pending or overdue tasks, and never during a contract change (spec 4). */
export const batchFinishable = (state: TaskState, contractStatus: ContractStatus | null) => isFinishable(state) && !contractInChange(contractStatus);

/** Where a task stands in its contract's sheet: by due date (undated last), then row number, then id. */
export interface SheetPosition {
  id: string;
  expirationTime: string | null;
  rowIndex: number;
}

/**
 * The row number a new row of a contract's sheet takes (spec 5): the contract's largest number
 * plus 1 (1 for an empty sheet), whichever plan it is in or if it is a quick task of the contract.
 * Rows made one after another each take the next.
 */
export const rowIndexAfter = (last: number | null): number => (last ?? 0) + 1;

/** Whether `a` comes before `b` in the sheet order the server uses for predecessors. */
export function sheetBefore(a: SheetPosition, b: SheetPosition): boolean {
  const dueA = a.expirationTime ?? '\uffff';
  const dueB = b.expirationTime ?? '\uffff';
  if (dueA !== dueB) return dueA < dueB;
  if (a.rowIndex !== b.rowIndex) return a.rowIndex < b.rowIndex;
  return a.id < b.id;
}

/**
 * The rows a plan save lists: as given, or for a periodic plan one per calendar period, the total
 * split by days with the first and last periods prorated (spec 9). A schedule that cannot be
 * generated is a validation failure.
 */
export function planRows(plan: Pick<PlanSave, 'conditionType' | 'schedule' | 'rows'>): PlanSave['rows'] {
  const schedule = plan.schedule;
  if (plan.conditionType !== ScheduleConditionType.Periodicity || !schedule) return plan.rows;
  let periods;
  try {
    periods = generatePeriodicSchedule({ cycle: schedule.cycle, startDate: schedule.startDate, endDate: schedule.endDate, amount: schedule.amount.amount });
  } catch (error) {
    const message = (error as Error).message;
    throw new AppFailure('validation_failed', `validation failed: schedule: ${message}`, [{ path: 'schedule', message }]);
  }
  const column = schedule.direction === 'receivable' ? 'receivableAmount' : 'payableAmount';
  return periods.map((period) => ({
    name: `${schedule.name} ${period.startDate}~${period.endDate}`,
    expirationTime: period.dueDate,
    [column]: { amount: period.amount, unit: schedule.amount.unit },
    ...(schedule.leaderUserID && { leaderUserID: schedule.leaderUserID }),
  }));
}

/** A plan's condition: its condition type and its schedule (null unless periodic). */
export interface PlanCondition {
  conditionType: PlanSave['conditionType'];
  schedule: PeriodicSchedule | null;
}

/** Whether two plan conditions are the same, whatever order their schedules' keys came in. */
export function sameCondition(a: PlanCondition, b: PlanCondition): boolean {
  const canonical = (schedule: PeriodicSchedule | null) => (schedule === null ? null : JSON.stringify(Object.entries(schedule).sort(([x], [y]) => (x < y ? -1 : 1))));
  return a.conditionType === b.conditionType && canonical(a.schedule) === canonical(b.schedule);
}

/**
 * The contract statuses a new plan may be added under (spec 4 "Contract statuses"): approved (4)
 * and archived (5, an approved contract whose signed copy is filed: it is still being performed).
 * A contract drafting (1) or rejected (3) is not in force, so nothing is performed under it yet;
 * one under approval (2) awaits a decision on its terms, first or a change of them (the state in
 * which its tasks cannot be finished either), so a plan made now could plan terms that do not
 * hold. Plans it already has stay; this rule is only about adding one.
 */
export const planStatuses: readonly ContractStatus[] = [ContractStatus.Approved, ContractStatus.Archived];

export const mayAddPlan = (status: ContractStatus | null): boolean => status !== null && planStatuses.includes(status);

/** Why a plan cannot be added to a contract of `status`; null when it can. */
export function planStatusRefusal(status: ContractStatus | null): AppFailure | null {
  if (mayAddPlan(status)) return null;
  const shown = status ?? 'none';
  return new AppFailure(
    'conflict',
    `a performance plan can be added only to an approved or archived contract, not to one that is ${status === null ? 'without a status' : `in status ${status}`}`,
    undefined,
    reason('planStatus', { status: shown, allowed: [...planStatuses] }),
  );
}

/** The contract has a plan under the performance already (made elsewhere meanwhile): a second one is refused, never merged silently. */
export const planExistsRefusal = (performance: string) =>
  new AppFailure('conflict', `the contract already has a plan for the performance "${performance}"`, undefined, reason('planExists', { performance }));

/**
 * The rows of a new plan as the server stores them, each with the task id the client made: the
 * schedule's periods in order (planRows, so the shares are the server's), then the rows typed by
 * hand. A schedule whose periods are not as many as its ids is a validation failure.
 */
export function planCreateRows(plan: Pick<PlanCreate, 'conditionType' | 'schedule' | 'scheduleTaskIds' | 'rows'>): PlanCreateRow[] {
  const generated = plan.schedule ? planRows({ conditionType: plan.conditionType, schedule: plan.schedule, rows: [] }) : [];
  if (generated.length !== plan.scheduleTaskIds.length) {
    const message = `the schedule makes ${generated.length} rows, not ${plan.scheduleTaskIds.length}`;
    throw new AppFailure('validation_failed', `validation failed: scheduleTaskIds: ${message}`, [{ path: 'scheduleTaskIds', message }]);
  }
  return [
    ...generated.map((row, i) => ({ ...row, name: row.name ?? '', id: plan.scheduleTaskIds[i]! })),
    ...plan.rows,
  ];
}

/** The one unit a row's amounts share (undefined when it gives none); a payable and a receivable amount in different units are refused. */
export function amountUnitOf(update: Pick<TaskUpdate, 'payableAmount' | 'receivableAmount'>): string | undefined {
  const units = new Set([update.payableAmount?.unit, update.receivableAmount?.unit].filter((unit) => unit !== undefined));
  if (units.size > 1) {
    const message = 'payable and receivable amounts must have the same unit';
    throw new AppFailure('validation_failed', `validation failed: receivableAmount.unit: ${message}`, [{ path: 'receivableAmount.unit', message }]);
  }
  return [...units][0];
}

/**
 * Whether a plan may be removed with its rows: not once any of them is finished (a finished task is
 * read-only and stays, spec 4; restore it first). Null when it may.
 */
export function planRemovalRefusal(tasks: readonly TaskStateView[]): AppFailure | null {
  return tasks.some((task) => task.state === TaskState.Success)
    ? new AppFailure('conflict', 'the plan has finished tasks and cannot be removed', undefined, reason('planHasFinished'))
    : null;
}
