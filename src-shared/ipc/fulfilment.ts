import { z } from 'zod';
import { contractStatusSchema, idSchema } from '../domain/contract';
import { moneySchema } from '../domain/money';
import { appErrorSchema } from '../errors';
import { conditionTypeSchema, formFieldSchema, isoDateSchema, periodicScheduleSchema, planCreateRowSchema, planPerformanceShownSchema, planRowSchema, refinePlanCondition, sheetColumnSchema, taskStateSchema } from '../domain/performance';

// What the contract page's performance tab reads from the replica (issue 13): the contract's
// plans with their sheet columns and rows (the tasks), each task as this device shows it (the
// user's queued finishes, restores and deletes included), and the finish dialog's form.

/**
 * An edit of a task by this device that the server refused when it applied it (or found changed
 * meanwhile): the task shows it until the user dismisses it, with the server's reason.
 */
export const taskRefusalSchema = z.object({
  /** The mutation id, to dismiss it (sync.dismiss) or settle it in the sync panel. */
  mutationId: z.string(),
  /** The mutation name, e.g. "performance.finishTasks". */
  name: z.string(),
  state: z.enum(['rejected', 'conflict']),
  error: appErrorSchema.nullable(),
});
export type TaskRefusal = z.infer<typeof taskRefusalSchema>;

export const sheetTaskSchema = z.object({
  id: idSchema,
  planId: idSchema.nullable(),
  performanceId: idSchema.nullable(),
  name: z.string(),
  type: z.string(),
  /** The state shown on the organisation's today: a pending task past its date is overdue. */
  state: taskStateSchema,
  dueDate: isoDateSchema.nullable(),
  rowIndex: z.number().int(),
  level: z.number().int().nullable(),
  leaderUserId: idSchema.nullable(),
  /** The row's other cells by column id. */
  values: z.record(z.string(), z.unknown()),
  receivableAmount: moneySchema.nullable(),
  payableAmount: moneySchema.nullable(),
  finishedAmount: moneySchema.nullable(),
  completionValues: z.record(z.string(), z.unknown()).nullable(),
  /** The tasks of the contract it was related to as its predecessors (spec 7 relate), in sheet order. */
  predecessors: z.array(z.object({ id: idSchema, name: z.string(), finished: z.boolean() })),
  /** Some task of the contract could be related to it as a predecessor (the shared rule relateCandidates): the relate action is offered. */
  relatable: z.boolean(),
  /** A queued edit of this device moves it; the server has not confirmed it yet. */
  pending: z.boolean(),
  /** Made by a queued edit of this device (a quick task, a sheet's new row): the server has not made it yet, so no action applies to it. */
  queuedNew: z.boolean(),
  /** The latest edit of this task the server refused, not yet dismissed; null when none. */
  refusal: taskRefusalSchema.nullable(),
});
export type SheetTask = z.infer<typeof sheetTaskSchema>;

export const planSheetSchema = z.object({
  id: idSchema,
  performanceId: idSchema,
  performanceName: z.string(),
  performanceType: z.string(),
  columns: z.array(sheetColumnSchema),
  conditionType: z.number().int(),
  schedule: z.unknown().nullable(),
  version: z.number().int(),
  tasks: z.array(sheetTaskSchema),
  /** The sheet as a queued save of this device lists it, until the server applies it; null otherwise. */
  pendingRows: z.array(planRowSchema).nullable(),
});
export type PlanSheet = z.infer<typeof planSheetSchema>;

export const contractPerformanceSchema = z.object({
  contractStatus: contractStatusSchema.nullable(),
  /** The contract's change is under approval: no task of it may be finished (spec 4). */
  inChange: z.boolean(),
  /** An alteration of the contract is queued on this device and not sent yet: its tasks wait for it too. */
  alterationQueued: z.boolean(),
  plans: z.array(planSheetSchema),
  /** Tasks of the contract under no plan (quick tasks related to it, tasks added alone). */
  looseTasks: z.array(sheetTaskSchema),
});
export type ContractPerformance = z.infer<typeof contractPerformanceSchema>;

/** The finish dialog of a task: its completion form (complete_form, kept in the replica) and what to warn about. */
export const finishFormSchema = z.object({
  taskId: idSchema,
  taskName: z.string(),
  fields: z.array(formFieldSchema),
  /** The values of a finished task (view mode), else null. */
  values: z.record(z.string(), z.unknown()).nullable(),
  /** The task's own amount: the finish amount when none is entered. */
  amount: moneySchema.nullable(),
  /**
   * The unfinished tasks that keep it (or the batch) from being finished, by the server's rule
   * (src-shared/rules/fulfilment blockingPredecessors: its predecessors, and under no plan every
   * earlier task of its contract), in sheet order: the finish dialog's warning (spec 4).
   */
  blockingPredecessors: z.array(z.object({ id: idSchema, name: z.string(), dueDate: isoDateSchema.nullable() })),
});
export type FinishForm = z.infer<typeof finishFormSchema>;

/**
 * The add-plan dialog's plan (the offline mutation performance.createPlan without its ids, which
 * the core makes): the performance chosen, as the dialog showed it, and the rows to generate from
 * a periodic schedule and those typed by hand.
 */
export const planCreateRequestSchema = z
  .object({
    performanceId: idSchema,
    performance: planPerformanceShownSchema,
    plan: z
      .object({
        contractID: idSchema,
        conditionType: conditionTypeSchema,
        schedule: periodicScheduleSchema.optional(),
        rows: z.array(planCreateRowSchema.omit({ id: true })).max(1000).default([]),
      })
      .strict()
      .superRefine(refinePlanCondition),
  })
  .strict();
export type PlanCreateRequest = z.input<typeof planCreateRequestSchema>;
export const finishFormRequestSchema = z
  .object({
    taskId: z.string().min(1).max(64),
    /** The other tasks of a batch finish: the warning is the batch's, each task's predecessors in the batch finishing first. */
    batch: z.array(z.string().min(1).max(64)).max(1000).optional(),
  })
  .strict();

/** The tasks a task may be related to (can_be_front from the replica): earlier tasks of its contract, in sheet order. */
export const relateCandidatesSchema = z.array(z.object({ id: idSchema, name: z.string(), dueDate: isoDateSchema.nullable(), rowIndex: z.number().int(), state: taskStateSchema }));
export type RelateCandidates = z.infer<typeof relateCandidatesSchema>;
