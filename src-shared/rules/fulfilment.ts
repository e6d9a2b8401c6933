import { ContractStatus, ScheduleConditionType, TaskState } from '../domain/enums';
import type { PeriodicSchedule, PlanCreate, PlanCreateRow, PlanSave, TaskUpdate } from '../domain/performance';
import { toMinorUnits, type Money } from '../domain/money';
import { AppFailure, reason } from '../errors';
import { formatDayIn } from '../i18n/days';
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

// Predecessor ("front") tasks (spec 4 "Performance tasks", spec 7 relate / front_tasks /
// can_be_front / check_front): one rule for the server (REST, batch finish, synced edits,
// check_front) and the desktop core (the finish dialog's warning and its refusals at once).

/** What the predecessor rules read of a task: its place in its contract's sheet, its state and its relations. */
export interface RelatedTask extends SheetPosition {
  name: string;
  state: TaskState;
  contractId: string | null;
  planId: string | null;
  /** The tasks it was related to as its predecessors; null when none. */
  frontTaskIds: readonly string[] | null;
}

/** The most predecessors one task may have. */
export const maxPredecessors = 50;

const sheetOrder = (a: SheetPosition, b: SheetPosition) => (sheetBefore(a, b) ? -1 : sheetBefore(b, a) ? 1 : 0);

/**
 * The unfinished tasks that keep `task` from being finished, in sheet order: its related
 * predecessors and, for a task under no plan, every earlier task of its contract (spec 4).
 * `contractTasks` are the tasks of its contract (a relation to a task outside it, which earlier
 * versions allowed, holds nothing back); `finishingWith`, the tasks finished before it in the
 * same batch (earlier rows first), which no longer hold it back.
 */
export function blockingPredecessors<T extends RelatedTask>(task: RelatedTask, contractTasks: readonly T[], finishingWith: ReadonlySet<string> = new Set()): T[] {
  if (task.contractId === null) return [];
  const related = new Set(task.frontTaskIds ?? []);
  return contractTasks
    .filter(
      (other) =>
        other.id !== task.id &&
        other.contractId === task.contractId &&
        other.state !== TaskState.Success &&
        !finishingWith.has(other.id) &&
        (related.has(other.id) || (task.planId === null && sheetBefore(other, task))),
    )
    .sort(sheetOrder);
}

/** The server's refusal of a finish that unfinished predecessors hold back, or null. */
export function predecessorsOpenRefusal(task: Pick<RelatedTask, 'name'>, blocking: readonly Pick<RelatedTask, 'name'>[]): AppFailure | null {
  if (blocking.length === 0) return null;
  const names = blocking.map((b) => `"${b.name}"`).join(', ');
  return new AppFailure('conflict', `the task "${task.name}" cannot be finished before its predecessor tasks: ${names}`, undefined, reason('predecessorsOpen', { task: task.name, names }));
}

/** Whether `from` follows `to`, directly or through other predecessors (`byId`: the contract's tasks). */
function follows(from: RelatedTask, to: string, byId: ReadonlyMap<string, RelatedTask>): boolean {
  const seen = new Set<string>();
  const stack = [...(from.frontTaskIds ?? [])];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(byId.get(id)?.frontTaskIds ?? []));
  }
  return false;
}

/**
 * What keeps `front` from being a predecessor of `task` (both of `byId`, the task's contract's
 * tasks), or null. A word, not an error: a sheet asks it of every pair of its rows.
 */
function frontProblem(task: RelatedTask, front: RelatedTask, byId: ReadonlyMap<string, RelatedTask>): 'own' | 'otherContract' | 'notEarlier' | 'cycle' | null {
  if (front.id === task.id) return 'own';
  if (front.contractId !== task.contractId) return 'otherContract';
  if (!sheetBefore(front, task)) return 'notEarlier';
  // The sheet's order moves with due dates: a relation made before may run the other way now.
  return follows(front, task.id, byId) ? 'cycle' : null;
}

/** Why `front` cannot be a predecessor of `task` (both of `byId`, the task's contract's tasks), or null. */
function frontRefusal(task: RelatedTask, front: RelatedTask, byId: ReadonlyMap<string, RelatedTask>): AppFailure | null {
  switch (frontProblem(task, front, byId)) {
    case 'own':
      return new AppFailure('bad_request', 'a task cannot be its own predecessor', undefined, reason('ownPredecessor'));
    case 'otherContract':
      return new AppFailure('bad_request', `"${front.name}" is not a task of the same contract`, undefined, reason('predecessorOtherContract', { front: front.name }));
    case 'notEarlier':
      return new AppFailure('bad_request', `"${front.name}" does not come before "${task.name}" in the contract's sheet`, undefined, reason('predecessorNotEarlier', { front: front.name, task: task.name }));
    case 'cycle':
      return new AppFailure('conflict', `"${front.name}" already follows "${task.name}": relating them would make a cycle`, undefined, reason('predecessorCycle', { front: front.name, task: task.name }));
    case null:
      return null;
  }
}

