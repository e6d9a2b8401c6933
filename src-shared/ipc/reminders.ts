import { z } from 'zod';
import { reminderTaskKinds } from '../domain/enums';

// Reminders in the browser edition (issue 28 item 9). The desktop shows each due reminder as a
// native notification; the browser edition has none, so the core keeps the reminders it showed in
// a list the renderer reads ('reminders.list'), announces each change ('reminders.changed') and
// takes the desktop's snooze choices back through a channel. A reminder travels as data, not as
// text: the renderer writes it in the UI's language.

/** "Remind me later", as the desktop's notification buttons offer it. */
export const snoozeChoices = ['oneHour', 'tomorrow'] as const;
export type SnoozeChoice = (typeof snoozeChoices)[number];

/** What a reminder says of its task: due soon, due today, a repeat before the due date, overdue. */
export const reminderHeadings = ['dueSoon', 'dueToday', 'upcoming', 'overdue'] as const;
export type ReminderHeading = (typeof reminderHeadings)[number];

const reminderIdSchema = z.string().min(1, 'which reminder?').max(200);

export const appReminderSchema = z.object({
  /** taskId|rule|occurrence, as the scheduler names it. */
  id: reminderIdSchema,
  taskId: z.string(),
  /** null for a quick task, which has no contract to open. */
  contractId: z.string().nullable(),
  contractName: z.string().nullable(),
  taskName: z.string(),
  kind: z.enum(reminderTaskKinds),
  heading: z.enum(reminderHeadings),
  /** yyyy-MM-dd. */
  dueDate: z.string(),
  /** When it was shown (ISO instant). */
  shownAt: z.string(),
});
export type AppReminder = z.infer<typeof appReminderSchema>;

/** The list, newest first. */
export const appReminderListSchema = z.array(appReminderSchema);

export const snoozeReminderRequestSchema = z.object({ id: reminderIdSchema, choice: z.enum(snoozeChoices) }).strict();
export const reminderIdRequestSchema = z.object({ id: reminderIdSchema }).strict();

/** A change of the list; `due` names the reminders that just fell due (the browser notifies of those). */
export const remindersChangedEventSchema = z.object({ reminders: appReminderListSchema, due: z.array(z.string()) });
