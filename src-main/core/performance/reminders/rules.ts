import { DateTime, IANAZone } from 'luxon';
import type { ReminderTaskKind } from '../../../../src-shared/domain/enums';
import { TaskState } from '../../../../src-shared/domain/enums';
import {
  reminderKindOf,
  timeNodeOffsets,
  timeNodesOf,
  type ReminderSettings,
  type ReminderTask,
  type RepeatReminderType,
  type TimeNode,
} from '../../../../src-shared/domain/reminders';

// The reminder rules, pure: which reminders fall in a window of instants. Calendar arithmetic is
// done on plain dates (luxon in UTC, which has no DST), and only the final "day at reminder time"
// is placed in the user's zone, so 09:00 stays 09:00 local on both sides of a DST switch.
//
// Rules, per task that is not finished (state 4 never reminds), with the settings of its kind:
// - time node: on the day `due − offset` (3 days, 1 week, on due, or an "other" time);
// - condition: repeats daily/weekly/monthly counted from the earliest time-node day, on the days
//   strictly between it and the due date that are not already a time-node day (one reminder a day);
//   with only "on due" chosen there is no such day;
// - overdue: repeats daily/weekly/monthly counted from the due date, on the days after it, for as
//   long as the task stays unfinished.
// Each fires on its day at the kind's reminder time in the user's zone.

export type ReminderRule = TimeNode | 'condition' | 'overdue';

export interface DueReminder {
  /** taskId|rule|occurrence: one reminder per task, rule and day, so the scheduler fires it once. */
  id: string;
  taskId: string;
  contractId: string | null;
  taskName: string;
  kind: ReminderTaskKind;
  rule: ReminderRule;
  /** The calendar day (yyyy-MM-dd, user's zone) this reminder belongs to. */
  occurrence: string;
  dueDate: string;
  /** When it fires. */
  at: Date;
}

export interface ReminderQuery {
  tasks: readonly ReminderTask[];
  settings: ReminderSettings;
  /** The user's IANA time zone. */
  zone: string;
  from: Date;
  /** Exclusive: windows [a,b) and [b,c) together are exactly [a,c). */
  to: Date;
}

const repeatStep: Record<Exclude<RepeatReminderType, 'monthly'>, number> = { daily: 1, weekly: 7 };

export function reminderId(taskId: string, rule: ReminderRule, occurrence: string): string {
  return `${taskId}|${rule}|${occurrence}`;
}

/**
 * Calendar days as whole days since 1970-01-01: plain integers, so the rules' arithmetic over many
 * tasks costs no date object per step. Only a reminder's final instant is placed in a zone.
 */
type Day = number;
const dayMs = 86_400_000;
const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day of a yyyy-MM-dd date; null for one that names no day (e.g. 2026-02-30). */
function dayOf(iso: string): Day | null {
  const parts = isoDate.exec(iso);
  if (!parts) return null;
  const [year, month, date] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, date);
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === date ? at.getTime() / dayMs : null;
}

const dateOf = (day: Day) => new Date(day * dayMs);

function isoDateOf(day: Day): string {
  const at = dateOf(day);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
}

/** `day` moved by whole months, the day of the month kept or, past the month's end, its last day (as luxon's plus does). */
function addMonths(day: Day, months: number): Day {
  const at = dateOf(day);
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth() + months;
  const lastOfMonth = new Date(0);
  lastOfMonth.setUTCFullYear(year, month + 1, 0);
  const moved = new Date(0);
  moved.setUTCFullYear(year, month, Math.min(at.getUTCDate(), lastOfMonth.getUTCDate()));
  return moved.getTime() / dayMs;
}

function minusOffset(day: Day, offset: { days?: number; weeks?: number; months?: number }): Day {
  const days = day - (offset.days ?? 0) - 7 * (offset.weeks ?? 0);
  return offset.months ? addMonths(days, -offset.months) : days;
}

/** The day at UTC midnight, as instantAt takes it. */
const calendarDay = (day: Day) => DateTime.fromMillis(day * dayMs, { zone: 'utc' });

/**
 * The instant of `day` at `time` ("HH:mm") in `zone`. A wall time skipped by a spring-forward gap
 * fires at the first wall time that exists after it (the moment the clocks jump).
 */
export function instantAt(day: DateTime, time: string, zone: string): DateTime {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  const wanted = day.set({ hour, minute, second: 0, millisecond: 0 });
  // Gaps are at most a day (Samoa skipped one in 2011); a minute step finds the first wall time.
  for (let shift = 0; shift <= 24 * 60; shift += 1) {
    const wall = wanted.plus({ minutes: shift });
    const local = DateTime.fromObject(
      { year: wall.year, month: wall.month, day: wall.day, hour: wall.hour, minute: wall.minute },
      { zone },
    );
    if (local.day === wall.day && local.hour === wall.hour && local.minute === wall.minute) return local;
  }
  throw new RangeError(`no wall time at or after ${wanted.toISO()} exists in ${zone}`);
}

