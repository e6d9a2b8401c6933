import { z } from 'zod';
import { idSchema } from '../domain/contract';
import { moneySchema } from '../domain/money';
import { isoDateSchema, quickTaskPayloadSchema, taskStateSchema, taskStatisticsSchema } from '../domain/performance';
import { reminderSettingsPatchSchema, reminderSettingsSchema } from '../domain/reminders';
import { taskRefusalSchema } from './fulfilment';
import { maxDashboardDays, rangeDays } from '../rules/dashboard';

// The performance dashboard (spec 2, 3 "Performance dashboard") as the core computes it from the
// replica, and the offline quick-task and reminder-settings edits.

export const dateRangeSchema = z
  .object({ startDate: isoDateSchema, endDate: isoDateSchema })
  .strict()
  .refine((range) => range.startDate <= range.endDate, { message: 'the start date must not be after the end date', path: ['endDate'] })
  .refine((range) => rangeDays(range) <= maxDashboardDays, { message: `a range covers at most ${maxDashboardDays} days`, path: ['endDate'] });

/** A board card: spec 3 "Task card" as the replica holds it; `queued` while a quick task waits to sync. */
export const boardTaskSchema = z.object({
  id: idSchema,
  /** The task's plan; null for a quick task, whose actions the board offers (it has no sheet row). */
  planId: idSchema.nullable(),
  contractId: idSchema.nullable(),
  contractName: z.string().nullable(),
  counterpartName: z.string().nullable(),
  name: z.string(),
  type: z.string(),
  /** The state as it stands today: a pending task past its date is overdue. */
  state: taskStateSchema,
  dueDate: isoDateSchema,
  amount: moneySchema.nullable(),
  queued: z.boolean(),
  /** This device's latest edit of the task the server refused, not yet dismissed; null when none. */
  refusal: taskRefusalSchema.nullable(),
});
export type BoardTask = z.infer<typeof boardTaskSchema>;

/** One day of the board: at most `perDay` cards, and how many tasks are due that day. */
export const boardDaySchema = z.object({ date: isoDateSchema, total: z.number().int().nonnegative(), taskList: z.array(boardTaskSchema) });
export type BoardDay = z.infer<typeof boardDaySchema>;

/** A board day shows at most this many cards, as the server's task_scheduling does. */
export const boardDayLimit = 20;

export const boardRequestSchema = z
  .object({
    startDate: isoDateSchema,
    endDate: isoDateSchema,
    /** Cards per day; the .ics export asks for every task. */
    perDay: z.number().int().min(1).max(100_000).default(boardDayLimit),
  })
  .strict()
  .superRefine((request, ctx) => {
    const range = dateRangeSchema.safeParse({ startDate: request.startDate, endDate: request.endDate });
    if (!range.success) for (const issue of range.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });

export const boardResponseSchema = z.object({ today: isoDateSchema, days: z.array(boardDaySchema) });

export const statisticsResponseSchema = taskStatisticsSchema;

export const quickTaskRequestSchema = z.object({ payload: quickTaskPayloadSchema }).strict();
export const quickTaskResponseSchema = z.object({ id: idSchema, mutationId: z.string() });


export { reminderSettingsPatchSchema, reminderSettingsSchema };
