import { TaskState } from '../../../src-shared/domain/enums';
import { reminderSettingsSchema, withReminderPatch, type ReminderSettings } from '../../../src-shared/domain/reminders';
import type { BoardDay, BoardTask } from '../../../src-shared/ipc/dashboard';
import type { TaskStatistics } from '../../../src-shared/domain/performance';
import { daysOf } from '../../../src-shared/rules/dashboard';
import { effectiveState, openStateFor } from '../../../src-shared/rules/performance';
import { mutations } from '../../../src-shared/sync/mutations';
import { indexPresent } from '../data/deferred-indexes';
import type { ReplicaConnection } from '../data/replica';
import { refusalsByTask, type RefusedEditRow } from './fulfilment-store';
import { parseQueuedQuickTasks, queuedQuickTasksWhere } from './quick-tasks';

// The performance dashboard from the replica (spec 2): counts by state and the reminder board of
// the tasks due in a range, as the server's performances/statistics and task_scheduling count
// them for the same user (the replica holds exactly the tasks the server shows them), plus the
// quick tasks and reminder settings this device queued and the server has not sent back yet.
// Counts and day totals come from a per-day, per-state count table (whatever the replica holds,
// a range is at most a year of days x 5 states), the "overdue" of today derived from state and
// day; the cards from the board index, every day's first ones in one statement. The queued edits
// are few: their optimistic rows correct the pulled figures, and queued quick tasks are parsed here. Contracts are joined by id on the
// local and the base table (not the contracts_overlay view, which SQLite would build whole).

type Range = { startDate: string; endDate: string };

/** Outbox rows whose effect the user still sees (queued, or applied and not pulled yet). */
const liveStates = `('pending', 'applied')`;

/** A board card as its statement reads it (`cardColumns`, then the contract's name and counterparty). */
type CardRow = [
  id: string,
  contractId: string | null,
  name: string,
  type: string,
  state: TaskState,
  dueDate: string,
  receivableAmount: number | null,
  payableAmount: number | null,
  amountUnit: string | null,
  planId: string | null,
  contractName: string | null,
  counterpartName: string | null,
];

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

/** The columns of a board card. */
const cardColumnsOf = (table: string) =>
  `${table}id, ${table}contract_id as contractId, ${table}name, ${table}type, ${table}state, ${table}expiration_time as dueDate, ${table}receivable_amount as receivableAmount, ${table}payable_amount as payableAmount, ${table}amount_unit as amountUnit, ${table}plan_id as planId`;
const cardColumns = cardColumnsOf('');
const cardNames = 'id, contractId, name, type, state, dueDate, receivableAmount, payableAmount, amountUnit, planId';

/**
 * Counts by state as of @today, the pending states past their date as overdue (the server's
 * effectiveStateSql), over `source` rows (expiration_time, state, w): w is how many tasks the row
 * stands for, negative for base rows an optimistic row replaces.
 */
const countsOver = (source: string) =>
  `select coalesce(sum(w), 0) as total,
     coalesce(sum(w * (state in (${TaskState.NotStarted}, ${TaskState.InProgress}) and expiration_time >= @today)), 0) as ongoingCount,
     coalesce(sum(w * (state = ${TaskState.Success})), 0) as completedCount,
     coalesce(sum(w * (state = ${TaskState.Incomplete})), 0) as toBeImprovedCount,
     coalesce(sum(w * (state = ${TaskState.Overdue} or (state in (${TaskState.NotStarted}, ${TaskState.InProgress}) and expiration_time < @today))), 0) as overdueCount
   from (${source})`;

/** The pulled tasks of the range per due day and stored state: the table the triggers of migration 0024 keep. */
const dayCounts = 'select day as expiration_time, state, count as w from performance_task_days where day between @startDate and @endDate';

/** What the optimistic rows change in a date range: +1 for each live one, -1 for each base row one replaces. */
const overlayDelta = `select expiration_time, state, 1 as w from performance_tasks_local where deleted = 0 and expiration_time between @startDate and @endDate
  union all select b.expiration_time, b.state, -1 from performance_tasks_local l join performance_tasks b on b.id = l.id where b.expiration_time between @startDate and @endDate`;

/**
 * The first @limit pulled cards of each day of the range that has tasks, in one statement: per
 * day, the subquery walks the board index (due date, name, id) to its first rows, which the outer
 * read then fetches by rowid.
 */
const firstPulledCards = (filter: string, indexed: boolean) =>
  `select ${cardColumnsOf('t.')} from (select distinct day from performance_task_days where day between @startDate and @endDate and count > 0) d
   join performance_tasks t on t.rowid in (
     select rowid from performance_tasks ${indexed ? `indexed by ${boardIndex}` : ''} where expiration_time = d.day ${filter} order by name, id limit @limit)`;

/** The board's index (due date, name, id); a first sync sets it aside (task-upkeep.ts), and the board is then read without it. */
const boardIndex = 'performance_tasks_card';