/** A quick task without a contract, or a finished one, takes no relation (spec 4: finished tasks are read-only). */
function relationEditRefusal(task: RelatedTask): AppFailure | null {
  if (task.contractId === null) return new AppFailure('bad_request', 'This is a quick task.', undefined, reason('quickTaskOpened'));
  return readOnlyRefusal(task, 'edited');
}

/**
 * Why `task` cannot take `frontIds` as predecessors, or null. `contractTasks`: its contract's
 * tasks; `found(id)`: whether the caller can see a task outside them (an unknown one is not found).
 */
export function relateRefusal<T extends RelatedTask>(task: RelatedTask, frontIds: readonly string[], contractTasks: readonly T[], others: (id: string) => RelatedTask | null): AppFailure | null {
  const refusal = relationEditRefusal(task);
  if (refusal) return refusal;
  const byId = new Map<string, RelatedTask>(contractTasks.map((other) => [other.id, other]));
  const related = new Set(task.frontTaskIds ?? []);
  for (const id of new Set(frontIds)) {
    const front = id === task.id ? task : (byId.get(id) ?? others(id));
    if (!front) return new AppFailure('not_found', 'performance task not found', undefined, reason('taskMissing'));
    const refused = frontRefusal(task, front, byId);
    if (refused) return refused;
    related.add(id);
  }
  if (related.size > maxPredecessors) {
    return new AppFailure('bad_request', `a task has at most ${maxPredecessors} predecessors`, undefined, reason('predecessorLimit', { count: maxPredecessors }));
  }
  return null;
}

/** Why the relation of `task` to `frontId` cannot be removed, or null. */
export function unrelateRefusal(task: RelatedTask, frontId: string): AppFailure | null {
  const refusal = relationEditRefusal(task);
  if (refusal) return refusal;
  return (task.frontTaskIds ?? []).includes(frontId) ? null : new AppFailure('not_found', 'the task has no such predecessor', undefined, reason('noSuchPredecessor'));
}

/** Whether `other` may be related to `task` as a new predecessor (`byId`: the contract's tasks). */
const isCandidate = (task: RelatedTask, other: RelatedTask, byId: ReadonlyMap<string, RelatedTask>) => !(task.frontTaskIds ?? []).includes(other.id) && frontProblem(task, other, byId) === null;

/** The tasks `task` may be related to (can_be_front): earlier tasks of its contract, not related yet, in sheet order. */
export function relateCandidates<T extends RelatedTask>(task: RelatedTask, contractTasks: readonly T[]): T[] {
  if (relationEditRefusal(task)) return [];
  const byId = new Map<string, RelatedTask>(contractTasks.map((other) => [other.id, other]));
  return contractTasks.filter((other) => isCandidate(task, other, byId)).sort(sheetOrder);
}

/** Whether `task` may be related to any task of its contract (`byId`: them, by id): a sheet row's relate action. */
export function hasRelateCandidate(task: RelatedTask, byId: ReadonlyMap<string, RelatedTask>): boolean {
  if (relationEditRefusal(task)) return false;
  for (const other of byId.values()) if (isCandidate(task, other, byId)) return true;
  return false;
}

/** Whether a task's name holds what the user searched for (can_be_front's `q`, the relate dialog's search): any case. */
export const nameMatches = (name: string, query: string | undefined) => !query || name.toLowerCase().includes(query.trim().toLowerCase());

/** A task's predecessors after relating `frontIds` (none when the list empties): each once, in id order. */
export function withPredecessors(frontTaskIds: readonly string[] | null, frontIds: readonly string[]): string[] {
  return [...new Set([...(frontTaskIds ?? []), ...frontIds])].sort();
}

/** A task's predecessors without `frontId`; null when none is left. */
export function withoutPredecessor(frontTaskIds: readonly string[] | null, frontId: string): string[] | null {
  const left = (frontTaskIds ?? []).filter((id) => id !== frontId);
  return left.length > 0 ? left : null;
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
  // The period in the user's words (e.g. 2027年01月15日 ~ 2027年01月31日); a schedule saved without its language keeps the stored days.
  const written = ({ startDate, endDate }: { startDate: string; endDate: string }) =>
    schedule.language ? `${formatDayIn(startDate, schedule.language)} ~ ${formatDayIn(endDate, schedule.language)}` : `${startDate}~${endDate}`;
  return periods.map((period) => ({
    name: `${schedule.name} ${written(period)}`,
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
