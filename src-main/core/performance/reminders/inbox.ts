import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { reminderTaskKinds } from '../../../../src-shared/domain/enums';
import { AppFailure, reason } from '../../../../src-shared/errors';
import type { AppReminder, SnoozeChoice } from '../../../../src-shared/ipc/reminders';
import type { ReplicaTx } from '../../data/replica-features';
import { contractsOverlay, replicaMeta } from '../../data/schema';
import type { CoreFeature, FeatureHost } from '../../feature';
import type { DueReminder, ReminderRule } from './rules';
import { reminderHeading, type Notifier } from './scheduler';

// The browser edition's notifier. A browser tab cannot show the desktop's native notifications,
// so each due reminder is kept here and announced to every connected page ('reminders.changed',
// which the web host carries over its socket like every core event); the pages show the list and,
// with the user's permission, the browser's own notifications. The list is kept in the user's
// replica (its key/value facts), so it survives a restart of the web host as the scheduler's log
// of shown reminders does: a reminder shown before the restart is in the list after it.

const inboxKey = 'reminder_inbox';

/** A listed reminder as kept: its instant as ISO text. */
const keptSchema = z.array(
  z.object({
    reminder: z.object({
      id: z.string(),
      taskId: z.string(),
      contractId: z.string().nullable(),
      taskName: z.string(),
      kind: z.enum(reminderTaskKinds),
      rule: z.string(),
      occurrence: z.string(),
      dueDate: z.string(),
      at: z.string(),
    }),
    shownAt: z.string(),
  }),
);

interface Listed {
  reminder: DueReminder;
  shownAt: string;
}

function readInbox(db: ReplicaTx): Map<string, Listed> {
  const row = db.select({ value: replicaMeta.value }).from(replicaMeta).where(eq(replicaMeta.key, inboxKey)).get();
  let kept: z.infer<typeof keptSchema> = [];
  try {
    kept = row ? keptSchema.catch([]).parse(JSON.parse(row.value)) : [];
  } catch {
    // Unreadable text costs the list, never the core.
  }
  return new Map(kept.map(({ reminder, shownAt }) => [reminder.id, { reminder: { ...reminder, rule: reminder.rule as ReminderRule, at: new Date(reminder.at) }, shownAt }]));
}

function keepInbox(db: ReplicaTx, shown: ReadonlyMap<string, Listed>): void {
  const value = JSON.stringify([...shown.values()].map(({ reminder, shownAt }) => ({ reminder: { ...reminder, at: reminder.at.toISOString() }, shownAt })));
  db.insert(replicaMeta).values({ key: inboxKey, value }).onConflictDoUpdate({ target: replicaMeta.key, set: { value } }).run();
}

export type ReminderInboxChannel = 'reminders.list' | 'reminders.snooze' | 'reminders.dismiss';

export interface ReminderInboxOptions {
  /** Whether the task is still there and unfinished: a reminder of any other leaves the list. */
  taskIsOpen(taskId: string): boolean;
  /** The scheduler's "remind me later". */
  snooze(reminder: DueReminder, choice: SnoozeChoice): void;
}

export type ReminderInbox = CoreFeature<ReminderInboxChannel> & { notifier: Notifier };

export function createReminderInbox(host: FeatureHost, options: ReminderInboxOptions): ReminderInbox {
  /**
   * Shown reminders by id, oldest first (a reminder shown again moves to the end): the session's
   * kept list, read when first needed (a reminder may be shown before this feature's start).
   */
  let loaded: Map<string, Listed> | null = null;
  const inbox = () => (loaded ??= readInbox(host.signedIn().replica.db));
  const keep = () => keepInbox(host.signedIn().replica.db, inbox());

  /** Whether someone is signed in: signed out, there is no list to read (it is kept with the user's replica). */
  function sessionOpen(): boolean {
    try {
      host.signedIn();
      return true;
    } catch (cause) {
      if (cause instanceof AppFailure && cause.error.code === 'not_signed_in') return false;
      throw cause;
    }
  }

  function contractNames(ids: string[]): Map<string, string> {
    if (ids.length === 0) return new Map();
    const rows = host.signedIn().replica.db.select({ id: contractsOverlay.id, name: contractsOverlay.name }).from(contractsOverlay).where(inArray(contractsOverlay.id, ids)).all();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** The list, newest first; reminders whose task was finished or deleted meanwhile leave it. */
  function list(): AppReminder[] {
    const shown = inbox();
    const before = shown.size;
    for (const [id, { reminder }] of shown) if (!options.taskIsOpen(reminder.taskId)) shown.delete(id);
    if (shown.size !== before) keep();
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
    const entry = inbox().get(id);
    if (!entry) throw new AppFailure('not_found', `reminder not in the list: ${id}`, undefined, reason('reminderNotListed'));
    inbox().delete(id);
    keep();
    return entry.reminder;
  }

  // A task finished or deleted (here, by a pull, on another device) takes its reminders off every page's list.
  host.hub.subscribe((event, payload) => {
    if (event !== 'data.changed' || !loaded || loaded.size === 0) return;
    if (!(payload as { entities: string[] }).entities.includes('performanceTask')) return;
    const before = loaded.size;
    const reminders = list();
    if (loaded.size !== before) host.hub.emit('reminders.changed', { reminders, due: [] });
  });

  return {
    notifier: {
      show({ reminder }) {
        const shown = inbox();
        shown.delete(reminder.id);
        shown.set(reminder.id, { reminder, shownAt: host.clock.now().toISOString() });
        keep();
        announce([reminder.id]);
      },
    },
    handlers: {
      'reminders.list': () => (sessionOpen() ? list() : []),
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
    // The list stays kept in the replica for the user's next session; this session's copy goes.
    stop() {
      loaded = null;
    },
  };
}