export function createDashboardReader(sqlite: ReplicaConnection): DashboardReader {
  // The tasks as the user sees them: the pulled rows, with the optimistic rows of queued finishes,
  // restores and deletes in their place. Those are few, so the pulled rows are read alone (their
  // counts from the per-day table, their cards from the board index) and the few optimistic ones
  // are added after, never a union over every task.
  const anyOptimistic = sqlite.prepare('select exists (select 1 from performance_tasks_local)').pluck();
  const baseCounts = sqlite.prepare(countsOver(dayCounts));
  const overlayCounts = sqlite.prepare(countsOver(overlayDelta));
  const baseDayTotals = sqlite.prepare('select day as date, sum(count) as total from performance_task_days where day between @startDate and @endDate group by day');
  const overlayDayTotals = sqlite.prepare(`select expiration_time as date, sum(w) as total from (${overlayDelta}) group by expiration_time`);
  const withContract = (cards: string) =>
    `select t.*, coalesce(l.name, c.name) as contractName, coalesce(l.counterpart_name, c.counterpart_name) as counterpartName
     from (${cards}) t left join contracts_local l on l.id = t.contractId left join contracts c on c.id = t.contractId
     order by t.dueDate, t.name, t.id`;
  // Read as arrays: better-sqlite3 builds a row object far slower than the card is built here.
  const baseCards = (indexed: boolean) => withContract(firstPulledCards('', indexed));
  // With optimistic rows: the pulled cards they do not replace, and theirs, cut to @limit a day again.
  const shownCards = (indexed: boolean) =>
    withContract(`select ${cardNames} from (
       select *, row_number() over (partition by dueDate order by name, id) as n from (
         ${firstPulledCards('and id not in (select id from performance_tasks_local)', indexed)}
         union all select ${cardColumns} from performance_tasks_local where deleted = 0 and expiration_time between @startDate and @endDate))
     where n <= @limit`);
  // Prepared when first read: a statement naming the board index cannot be prepared while it is set aside.
  const cardStatements = new Map<string, ReturnType<typeof sqlite.prepare>>();
  const cards = (optimistic: boolean) => {
    const text = (optimistic ? shownCards : baseCards)(indexPresent(sqlite, boardIndex));
    return cardStatements.get(text) ?? cardStatements.set(text, sqlite.prepare(text).raw()).get(text)!;
  };
  const queuedSettings = sqlite.prepare(`select args from outbox where name = 'performance.reminderSettings' and state in ${liveStates} order by seq`);
  const queuedQuick = sqlite.prepare(`select args from outbox where ${queuedQuickTasksWhere} order by seq`);
  const contractOf = sqlite.prepare('select name, counterpart_name as counterpartName from contracts_overlay where id = ?');
  const settings = sqlite.prepare('select settings from reminder_settings where user_id = ?').pluck();
  // The edits of tasks the server refused, kept until dismissed: few, read whole (the outbox_state_seq index).
  const refused = sqlite.prepare(`select o.id as mutationId, o.name, o.state, o.error, t.row_key as key from outbox o join outbox_touches t on t.seq = o.seq
    where o.state in ('rejected', 'conflict') and t.row_key like 'performanceTask:%' order by o.seq`);

  /** Quick tasks queued here, due in the range, that no pull has brought yet. */
  function queuedTasks(range: Range, today: string): BoardTask[] {
    const tasks: BoardTask[] = [];
    for (const { id, payload, dueDate } of parseQueuedQuickTasks(queuedQuick.all() as { args: string }[])) {
      if (dueDate < range.startDate || dueDate > range.endDate) continue;
      const contract = payload.relatedID ? (contractOf.get(payload.relatedID) as { name: string; counterpartName: string | null } | undefined) : undefined;
      tasks.push({
        id,
        planId: null,
        contractId: payload.relatedID ?? null,
        contractName: contract?.name ?? null,
        counterpartName: contract?.counterpartName ?? null,
        name: payload.name,
        type: payload.type,
        state: openStateFor(dueDate, today),
        dueDate,
        amount: null,
        queued: true,
        refusal: null,
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
      const refusals = refusalsByTask(refused.all() as RefusedEditRow[]);
      const optimistic = anyOptimistic.get() === 1;
      const totals = [...(baseDayTotals.all(range) as { date: string; total: number }[]), ...(optimistic ? (overlayDayTotals.all(range) as { date: string; total: number }[]) : [])];
      for (const { date, total } of totals) days.get(date)!.total += total;
      for (const [id, contractId, name, type, state, dueDate, receivableAmount, payableAmount, amountUnit, planId, contractName, counterpartName] of cards(optimistic).all({
        ...range,
        limit: perDay,
      }) as CardRow[]) {
        const amount = receivableAmount ?? payableAmount;
        days.get(dueDate)!.taskList.push({
          id,
          planId,
          contractId,
          contractName,
          counterpartName,
          name,
          type,
          state: effectiveState(state, dueDate, today),
          dueDate,
          amount: amount !== null && amountUnit !== null ? { amount, unit: amountUnit } : null,
          queued: false,
          refusal: refusals.get(id) ?? null,
        });
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
  const waiting = sqlite.prepare<[], number>(`select exists (select 1 from outbox where name = 'performance.quickTask' and state = 'applied')`).pluck();
  return {
    task: (id: string) => void quickTask.run(id),
    /** Whether any applied quick task waits for its pull (a first sync's 200,000 tasks need not each ask). */
    quickTasksWaiting: () => waiting.get() === 1,
    reminderSettings: () => void reminderSettings.run(),
  };
}
