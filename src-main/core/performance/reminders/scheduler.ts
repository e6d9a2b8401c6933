import { DateTime, IANAZone } from 'luxon';
import { TaskState } from '../../../../src-shared/domain/enums';
import {
  reminderKindOf,
  type ReminderSettings,
  type ReminderSettingsSource,
  type ReminderTask,
  type ReminderTaskSource,
} from '../../../../src-shared/domain/reminders';
import { catalogs } from '../../../../src-shared/i18n/catalogs';
import type { Language } from '../../../../src-shared/i18n/languages';
import { formatDayIn } from '../../../../src-shared/i18n/days';
import type { ReminderLog } from '../reminder-log';
import type { Clock, Logger } from '../../ports';
import { instantAt, lastDueWithRemindersBefore, remindersDue, type DueReminder, type ReminderRule } from './rules';
import { taskRoute } from '../../../../src-shared/rules/dashboard';
import { snoozeChoices, type ReminderHeading, type SnoozeChoice } from '../../../../src-shared/ipc/reminders';

export { snoozeChoices, type SnoozeChoice };

// Desktop reminders: wakes at the next reminder's instant, shows what is due through the Notifier
// and remembers it in the replica, so each reminder fires once, across restarts, offline.
//
// Every wake looks back over the last `catchUpMs` (24 hours by default) rather than only since the
// previous wake. That one rule covers reminders missed while the app was closed or the laptop
// slept, and a time-zone change east that moves a reminder's instant into the past; the fired log
// keeps each one to a single showing. Older misses are dropped on purpose: a laptop opened after
// a month shows today's reminders, not hundreds of stale ones (the dashboard lists those).
// Since no reminder is ever looked for further back than that, the log forgets entries after
// `forgetAfterMs` (30 days, well past the look-back plus any zone shift) so it stays small.

