import { TaskState } from '../../../src-shared/domain/enums';
import { reminderSettingsSchema, withReminderPatch, type ReminderSettings } from '../../../src-shared/domain/reminders';
import type { BoardDay, BoardTask } from '../../../src-shared/ipc/dashboard';
import type { TaskStatistics } from '../../../src-shared/domain/performance';
import { daysOf } from '../../../src-shared/rules/dashboard';
import { effectiveState, openStateFor } from '../../../src-shared/rules/performance';
import { mutations } from '../../../src-shared/sync/mutations';
import type { ReplicaConnection } from '../data/replica';
import { parseQueuedQuickTasks, queuedQuickTasksWhere } from './quick-tasks';

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

/** The columns of a board card, read by the covering index of the board (migration 0019). */
const cardColumns = 'id, contract_id as contractId, name, type, state, expiration_time as dueDate, receivable_amount as receivableAmount, payable_amount as payableAmount, amount_unit as amountUnit';

/**
 * Counts by state as of @today, the pending states past their date as overdue (the server's
 * effectiveStateSql), over `source` rows (expiration_time, state, w): w is +1 for a row shown and
 * -1 for a base row an optimistic row replaces.
 */
const countsOver = (source: string) =>
  `select coalesce(sum(w), 0) as total,
     coalesce(sum(w * (state in (${TaskState.NotStarted}, ${TaskState.InProgress}) and expiration_time >= @today)), 0) as ongoingCount,
     coalesce(sum(w * (state = ${TaskState.Success})), 0) as completedCount,
     coalesce(sum(w * (state = ${TaskState.Incomplete})), 0) as toBeImprovedCount,
     coalesce(sum(w * (state = ${TaskState.Overdue} or (state in (${TaskState.NotStarted}, ${TaskState.InProgress}) and expiration_time < @today))), 0) as overdueCount
   from (${source})`;

/** What the optimistic rows change in a date range: +1 for each live one, -1 for each base row one replaces. */
const overlayDelta = `select expiration_time, state, 1 as w from performance_tasks_local where deleted = 0 and expiration_time between @startDate and @endDate
  union all select b.expiration_time, b.state, -1 from performance_tasks_local l join performance_tasks b on b.id = l.id where b.expiration_time between @startDate and @endDate`;

export function createDashboardReader(sqlite: ReplicaConnection): DashboardReader {
  // The tasks as the user sees them: the pulled rows, with the optimistic rows of queued finishes,
  // restores and deletes in their place. Those are few, so the pulled rows are read alone from
  // covering indexes and the few optimistic ones are added after, never a union over every task.
  const anyOptimistic = sqlite.prepare('select exists (select 1 from performance_tasks_local)').pluck();
  const baseCounts = sqlite.prepare(countsOver('select expiration_time, state, 1 as w from performance_tasks where expiration_time between @startDate and @endDate'));
  const overlayCounts = sqlite.prepare(countsOver(overlayDelta));
  // Per day: its count from the due-date index, and its first cards read in order from the board
  // index (due date, name, id, then the card's columns), so a month costs 30 short index reads and no sort.
  const baseDayTotals = sqlite.prepare('select expiration_time as date, count(*) as total from performance_tasks where expiration_time between @startDate and @endDate group by expiration_time');
  const overlayDayTotals = sqlite.prepare(`select expiration_time as date, sum(w) as total from (${overlayDelta}) group by expiration_time`);
  const withContract = (cards: string) =>
    `select t.*, coalesce(l.name, c.name) as contractName, coalesce(l.counterpart_name, c.counterpart_name) as counterpartName
     from (${cards}) t left join contracts_local l on l.id = t.contractId left join contracts c on c.id = t.contractId`;
  const baseDayCards = sqlite.prepare(withContract(`select ${cardColumns} from performance_tasks indexed by performance_tasks_card where expiration_time = @date order by name, id limit @limit`));
  const shownDayCards = sqlite.prepare(
    withContract(`select * from (
       select ${cardColumns} from performance_tasks indexed by performance_tasks_card where expiration_time = @date and id not in (select id from performance_tasks_local)
       union all select ${cardColumns} from performance_tasks_local where expiration_time = @date and deleted = 0)
     order by name, id limit @limit`),
  );
  const queuedSettings = sqlite.prepare(`select args from outbox where name = 'performance.reminderSettings' and state in ${liveStates} order by seq`);
  const queuedQuick = sqlite.prepare(`select args from outbox where ${queuedQuickTasksWhere} order by seq`);
  const contractOf = sqlite.prepare('select name, counterpart_name as counterpartName from contracts_overlay where id = ?');
  const settings = sqlite.prepare('select settings from reminder_settings where user_id = ?').pluck();

  /** Quick tasks queued here, due in the range, that no pull has brought yet. */
  function queuedTasks(range: Range, today: string): BoardTask[] {
    const tasks: BoardTask[] = [];
    for (const { id, payload, dueDate } of parseQueuedQuickTasks(queuedQuick.all() as { args: string }[])) {
      if (dueDate < range.startDate || dueDate > range.endDate) continue;
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
      const counts = baseCounts.get({ ...range, today }) as TaskStatistics;
      if (anyOptimistic.get() === 1) {
        const delta = overlayCounts.get({ ...range, today }) as TaskStatistics;
        for (const key of Object.keys(counts) as (keyof TaskStatistics)[]) counts[key] += delta[key];
      }
      for (const task of queuedTasks(range, today)) count(counts, task.state);
      return counts;
    },
    board(range, today, perDay) {
      const days = new Map<string, BoardDay>(daysOf(range).map((date) => [date, { date, total: 0, taskList: [] }]));
      const optimistic = anyOptimistic.get() === 1;
      const totals = [...(baseDayTotals.all(range) as { date: string; total: number }[]), ...(optimistic ? (overlayDayTotals.all(range) as { date: string; total: number }[]) : [])];
      for (const { date, total } of totals) days.get(date)!.total += total;
      const cards = optimistic ? shownDayCards : baseDayCards;
      for (const day of days.values()) {
        if (day.total === 0) continue;
        for (const { receivableAmount, payableAmount, amountUnit, ...task } of cards.all({ date: day.date, limit: perDay }) as TaskRow[]) {
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
      // Each queued edit parsed by the shared schema (a corrupted one is the outbox's to set aside).
      return (queuedSettings.all() as { args: string }[])
        .map((row) => mutations['performance.reminderSettings'].args.safeParse(JSON.parse(row.args)))
        .reduce((current, parsed) => (parsed.success ? withReminderPatch(current, parsed.data.settings) : current), base.data);
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
