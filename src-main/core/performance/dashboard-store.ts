import { TaskState } from '../../../src-shared/domain/enums';
import { quickTaskDate } from '../../../src-shared/domain/performance';
import { reminderSettingsSchema, withReminderPatch, type ReminderSettings } from '../../../src-shared/domain/reminders';
import type { BoardDay, BoardTask } from '../../../src-shared/ipc/dashboard';
import type { TaskStatistics } from '../../../src-shared/domain/performance';
import { daysOf } from '../../../src-shared/rules/dashboard';
import { effectiveState, openStateFor } from '../../../src-shared/rules/performance';
import { mutations } from '../../../src-shared/sync/mutations';
import type { ReplicaConnection } from '../data/replica';

// The performance dashboard from the replica (spec 2): counts by state and the reminder board of
// the tasks due in a range, as the server's performances/statistics and task_scheduling count
// them for the same user (the replica holds exactly the tasks the server shows them), plus the
// quick tasks and reminder settings this device queued and the server has not sent back yet.
// Indexed reads only; the queued edits are few and parsed here. Contracts are joined by id on the
// local and the base table (not the contracts_overlay view, which SQLite would build whole).

type Range = { startDate: string; endDate: string };

/** Outbox rows whose effect the user still sees (queued, or applied and not pulled yet). */
const liveStates = `('pending', 'applied')`;

interface TaskRow {
  id: string;
  contractId: string | null;
  contractName: string | null;
  counterpartName: string | null;
  name: string;
  type: string;
  state: TaskState;
  dueDate: string;
  receivableAmount: number | null;
  payableAmount: number | null;
  amountUnit: string | null;
}

const emptyStatistics = (): TaskStatistics => ({ total: 0, ongoingCount: 0, completedCount: 0, toBeImprovedCount: 0, overdueCount: 0 });

/** Adds one task in its state as of today to the counts, as the server's statistics count it. */
function count(statistics: TaskStatistics, state: TaskState): void {
  statistics.total += 1;
  if (state === TaskState.NotStarted || state === TaskState.InProgress) statistics.ongoingCount += 1;
  else if (state === TaskState.Success) statistics.completedCount += 1;
  else if (state === TaskState.Incomplete) statistics.toBeImprovedCount += 1;
  else if (state === TaskState.Overdue) statistics.overdueCount += 1;
}

export interface DashboardReader {
  statistics(range: Range, today: string): TaskStatistics;
  /** Every day of the range with at most `perDay` of its tasks (by name, then id) and its total. */
  board(range: Range, today: string, perDay: number): BoardDay[];
  /** The user's synced settings with their queued changes applied in order; null before the first pull. */
  reminderSettings(userId: string): ReminderSettings | null;
}