/** anchor + k·step for k ≥ 1, the ones within [first, last]. */
function repeats(anchor: Day, type: RepeatReminderType, first: Day, last: Day): Day[] {
  const days: Day[] = [];
  if (type === 'monthly') {
    // Start just below the first k that can reach `first`, so long-overdue tasks cost no loop.
    const [from, to] = [dateOf(anchor), dateOf(first)];
    let k = Math.max(1, (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth() - 1);
    for (let day = addMonths(anchor, k); day <= last; k += 1, day = addMonths(anchor, k)) {
      if (day >= first) days.push(day);
    }
    return days;
  }
  const step = repeatStep[type];
  for (let day = anchor + step * Math.max(1, Math.ceil((first - anchor) / step)); day <= last; day += step) days.push(day);
  return days;
}

function occurrencesOf(
  dueDate: string,
  settings: ReminderSettings[ReminderTaskKind],
  first: Day,
  last: Day,
): { rule: ReminderRule; day: Day }[] {
  const due = dayOf(dueDate);
  // A due date like 2026-02-30 passes the pattern but names no day: such a task has no reminders.
  if (due === null) return [];
  const nodes = timeNodesOf(settings).map((node) => ({ rule: node as ReminderRule, day: minusOffset(due, timeNodeOffsets[node]) }));
  const earliestNode = nodes.reduce<Day | null>((min, n) => (min === null || n.day < min ? n.day : min), null);
  const occurrences: { rule: ReminderRule; day: Day }[] = nodes.filter((n) => n.day >= first && n.day <= last);
  if (earliestNode !== null) {
    for (const day of repeats(earliestNode, settings.condition.reminderType, first, Math.min(last, due - 1))) {
      if (!nodes.some((n) => n.day === day)) occurrences.push({ rule: 'condition', day });
    }
  }
  for (const day of repeats(due, settings.overTime.reminderType, first, last)) occurrences.push({ rule: 'overdue', day });
  return occurrences;
}

/** The calendar day of an instant in `zone`. */
const localDayOf = (at: Date, zone: string): Day => dayOf(DateTime.fromJSDate(at, { zone }).toFormat('yyyy-MM-dd'))!;

/** The most days a reminder comes before its task's due date: the longest time node, months counted as 31 days. */
const longestLead = Math.max(...Object.values(timeNodeOffsets).map((offset) => (offset.days ?? 0) + 7 * (offset.weeks ?? 0) + 31 * (offset.months ?? 0)));

/**
 * The last due date (yyyy-MM-dd) whose task can have a reminder before `to`: every reminder of a
 * task falls on or after its due date less the longest lead, so tasks due later have none in a
 * window ending at `to` and need not be read.
 */
export function lastDueWithRemindersBefore(to: Date, zone: string): string {
  if (!IANAZone.isValidZone(zone)) throw new RangeError(`unknown time zone ${zone}`);
  // The candidate days of remindersDue reach one day past the window's last local day.
  return isoDateOf(localDayOf(to, zone) + 1 + longestLead);
}

/** The reminders that fire in [from, to), ordered by instant, then id. */
export function remindersDue(query: ReminderQuery): DueReminder[] {
  const { zone, from, to } = query;
  if (!IANAZone.isValidZone(zone)) throw new RangeError(`unknown time zone ${zone}`);
  if (to <= from) return [];
  // Candidate days: the window's local days, one more each side for gap shifts past midnight.
  const first = localDayOf(from, zone) - 1;
  const last = localDayOf(to, zone) + 1;
  // Placing a day's reminder time in the zone is the costly step (luxon), and the window holds a
  // few days: each day and time is placed once, not once per task.
  const instants = new Map<string, Date>();
  const instantOf = (day: Day, time: string) => {
    const key = `${day}|${time}`;
    let at = instants.get(key);
    if (at === undefined) {
      at = instantAt(calendarDay(day), time, zone).toJSDate();
      instants.set(key, at);
    }
    return at;
  };
  // A task's reminder days follow from its due date and its kind's settings alone: tasks due the
  // same day (many, in a large replica) share them, worked out once.
  const daysOf = new Map<string, { rule: ReminderRule; at: Date; occurrence: string }[]>();
  const occurrencesFor = (kind: ReminderTaskKind, dueDate: string) => {
    const key = `${kind}|${dueDate}`;
    let found = daysOf.get(key);
    if (found === undefined) {
      const settings = query.settings[kind];
      found = occurrencesOf(dueDate, settings, first, last)
        .map(({ rule, day }) => ({ rule, at: instantOf(day, settings.reminderTime), occurrence: isoDateOf(day) }))
        .filter(({ at }) => at >= from && at < to);
      daysOf.set(key, found);
    }
    return found;
  };
  const due: DueReminder[] = [];
  for (const task of query.tasks) {
    if (task.state === TaskState.Success) continue;
    const kind = reminderKindOf(task.type);
    for (const { rule, at: placed, occurrence } of occurrencesFor(kind, task.dueDate)) {
      // A reminder's own Date: the placed instant is shared by every task's reminder that day.
      const at = new Date(placed.getTime());
      due.push({
        id: reminderId(task.id, rule, occurrence),
        taskId: task.id,
        contractId: task.contractId,
        taskName: task.name,
        kind,
        rule,
        occurrence,
        dueDate: task.dueDate,
        at,
      });
    }
  }
  return due.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
