import { inArray } from 'drizzle-orm';
import { AppFailure, reason } from '../../../../src-shared/errors';
import type { AppReminder, SnoozeChoice } from '../../../../src-shared/ipc/reminders';
import { contractsOverlay } from '../../data/schema';
import type { CoreFeature, FeatureHost } from '../../feature';
import type { DueReminder } from './rules';
import { reminderHeading, type Notifier } from './scheduler';

// The browser edition's notifier. A browser tab cannot show the desktop's native notifications,
// so each due reminder is kept here and announced to every connected page ('reminders.changed',
// which the web host carries over its socket like every core event); the pages show the list and,
// with the user's permission, the browser's own notifications. The list is kept in memory: it
// holds what fell due while the host runs (the scheduler's log keeps each reminder to one showing).

export type ReminderInboxChannel = 'reminders.list' | 'reminders.snooze' | 'reminders.dismiss';

export interface ReminderInboxOptions {
  /** Whether the task is still there and unfinished: a reminder of any other leaves the list. */
  taskIsOpen(taskId: string): boolean;
  /** The scheduler's "remind me later". */
  snooze(reminder: DueReminder, choice: SnoozeChoice): void;
}

export type ReminderInbox = CoreFeature<ReminderInboxChannel> & { notifier: Notifier };

export function createReminderInbox(host: FeatureHost, options: ReminderInboxOptions): ReminderInbox {
  /** Shown reminders by id, oldest first (a reminder shown again moves to the end). */
  const shown = new Map<string, { reminder: DueReminder; shownAt: string }>();

  function contractNames(ids: string[]): Map<string, string> {
    if (ids.length === 0) return new Map();
    const rows = host.signedIn().replica.db.select({ id: contractsOverlay.id, name: contractsOverlay.name }).from(contractsOverlay).where(inArray(contractsOverlay.id, ids)).all();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** The list, newest first; reminders whose task was finished or deleted meanwhile leave it. */
  function list(): AppReminder[] {
    for (const [id, { reminder }] of shown) if (!options.taskIsOpen(reminder.taskId)) shown.delete(id);
    const entries = [...shown.values()].reverse();
    const names = contractNames([...new Set(entries.flatMap(({ reminder }) => (reminder.contractId === null ? [] : [reminder.contractId])))]);
    return entries.map(({ reminder, shownAt }) => ({
      id: reminder.id,
      taskId: reminder.taskId,
      contractId: reminder.contractId,
      contractName: reminder.contractId === null ? null : (names.get(reminder.contractId) ?? null),
      taskName: reminder.taskName,
      kind: reminder.kind,
      heading: reminderHeading(reminder.rule),
      dueDate: reminder.dueDate,
      shownAt,
    }));
  }

  function announce(due: string[]): AppReminder[] {
    const reminders = list();
    host.hub.emit('reminders.changed', { reminders, due });
    return reminders;
  }

  function take(id: string): DueReminder {
    const entry = shown.get(id);
    if (!entry) throw new AppFailure('not_found', `reminder not in the list: ${id}`, undefined, reason('reminderNotListed'));
    shown.delete(id);
    return entry.reminder;
  }

  // A task finished or deleted (here, by a pull, on another device) takes its reminders off every page's list.
  host.hub.subscribe((event, payload) => {
    if (event !== 'data.changed' || shown.size === 0) return;
    if (!(payload as { entities: string[] }).entities.includes('performanceTask')) return;
    const before = shown.size;
    const reminders = list();
    if (shown.size !== before) host.hub.emit('reminders.changed', { reminders, due: [] });
  });

  return {
    notifier: {
      show({ reminder }) {
        shown.delete(reminder.id);
        shown.set(reminder.id, { reminder, shownAt: host.clock.now().toISOString() });
        announce([reminder.id]);
      },
    },
    handlers: {
      'reminders.list': () => list(),
      'reminders.snooze': ({ id, choice }) => {
        host.signedIn();
        options.snooze(take(id), choice);
        return announce([]);
      },
      'reminders.dismiss': ({ id }) => {
        host.signedIn();
        take(id);
        return announce([]);
      },
    },
    stop() {
      shown.clear();
    },
  };
}
