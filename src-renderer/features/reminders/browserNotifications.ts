import type { TFunction } from 'i18next';
import type { AppReminder } from '../../../src-shared/ipc/reminders';
import { formatDay } from '../../i18n/format';

// The browser's Notification API, where it has one. Permission is asked only from a user's
// click (browsers ignore or block a request made without one); a notification is tagged with the
// reminder's id, so two open pages of the app show it once.

export type NotificationAccess = NotificationPermission | 'unsupported';

export function notificationAccess(): NotificationAccess {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export async function askNotificationAccess(): Promise<NotificationAccess> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

/** A reminder in the UI's language: what it says of its task, and the task, its contract and due date. */
export function reminderText(t: TFunction, language: string, reminder: AppReminder) {
  const dueDate = formatDay(reminder.dueDate, language) || reminder.dueDate;
  return {
    title: t(`reminders.title.${reminder.heading}`),
    kind: t(`reminders.kinds.${reminder.kind}`),
    contract: reminder.contractId === null ? t('browserReminders.quickTask') : (reminder.contractName ?? ''),
    due: t('browserReminders.dueOn', { date: dueDate }),
    body: t('reminders.body', { kind: t(`reminders.kinds.${reminder.kind}`), task: reminder.taskName, dueDate }),
  };
}

/** Shows the reminder as a browser notification; a click runs `onClick` (the page brings itself forward first). */
export function notify(t: TFunction, language: string, reminder: AppReminder, onClick: () => void): void {
  const text = reminderText(t, language, reminder);
  const shown = new Notification(text.title, { body: text.contract ? `${text.body}\n${text.contract}` : text.body, tag: reminder.id });
  shown.onclick = () => {
    window.focus();
    shown.close();
    onClick();
  };
}