export interface Timers {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

export const systemTimers: Timers = {
  set: (callback, delayMs) => setTimeout(callback, delayMs),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ReminderNotification {
  id: string;
  title: string;
  body: string;
  /** The task's page; null for a quick task, which has no contract to open. */
  route: string | null;
  snoozeLabels: Record<SnoozeChoice, string>;
  /** Hand back to `snooze` when the user picks "remind me later". */
  reminder: DueReminder;
}

/** Shows a reminder; the Electron shell implements it with native notifications. */
export interface Notifier {
  show(notification: ReminderNotification): void;
}

export interface ReminderSchedulerOptions {
  clock: Clock;
  timers: Timers;
  tasks: ReminderTaskSource;
  settings: ReminderSettingsSource;
  log: ReminderLog;
  notifier: Notifier;
  logger: Logger;
  language: () => Language;
  /** The user's IANA time zone, read at every wake so a change applies at once. */
  zone?: () => string;
  catchUpMs?: number;
  /** Longest sleep between wakes, so changed tasks, settings or zone are picked up. */
  maxSleepMs?: number;
}

export interface ReminderScheduler {
  start(): void;
  stop(): void;
  /** Re-reads tasks and settings now (after a sync, a settings change, a resume from sleep). */
  refresh(): void;
  /**
   * After a local edit that may bring reminders back (a restore): shows those tasks' reminders due
   * now and wakes earlier if one of theirs comes before the next wake; the other tasks, unchanged,
   * are not read again.
   */
  refreshTasks(ids: readonly string[]): void;
  /** Remind me later; false if the reminder was never shown. */
  snooze(reminder: DueReminder, choice: SnoozeChoice): boolean;
}

const hourMs = 60 * 60 * 1000;
const forgetAfterMs = 30 * 24 * hourMs;

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** What a reminder of this rule says of its task (the notification's title). */
export function reminderHeading(rule: ReminderRule): ReminderHeading {
  if (rule === 'onDue') return 'dueToday';
  if (rule === 'condition') return 'upcoming';
  if (rule === 'overdue') return 'overdue';
  return 'dueSoon';
}

function interpolate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (match, key: string) => values[key] ?? match);
}

export function reminderNotification(reminder: DueReminder, language: Language): ReminderNotification {
  const text = catalogs[language].reminders;
  return {
    id: reminder.id,
    title: text.title[reminderHeading(reminder.rule)],
    body: interpolate(text.body, { kind: text.kinds[reminder.kind], task: reminder.taskName, dueDate: formatDayIn(reminder.dueDate, language) }),
    route: taskRoute(reminder.contractId),
    snoozeLabels: { oneHour: text.snoozeOneHour, tomorrow: text.snoozeTomorrow },
    reminder,
  };
}

export function createReminderScheduler(options: ReminderSchedulerOptions): ReminderScheduler {
  const { clock, timers, log, notifier, logger } = options;
  const catchUpMs = options.catchUpMs ?? 24 * hourMs;
  const maxSleepMs = options.maxSleepMs ?? hourMs;
  let timer: unknown = null;
  /** When the timer wakes (ms); null while none is set. */
  let wakeAt: number | null = null;
  let running = false;

  function zone(): string {
    const wanted = (options.zone ?? systemTimeZone)();
    if (IANAZone.isValidZone(wanted)) return wanted;
    logger.warn('reminders: unknown time zone, using the system zone', wanted);
    return systemTimeZone();
  }

  function show(reminder: DueReminder): void {
    try {
      notifier.show(reminderNotification(reminder, options.language()));
    } catch (cause) {
      logger.error('reminders: the notifier failed', cause);
    }
  }

  /** Shows the tasks' reminders due at `now` not shown yet; returns the first of theirs before `until`, if any. */
  function fireAmong(tasks: readonly ReminderTask[], settings: ReminderSettings, now: Date, until: number, userZone: string = zone()): Date | null {
    const nowMs = now.getTime();
    // One pass over the tasks for both windows, [now − catch-up, now] and (now, until): split by instant.
    const found = remindersDue({ tasks, settings, zone: userZone, from: new Date(nowMs - catchUpMs), to: new Date(Math.max(until, nowMs + 1)) });
    const due = found.filter((reminder) => reminder.at.getTime() <= nowMs);
    const fired = log.firedAmong(due.map((r) => r.id));
    for (const reminder of due) {
      if (fired.has(reminder.id)) continue;
      // Logged before it is shown: a crash in between loses one reminder rather than repeating it.
      log.markFired(reminder, now.toISOString());
      show(reminder);
    }
    // Ordered by instant: the first after now is the next, if it comes before `until`.
    const next = found.find((reminder) => reminder.at.getTime() > nowMs);
    return next && next.at.getTime() < until ? next.at : null;
  }

  /** Shows what is due now; returns when to wake next. */
  function fireDue(now: Date): Date {
    const nextSnooze = fireSnoozes(now);
    const settings = options.settings.settings();
    let sleepUntil = now.getTime() + maxSleepMs;
    if (nextSnooze !== null) sleepUntil = Math.min(sleepUntil, Date.parse(nextSnooze));
    if (settings === null) return new Date(sleepUntil);
    // Tasks due too late to remind of anything before the wake are left unread (most of a large replica's future).
    // The zone read once for the wake: an unknown one is reported once, not per use.
    const userZone = zone();
    const tasks = options.tasks.tasks(undefined, lastDueWithRemindersBefore(new Date(sleepUntil), userZone));
    return fireAmong(tasks, settings, now, sleepUntil, userZone) ?? new Date(sleepUntil);
  }

  function setTimer(now: Date, next: Date): void {
    wakeAt = Math.max(now.getTime(), next.getTime());
    timer = timers.set(wake, wakeAt - now.getTime());
  }

  /** Shows snoozed reminders whose time has come, if their task is still there and unfinished. */
  function fireSnoozes(now: Date): string | null {
    const due = log.snoozesDue(now.toISOString());
    if (due.length > 0) {
      const tasks = new Map(options.tasks.tasks().map((t) => [t.id, t]));
      for (const snoozed of due) {
        log.endSnooze(snoozed.id);
        const task = tasks.get(snoozed.taskId);
        if (!task || task.state === TaskState.Success) continue;
        show({
          id: snoozed.id,
          taskId: task.id,
          contractId: task.contractId,
          taskName: task.name,
          kind: reminderKindOf(task.type),
          rule: snoozed.rule as ReminderRule,
          occurrence: snoozed.occurrence,
          dueDate: task.dueDate,
          at: now,
        });
      }
    }
    return log.nextSnooze();
  }

  function wake(): void {
    timer = null;
    wakeAt = null;
    if (!running) return;
    const now = clock.now();
    let next: Date;
    try {
      next = fireDue(now);
    } catch (cause) {
      // A bad row or setting must not end reminders for good: try again after the usual sleep.
      logger.error('reminders: could not compute reminders', cause);
      next = new Date(now.getTime() + maxSleepMs);
    }
    setTimer(now, next);
  }

  function refresh(): void {
    if (timer !== null) timers.clear(timer);
    wake();
  }

  function refreshTasks(ids: readonly string[]): void {
    const settings = options.settings.settings();
    if (timer === null || wakeAt === null || settings === null || ids.length === 0) return;
    const now = clock.now();
    try {
      const next = fireAmong(options.tasks.tasks(ids), settings, now, wakeAt);
      if (next === null || next.getTime() >= wakeAt) return;
      timers.clear(timer);
      setTimer(now, next);
    } catch (cause) {
      // As at a wake: a bad row must not end reminders; the next wake reads every task again.
      logger.error('reminders: could not compute reminders', cause);
    }
  }

  function snoozeUntil(reminder: DueReminder, choice: SnoozeChoice): Date {
    const now = clock.now();
    if (choice === 'oneHour') return new Date(now.getTime() + hourMs);
    const userZone = zone();
    const tomorrow = DateTime.fromJSDate(now, { zone: userZone }).plus({ days: 1 });
    const time = options.settings.settings()?.[reminder.kind].reminderTime ?? tomorrow.toFormat('HH:mm');
    return instantAt(DateTime.utc(tomorrow.year, tomorrow.month, tomorrow.day), time, userZone).toJSDate();
  }

  return {
    start() {
      if (running) return;
      running = true;
      log.forgetFiredBefore(new Date(clock.now().getTime() - forgetAfterMs).toISOString());
      wake();
    },
    stop() {
      running = false;
      if (timer !== null) timers.clear(timer);
      timer = null;
      wakeAt = null;
    },
    refresh() {
      if (running) refresh();
    },
    refreshTasks(ids) {
      if (running) refreshTasks(ids);
    },
    snooze(reminder, choice) {
      const snoozed = log.snooze(reminder.id, snoozeUntil(reminder, choice).toISOString());
      if (snoozed && running) refresh();
      return snoozed;
    },
  };
}
