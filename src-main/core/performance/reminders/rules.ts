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

const repeatStep: Record<RepeatReminderType, 'days' | 'weeks' | 'months'> = {
  daily: 'days',
  weekly: 'weeks',
  monthly: 'months',
};

export function reminderId(taskId: string, rule: ReminderRule, occurrence: string): string {
  return `${taskId}|${rule}|${occurrence}`;
}

/** A calendar day with no zone attached (UTC midnight); invalid for a date that does not exist. */
function calendarDay(isoDate: string): DateTime {
  return DateTime.fromISO(isoDate, { zone: 'utc' }).startOf('day');
}

function isoDateOf(day: DateTime): string {
  const iso = day.toISODate();
  if (iso === null) throw new RangeError(`invalid day: ${day.invalidExplanation ?? ''}`);
  return iso;
}

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
function repeats(anchor: DateTime, type: RepeatReminderType, first: DateTime, last: DateTime): DateTime[] {
  const unit = repeatStep[type];
  // Start just below the first k that can reach `first`, so long-overdue tasks cost no loop.
  let k = Math.max(1, Math.floor(first.diff(anchor, unit).get(unit)) - 1);
  const days: DateTime[] = [];
  for (let day = anchor.plus({ [unit]: k }); day <= last; k += 1, day = anchor.plus({ [unit]: k })) {
    if (day >= first) days.push(day);
  }
  return days;
}

function occurrencesOf(
  task: ReminderTask,
  settings: ReminderSettings[ReminderTaskKind],
  first: DateTime,
  last: DateTime,
): { rule: ReminderRule; day: DateTime }[] {
  const due = calendarDay(task.dueDate);
  // A due date like 2026-02-30 passes the pattern but names no day: such a task has no reminders.
  if (!due.isValid) return [];
  const nodes = timeNodesOf(settings).map((node) => ({ rule: node as ReminderRule, day: due.minus(timeNodeOffsets[node]) }));
  const nodeDays = new Set(nodes.map((n) => isoDateOf(n.day)));
  const earliestNode = nodes.reduce<DateTime | null>((min, n) => (min === null || n.day < min ? n.day : min), null);
  const beforeDue = due.minus({ days: 1 });
  const condition =
    earliestNode === null
      ? []
      : repeats(earliestNode, settings.condition.reminderType, first, last < beforeDue ? last : beforeDue)
          .filter((day) => !nodeDays.has(isoDateOf(day)))
          .map((day) => ({ rule: 'condition' as const, day }));
  const overdue = repeats(due, settings.overTime.reminderType, first, last).map((day) => ({ rule: 'overdue' as const, day }));
  return [...nodes.filter((n) => n.day >= first && n.day <= last), ...condition, ...overdue];
}

/** The reminders that fire in [from, to), ordered by instant, then id. */
export function remindersDue(query: ReminderQuery): DueReminder[] {
  const { zone, from, to } = query;
  if (!IANAZone.isValidZone(zone)) throw new RangeError(`unknown time zone ${zone}`);
  if (to <= from) return [];
  // Candidate days: the window's local days, one more each side for gap shifts past midnight.
  const first = calendarDay(isoDateOf(DateTime.fromJSDate(from, { zone }))).minus({ days: 1 });
  const last = calendarDay(isoDateOf(DateTime.fromJSDate(to, { zone }))).plus({ days: 1 });
  const due: DueReminder[] = [];
  for (const task of query.tasks) {
    if (task.state === TaskState.Success) continue;
    const kind = reminderKindOf(task.type);
    const settings = query.settings[kind];
    for (const { rule, day } of occurrencesOf(task, settings, first, last)) {
      const at = instantAt(day, settings.reminderTime, zone).toJSDate();
      if (at < from || at >= to) continue;
      const occurrence = isoDateOf(day);
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