export function createDashboardReader(sqlite: ReplicaConnection): DashboardReader {
  // The pending states past their date count as overdue, as the server's effectiveStateSql.
  const statistics = sqlite.prepare(
    `with t as (
       select case when state in (${TaskState.NotStarted}, ${TaskState.InProgress}) and expiration_time < @today then ${TaskState.Overdue} else state end as s
       from performance_tasks where expiration_time between @startDate and @endDate)
     select count(*) as total,
       coalesce(sum(s in (${TaskState.NotStarted}, ${TaskState.InProgress})), 0) as ongoingCount,
       coalesce(sum(s = ${TaskState.Success}), 0) as completedCount,
       coalesce(sum(s = ${TaskState.Incomplete}), 0) as toBeImprovedCount,
       coalesce(sum(s = ${TaskState.Overdue}), 0) as overdueCount
     from t`,
  );
  // Per day: its count from the due-date index, and its first cards read in order from the board
  // index (due date, name, id), so a month costs 30 short index reads and no sort.
  const dayTotals = sqlite.prepare('select expiration_time as date, count(*) as total from performance_tasks where expiration_time between @startDate and @endDate group by expiration_time');
  const dayCards = sqlite.prepare(
    `select t.id, t.contract_id as contractId, coalesce(l.name, c.name) as contractName, coalesce(l.counterpart_name, c.counterpart_name) as counterpartName,
       t.name, t.type, t.state, t.expiration_time as dueDate, t.receivable_amount as receivableAmount, t.payable_amount as payableAmount, t.amount_unit as amountUnit
     from performance_tasks t indexed by performance_tasks_board
       left join contracts_local l on l.id = t.contract_id left join contracts c on c.id = t.contract_id
     where t.expiration_time = ? order by t.name, t.id limit ?`,
  );
  const queued = sqlite.prepare(`select name, args from outbox where name in ('performance.quickTask', 'performance.reminderSettings') and state in ${liveStates} order by seq`);
  const pulled = sqlite.prepare('select 1 from performance_tasks where id = ?').pluck();
  const contractOf = sqlite.prepare('select name, counterpart_name as counterpartName from contracts_overlay where id = ?');
  const settings = sqlite.prepare('select settings from reminder_settings where user_id = ?').pluck();

  /** Queued edits of one kind, parsed by the shared schema (a corrupted one is the outbox's to set aside). */
  function queuedArgs<N extends 'performance.quickTask' | 'performance.reminderSettings'>(name: N) {
    const args = [];
    for (const row of queued.all() as { name: string; args: string }[]) {
      if (row.name !== name) continue;
      const parsed = mutations[name].args.safeParse(JSON.parse(row.args));
      if (parsed.success) args.push(parsed.data as ReturnType<(typeof mutations)[N]['args']['parse']>);
    }
    return args;
  }

  /** Quick tasks queued here, due in the range, that no pull has brought yet. */
  function queuedTasks(range: Range, today: string): BoardTask[] {
    const tasks: BoardTask[] = [];
    for (const { id, payload } of queuedArgs('performance.quickTask')) {
      const dueDate = quickTaskDate(payload.fieldList);
      if (dueDate === null || dueDate < range.startDate || dueDate > range.endDate || pulled.get(id) !== undefined) continue;
      const contract = payload.relatedID ? (contractOf.get(payload.relatedID) as { name: string; counterpartName: string | null } | undefined) : undefined;
      tasks.push({
        id,
        contractId: payload.relatedID ?? null,
        contractName: contract?.name ?? null,
        counterpartName: contract?.counterpartName ?? null,
        name: payload.name,
        type: payload.type,
        state: openStateFor(dueDate, today),
        dueDate,
        amount: null,
        queued: true,
      });
    }
    return tasks;
  }

  return {
    statistics(range, today) {
      const counts = { ...emptyStatistics(), ...(statistics.get({ ...range, today }) as TaskStatistics) };
      for (const task of queuedTasks(range, today)) count(counts, task.state);
      return counts;
    },
    board(range, today, perDay) {
      const days = new Map<string, BoardDay>(daysOf(range).map((date) => [date, { date, total: 0, taskList: [] }]));
      for (const { date, total } of dayTotals.all(range) as { date: string; total: number }[]) {
        const day = days.get(date)!;
        day.total = total;
        for (const { receivableAmount, payableAmount, amountUnit, ...task } of dayCards.all(date, perDay) as TaskRow[]) {
          const amount = receivableAmount ?? payableAmount;
          day.taskList.push({
            ...task,
            state: effectiveState(task.state, task.dueDate, today),
            amount: amount !== null && amountUnit !== null ? { amount, unit: amountUnit } : null,
            queued: false,
          });
        }
      }
      for (const task of queuedTasks(range, today)) {
        const day = days.get(task.dueDate)!;
        day.total += 1;
        if (day.taskList.length < perDay) day.taskList.push(task);
      }
      return [...days.values()];
    },
    reminderSettings(userId) {
      const stored = settings.get(userId) as string | undefined;
      const base = stored === undefined ? null : reminderSettingsSchema.safeParse(JSON.parse(stored));
      if (!base?.success) return null;
      return queuedArgs('performance.reminderSettings').reduce((current, { settings: patch }) => withReminderPatch(current, patch), base.data);
    },
  };
}

/**
 * Removes applied quick-task and reminder-settings edits once a pull brought their effect: they
 * touch no synced row, so the outbox's own overlay rebuild never visits them.
 */
export function settledByPull(sqlite: ReplicaConnection) {
  const quickTask = sqlite.prepare(`delete from outbox where name = 'performance.quickTask' and state = 'applied' and json_extract(args, '$.id') = ?`);
  const reminderSettings = sqlite.prepare(`delete from outbox where name = 'performance.reminderSettings' and state = 'applied'`);
  return { task: (id: string) => void quickTask.run(id), reminderSettings: () => void reminderSettings.run() };
}
