import { DateTime } from 'luxon';
import { reminderTaskKinds, TaskState } from '../../src-shared/domain/enums';
import {
  reminderSettingsSchema,
  type ReminderKindSettings,
  type ReminderSettings,
  type ReminderTask,
} from '../../src-shared/domain/reminders';

// Shared by the reminder rule and scheduler tests.

export function kindSettings(overrides: Partial<ReminderKindSettings> = {}): ReminderKindSettings {
  return {
    timeNode: { reminderTypes: ['threeDaysBefore'], otherTimes: [] },
    condition: { reminderType: 'weekly' },
    overTime: { reminderType: 'weekly' },
    reminderTime: '09:00',
    ...overrides,
  };
}

/** The same settings for every kind, validated like the settings dialog's POST. */
export function settingsForAll(kind: ReminderKindSettings): ReminderSettings {
  return reminderSettingsSchema.parse(Object.fromEntries(reminderTaskKinds.map((k) => [k, kind])));
}

export function task(overrides: Partial<ReminderTask> = {}): ReminderTask {
  return { id: 't1', contractId: 'c1', name: 'Collect deposit', type: 'receivable', state: TaskState.InProgress, dueDate: '2026-06-15', ...overrides };
}

export function at(iso: string, zone: string): Date {
  return DateTime.fromISO(iso, { zone }).toJSDate();
}

export function localOf(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toFormat("yyyy-MM-dd'T'HH:mm");
}
