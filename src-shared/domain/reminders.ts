import { z } from 'zod';
import { en } from '../i18n/en';
import { reminderTaskKinds, TaskState, type ReminderTaskKind } from './enums';
import { moneySchema } from './money';

// Performance reminder settings (spec 3 "Reminder settings", 5, 9) and the task shape the desktop
// reminder scheduler reads. The spec names the options but not their wire values, so each option
// is a readable name here; the server's coding maps onto these in one place when tasks sync.

/** Time-node options (spec 9): 3 days before, 1 week before, on the due date, other. */
export const timeNodeReminderTypes = ['threeDaysBefore', 'oneWeekBefore', 'onDue', 'other'] as const;
export type TimeNodeReminderType = (typeof timeNodeReminderTypes)[number];

/** The "other" times (spec 9), each a distance before the due date. */
export const otherReminderTimes = ['oneDay', 'twoDays', 'fiveDays', 'twoWeeks', 'oneMonth', 'twoMonths', 'oneQuarter'] as const;
export type OtherReminderTime = (typeof otherReminderTimes)[number];

/** A time node the engine schedules: every type but the "other" placeholder, plus the other times. */
export type TimeNode = Exclude<TimeNodeReminderType, 'other'> | OtherReminderTime;

/** Distance of each time node before the due date, in calendar units of the user's zone. */
export const timeNodeOffsets: Record<TimeNode, { days?: number; weeks?: number; months?: number }> = {
  threeDaysBefore: { days: 3 },
  oneWeekBefore: { weeks: 1 },
  onDue: { days: 0 },
  oneDay: { days: 1 },
  twoDays: { days: 2 },
  fiveDays: { days: 5 },
  twoWeeks: { weeks: 2 },
  oneMonth: { months: 1 },
  twoMonths: { months: 2 },
  oneQuarter: { months: 3 },
};

/** Condition and overdue reminders repeat (spec 9); weekly is the default. */
export const repeatReminderTypes = ['daily', 'weekly', 'monthly'] as const;
export type RepeatReminderType = (typeof repeatReminderTypes)[number];

/** The spec's message when no date/time-node reminder is chosen (spec 5), verbatim. */
export const reminderTypeRequiredMessage = en.messages.reminderTypeRequired;

const reminderTimePattern = /^([01]\d|2[0-3]):[0-5]\d$/;

export const reminderKindSettingsSchema = z
  .object({
    timeNode: z.object({
      reminderTypes: z.array(z.enum(timeNodeReminderTypes)),
      otherTimes: z.array(z.enum(otherReminderTimes)).default([]),
    }),
    condition: z.object({ reminderType: z.enum(repeatReminderTypes).default('weekly') }),
    overTime: z.object({ reminderType: z.enum(repeatReminderTypes).default('weekly') }),
    /** Time of day, "HH:mm", in the user's time zone. */
    reminderTime: z.string().regex(reminderTimePattern, 'reminder time must be HH:mm'),
  })
  .superRefine((settings, ctx) => {
    // "other" with no other time chosen schedules nothing, so it counts as no choice.
    if (timeNodesOf(settings).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['timeNode', 'reminderTypes'], message: reminderTypeRequiredMessage });
    }
  });
export type ReminderKindSettings = z.infer<typeof reminderKindSettingsSchema>;

export const reminderSettingsSchema = z.object(
  Object.fromEntries(reminderTaskKinds.map((kind) => [kind, reminderKindSettingsSchema])) as Record<
    ReminderTaskKind,
    typeof reminderKindSettingsSchema
  >,
);
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

/** What a user who never saved reminder settings gets: 3 days before and on the due date, weekly repeats, 09:00. */
export const defaultReminderSettings: ReminderSettings = reminderSettingsSchema.parse(
  Object.fromEntries(
    reminderTaskKinds.map((kind) => [
      kind,
      { timeNode: { reminderTypes: ['threeDaysBefore', 'onDue'] }, condition: {}, overTime: {}, reminderTime: '09:00' },
    ]),
  ),
);

/** The time nodes a kind's settings schedule, each once, "other" expanded into its other times. */
export function timeNodesOf(settings: Pick<ReminderKindSettings, 'timeNode'>): TimeNode[] {
  const { reminderTypes, otherTimes } = settings.timeNode;
  const nodes = new Set<TimeNode>();
  for (const type of reminderTypes) {
    if (type !== 'other') nodes.add(type);
  }
  if (reminderTypes.includes('other')) for (const time of otherTimes) nodes.add(time);
  return [...nodes];
}

const taskStates = [
  TaskState.NotStarted,
  TaskState.InProgress,
  TaskState.Overdue,
  TaskState.Success,
  TaskState.Incomplete,
] as const satisfies readonly TaskState[];

const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;

/** A performance task as the reminder scheduler needs it; quick tasks have no contract. */
export const reminderTaskSchema = z.object({
  id: z.string().min(1),
  contractId: z.string().min(1).nullable(),
  name: z.string(),
  /** A spec task type (enums.ts `taskTypes`); any other type counts as "others". */
  type: z.string(),
  /** TaskState; 4 (success) is finished and never reminds. */
  state: z.literal(taskStates),
  /** Due date "yyyy-MM-dd", a calendar day in the user's zone. */
  dueDate: z.string().regex(isoDatePattern),
  amount: moneySchema.optional(),
});
export type ReminderTask = z.infer<typeof reminderTaskSchema>;

/** Where the scheduler reads tasks (the replica, once tasks sync). A deleted task is simply absent. */
export interface ReminderTaskSource {
  /**
   * The unfinished tasks the user is reminded of; with `ids`, only those of them; with `dueBy`
   * (yyyy-MM-dd), only those due on or before that day.
   */
  tasks(ids?: readonly string[], dueBy?: string): ReminderTask[];
}

/** Where the scheduler reads the user's reminder settings; null until they are known. */
export interface ReminderSettingsSource {
  settings(): ReminderSettings | null;
}

// A Map, not an object literal, so a type named like an Object.prototype member is just "others".
const taskKindByType = new Map<string, ReminderTaskKind>([
  ['receivable', 'receivableTask'],
  ['collection', 'receivableTask'],
  ['payable', 'paymentTask'],
  ['payment', 'paymentTask'],
  ['invoicing', 'invoiceTask'],
  ['expiration', 'expirationTask'],
]);

/** The settings kind of a task type: recall and any other type are "others". */
export function reminderKindOf(taskType: string): ReminderTaskKind {
  return taskKindByType.get(taskType) ?? 'othersTask';
}

/** Only the task kinds changed: each kind is kept by the last writer (spec 3 "Reminder settings"). */
export const reminderSettingsPatchSchema = z
  .object(Object.fromEntries(reminderTaskKinds.map((kind) => [kind, reminderKindSettingsSchema.optional()])) as Record<
    ReminderTaskKind,
    z.ZodOptional<typeof reminderKindSettingsSchema>
  >)
  .strict()
  .refine((patch) => Object.values(patch).some((kind) => kind !== undefined), 'change the settings of at least one task kind');
export type ReminderSettingsPatch = z.infer<typeof reminderSettingsPatchSchema>;

/** Settings with the kinds of `patch` replaced: the last writer of each kind wins. */
export function withReminderPatch(settings: ReminderSettings, patch: ReminderSettingsPatch): ReminderSettings {
  const next = { ...settings };
  for (const kind of reminderTaskKinds) {
    const changed = patch[kind];
    if (changed) next[kind] = changed;
  }
  return next;
}
