import type { Logger } from '../core/ports';
import { snoozeChoices, type Notifier, type ReminderNotification, type SnoozeChoice } from '../core/performance/reminders/scheduler';
import type { DueReminder } from '../core/performance/reminders/rules';

// Native reminder notifications. Electron drops a Notification's click and action events once
// the object is garbage-collected, so each shown notification is kept here until it is clicked,
// closed or fails. The Electron objects come in through `createNotification`, so this module
// runs under plain Node in the tests.

export interface NativeNotificationOptions {
  title: string;
  body: string;
  /** "Remind me later" buttons (shown where the platform supports actions), in `snoozeChoices` order. */
  actions: { type: 'button'; text: string }[];
}

export interface NativeNotification {
  on(event: 'click' | 'close', listener: () => void): unknown;
  on(event: 'action', listener: (event: unknown, index: number) => void): unknown;
  on(event: 'failed', listener: (event: unknown, error: string) => void): unknown;
  show(): void;
}

export interface ReminderNotifierOptions {
  createNotification(options: NativeNotificationOptions): NativeNotification;
  /** Opens the task's route in an app window (the window manager checks it). */
  openRoute(route: string): void;
  /** A quick task has no page: bring the app forward instead. */
  focusApp(): void;
  /** Whether the task still exists and is unfinished; a reminder of a deleted task opens nothing. */
  taskIsOpen(taskId: string): boolean;
  snooze(reminder: DueReminder, choice: SnoozeChoice): void;
  logger: Logger;
}

export interface ReminderNotifier extends Notifier {
  /** How many notifications are still referenced (shown and not yet clicked or closed). */
  readonly pending: number;
}

export function createReminderNotifier(options: ReminderNotifierOptions): ReminderNotifier {
  const shown = new Map<string, NativeNotification>();

  function activate(notification: ReminderNotification): void {
    const { reminder, route } = notification;
    if (!options.taskIsOpen(reminder.taskId)) {
      options.logger.info(`reminder ${reminder.id}: the task was deleted or finished meanwhile; nothing to open`);
      options.focusApp();
      return;
    }
    if (route) options.openRoute(route);
    else options.focusApp();
  }

  return {
    get pending() {
      return shown.size;
    },
    show(notification) {
      const native = options.createNotification({
        title: notification.title,
        body: notification.body,
        actions: snoozeChoices.map((choice) => ({ type: 'button', text: notification.snoozeLabels[choice] })),
      });
      const release = () => shown.delete(notification.id);
      native.on('click', () => {
        release();
        activate(notification);
      });
      native.on('action', (_event, index) => {
        release();
        const choice = snoozeChoices[index];
        if (choice) options.snooze(notification.reminder, choice);
        else options.logger.warn(`reminder ${notification.id}: unknown action ${index}`);
      });
      native.on('close', release);
      native.on('failed', (_event, error) => {
        release();
        options.logger.warn(`reminder ${notification.id} could not be shown: ${error}`);
      });
      // A second showing of the same reminder (a snooze ending) replaces the first reference.
      shown.set(notification.id, native);
      native.show();
    },
  };
}
