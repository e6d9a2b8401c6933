import { z } from 'zod';
import { en } from '../i18n/en';
import { languages } from '../i18n/languages';
import { definitionIssues } from '../rules/performance-definitions';
import { scheduleCycles } from '../rules/schedule';
import { valueRangeSchema } from '../rules/value-range';
import { idSchema } from './contract';
import { isoDateSchema } from './dates';
import { ScheduleConditionType, TaskState, taskTypes } from './enums';
import { moneySchema } from './money';

export { isoDateSchema };

// Performance (fulfilment) records, plans and tasks (spec 3 "Performance sheet", "Performance
// dashboard", spec 4 "Performance tasks", spec 7 "Performance tasks and plans").

export const taskStateSchema = z.union([
  z.literal(TaskState.NotStarted),
  z.literal(TaskState.InProgress),
  z.literal(TaskState.Overdue),
  z.literal(TaskState.Success),
  z.literal(TaskState.Incomplete),
]);

/** The spec's task types, plus `custom` for quick tasks (spec 3 "Quick task payload"). */
export const performanceTaskTypes = [...taskTypes, 'custom'] as const;
export const taskTypeSchema = z.enum(performanceTaskTypes);
export type PerformanceTaskType = (typeof performanceTaskTypes)[number];

/** Money as a request sends it: whole non-negative hundredths and a unit. */
export const amountInputSchema = moneySchema.extend({ amount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

/** The sheet column types of spec 3 "Performance sheet", in the spec's order. */
export const sheetColumnTypes = [
  'textarea', 'date', 'money', 'number', 'people', 'select', 'multiselect', 'performanceTime', 'outerParty', 'innerParty', 'text',
] as const;

/** The column types offered extraction and relate-field (spec 5). */
export const relatableColumnTypes: readonly (typeof sheetColumnTypes)[number][] = ['number', 'money', 'date', 'text', 'textarea', 'outerParty', 'innerParty'];

/** Columns whose cells are fields of the task itself rather than entries of its values. */
export const taskFieldColumns: readonly string[] = ['name', 'expirationTime', 'receivableAmount', 'payableAmount', 'leader'];

const sheetOptionSchema = z.object({ id: z.string().max(64), name: z.string().max(200) });

export const sheetColumnSchema = z
  .object({
    id: z.string().trim().min(1).max(64),
    name: z.string().trim().min(1).max(100),
    type: z.enum(sheetColumnTypes),
    config: z
      .object({
        /** Options of choice columns. */
        options: z.array(sheetOptionSchema).max(200).optional(),
        /** Person columns: one person, or several. */
        singleSelect: z.boolean().optional(),
        /** Number and money columns: the value-range rule their cells must meet (spec 5). */
        valueRange: valueRangeSchema.optional(),
        /** Performance-time columns: the nodes a time is relative to (a contract's signing, acceptance...). */
        referenceNodes: z.array(sheetOptionSchema).max(50).optional(),
        /**
         * Number, money, date, text and party columns: the contract form field the column follows
         * (spec 5 "relate field"): its cells hold the contract's value of it, also after an alteration.
         */
        relatedFieldId: z.string().min(1).max(64).optional(),
      })
      .strict()
      .optional(),
    isRequired: z.boolean().default(false),
    /** The column that holds the task state. */
    isState: z.boolean().default(false),
  })
  .strict()
  // A rule or a node list on a column that has no use for it is a mistake in the definition.
  .refine((column) => !column.config?.valueRange || column.type === 'number' || column.type === 'money', {
    path: ['config', 'valueRange'],
    message: 'only number and money columns have a value range',
  })
  .refine((column) => !column.config?.referenceNodes || column.type === 'performanceTime', {
    path: ['config', 'referenceNodes'],
    message: 'only performance-time columns have reference nodes',
  })
  // The task's own fields (content, date, amounts) are typed by the user; the sheet's other cells may follow the contract.
  .refine((column) => !column.config?.relatedFieldId || (relatableColumnTypes.includes(column.type) && !taskFieldColumns.includes(column.id)), {
    path: ['config', 'relatedFieldId'],
    message: 'only number, money, date, text and party columns of the sheet follow a contract field',
  });
export type SheetColumn = z.infer<typeof sheetColumnSchema>;

/** A form field config (spec 3) as the performance form and the completion form carry it. */
export const formFieldSchema = z
  .object({
    id: z.string().trim().min(1).max(64),
    name: z.string().trim().min(1).max(100),
    type: z.string().trim().min(1).max(32),
    required: z.boolean().default(false),
    placeholder: z.string().max(200).optional(),
    maxlength: z.number().int().min(1).max(1000).optional(),
    options: z.array(z.object({ id: z.string().max(64), name: z.string().max(200) })).max(200).optional(),
  })
  .strict();
export type FormField = z.infer<typeof formFieldSchema>;

export const performanceSchema = z.object({
  id: idSchema,
  name: z.string(),
  type: taskTypeSchema,
  /** The completion form's fields (complete_form returns them as configFields). */
  fields: z.array(formFieldSchema),
  /** The performance sheet's columns. */
  columns: z.array(sheetColumnSchema),
  sortOrder: z.number().int(),
  updateTime: z.string(),
  version: z.number().int(),
});
export type Performance = z.infer<typeof performanceSchema>;

const performanceFields = {
  name: z.string().trim().min(1, en.messages.enterName).max(100),
  type: taskTypeSchema,
  fields: z.array(formFieldSchema).max(100),
  columns: z.array(sheetColumnSchema).min(1).max(100),
  sortOrder: z.number().int().min(0).max(1_000_000),
};

/** The rules across a definition's columns and fields (src-shared/rules/performance-definitions.ts), as issues of the parse. */
function checkDefinition(definition: Parameters<typeof definitionIssues>[0], ctx: z.RefinementCtx): void {
  for (const issue of definitionIssues(definition)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
}

export const performanceCreateSchema = z
  .object({ ...performanceFields, fields: performanceFields.fields.default([]), sortOrder: performanceFields.sortOrder.default(0) })
  .strict()
  .superRefine(checkDefinition);
/** `version`: the version the edit is based on (as If-Match says it), for clients that cannot send headers. */
export const performanceUpdateSchema = z
  .object({ ...performanceFields, version: z.number().int().min(0) })
  .partial()
  .strict()
  .superRefine(checkDefinition);

/** Spec 3 "Task card", plus what editing needs (version, row index, sheet cells). */
export const taskCardSchema = z.object({
  id: idSchema,
  planID: idSchema.nullable(),
  contractID: idSchema.nullable(),
  performanceID: idSchema.nullable(),
  taskName: z.string(),
  taskState: taskStateSchema,
  expirationTime: z.string().nullable(),
  counterpartName: z.string().nullable(),
  contractName: z.string().nullable(),
  /** The leader's display name. */
  taskLeader: z.string().nullable(),
  leaderUserID: idSchema.nullable(),
  payableAmount: moneySchema.nullable(),
  receivableAmount: moneySchema.nullable(),
  type: z.string(),
  /** The performance date (the due date). */
  date: z.string().nullable(),
  level: z.number().int().nullable(),
  rowIndex: z.number().int(),
  values: z.record(z.string(), z.unknown()),
  finishedAmount: z.number().int().nullable(),
  version: z.number().int(),
});
export type TaskCard = z.infer<typeof taskCardSchema>;

export const scheduleDaySchema = z.object({ date: z.string(), total: z.number().int().nonnegative(), taskList: z.array(taskCardSchema) });
export type ScheduleDay = z.infer<typeof scheduleDaySchema>;

export const taskStatisticsSchema = z.object({
  total: z.number().int().nonnegative(),
  ongoingCount: z.number().int().nonnegative(),
  completedCount: z.number().int().nonnegative(),
  toBeImprovedCount: z.number().int().nonnegative(),
  overdueCount: z.number().int().nonnegative(),
});
export type TaskStatistics = z.infer<typeof taskStatisticsSchema>;

/** Spec 3 "Predecessor task", with its state so the client can tell what blocks. */
export const predecessorTaskSchema = z.object({
  taskID: idSchema,
  taskName: z.string(),
  contractName: z.string().nullable(),
  contractID: idSchema.nullable(),
  taskState: taskStateSchema,
});
export type PredecessorTask = z.infer<typeof predecessorTaskSchema>;

/** Sheet cells by column id (spec 3 "A row is an array of cell values in column order"). */
const rowValuesSchema = z.record(z.string().max(64), z.unknown()).refine((v) => Object.keys(v).length <= 100, 'at most 100 cells');

/** A quick-task field: the payload carries one default required date field (spec 3). */
export const quickTaskFieldSchema = z
  .object({
    id: z.string().trim().min(1).max(64),
    name: z.string().trim().max(100),
    type: z.string().trim().min(1).max(32),
    required: z.boolean().default(false),
    value: z.unknown().optional(),
  })
  .strict();

/** The performance date of a quick task: the value of its first date field, if it is a date. */
export function quickTaskDate(fieldList: readonly { type: string; value?: unknown }[]): string | null {
  const value = fieldList.find((f) => f.type === 'date')?.value;
  return typeof value === 'string' && isoDateSchema.safeParse(value).success ? value : null;
}

/** Spec 3 "Quick task payload", with the spec 5 messages for a missing date and content. */
export const quickTaskPayloadSchema = z
  .object({
    name: z.string().trim().min(1, en.messages.performanceContentRequired).max(1000),
    type: z.literal('custom'),
    /** The contract id from the route query; absent for a task outside any contract. */
    relatedID: idSchema.optional(),
    level: z.number().int().min(1).max(5).optional(),
    leaderUserID: idSchema.optional(),
    fieldList: z.array(quickTaskFieldSchema).max(50),
  })
  .strict()
  .superRefine((payload, ctx) => {
    if (quickTaskDate(payload.fieldList) === null) {
      ctx.addIssue({ code: 'custom', path: ['fieldList'], message: en.messages.performanceDateRequired });
    }
  });
export type QuickTaskPayload = z.infer<typeof quickTaskPayloadSchema>;

/** Values of the completion form (spec 3 "Finish payload" configFields), by field id. */
const configFieldsSchema = z.record(z.string().max(64), z.unknown()).refine((v) => Object.keys(v).length <= 100, 'at most 100 fields');

/** Finishing one task: the amount in major units (stored times 100) and the completion values. */
export const finishTaskSchema = z
  .object({
    amount: z.number().min(0).max(1e13).optional(),
    configFields: configFieldsSchema.optional(),
  })
  .strict();

const taskIdListSchema = z.array(idSchema).min(1).max(500);

/**
 * Spec 3 "Finish payload": tasks (rows of plans) of one performance and their completion values;
 * beside it, each task's own completion amount where the user entered one (in hundredths, as the
 * completion form's money), so a batch never records one amount on every task. `extra`: the
 * fields a caller adds (the sync mutation's performance id).
 */
export function finishPayload<S extends z.ZodRawShape>(extra: S) {
  return z
    .object({
      planIDList: taskIdListSchema,
      configFields: configFieldsSchema.optional(),
      finishAmounts: z.record(idSchema, moneySchema.refine((money) => money.amount >= 0 && money.amount <= 1e15, 'the amount must be from 0 to 10 trillion')).optional(),
      ...extra,
    })
    .strict()
    .superRefine((payload, ctx) => {
      // The fields of the base shape, whatever `extra` adds.
      const { planIDList, finishAmounts } = payload as { planIDList: string[]; finishAmounts?: Record<string, unknown> };
      for (const id of Object.keys(finishAmounts ?? {})) {
        if (!planIDList.includes(id)) ctx.addIssue({ code: 'custom', path: ['finishAmounts', id], message: 'an amount for a task not in planIDList' });
      }
    });
}
export const finishPayloadSchema = finishPayload({});
export const restorePayloadSchema = z.object({ planIDList: taskIdListSchema }).strict();

/** Editing one task (a sheet row); omitted fields keep their value. */
export const taskUpdateSchema = z
  .object({
    name: z.string().trim().min(1, en.messages.performanceContentRequired).max(1000),
    expirationTime: isoDateSchema.nullable(),
    payableAmount: amountInputSchema.nullable(),
    receivableAmount: amountInputSchema.nullable(),
    leaderUserID: idSchema.nullable(),
    level: z.number().int().min(1).max(5).nullable(),
    type: taskTypeSchema,
    values: rowValuesSchema,
  })
  .partial()
  .strict();
export type TaskUpdate = z.infer<typeof taskUpdateSchema>;

/** A plan row: an existing task (with id) or a new one. */
export const planRowSchema = taskUpdateSchema.extend({ id: idSchema.optional() }).strict();

/** The periodic schedule of a plan whose condition type is periodicity (spec 4, spec 9). */
export const periodicScheduleSchema = z
  .object({
    cycle: z.enum(scheduleCycles),
    startDate: isoDateSchema,
    endDate: isoDateSchema,
    amount: amountInputSchema,
    /** Which amount column the generated tasks fill. */
    direction: z.enum(['receivable', 'payable']),
    /** The generated tasks' name; each gets its period appended. */
    name: z.string().trim().min(1).max(200),
    leaderUserID: idSchema.optional(),
    /** The language the names write their periods' days in (the user's); without it, as stored days (yyyy-MM-dd). */
    language: z.enum(languages).optional(),
  })
  .strict()
  .refine((s) => s.startDate <= s.endDate, { path: ['endDate'], message: 'the end date must not be before the start date' });
export type PeriodicSchedule = z.infer<typeof periodicScheduleSchema>;

export const conditionTypeSchema = z.union([
  z.literal(ScheduleConditionType.None),
  z.literal(ScheduleConditionType.SingleOrMultiple),
  z.literal(ScheduleConditionType.Periodicity),
]);

/** A periodic plan has its schedule, and only a periodic plan has one. */
export function refinePlanCondition(plan: { conditionType: number; schedule?: unknown }, ctx: z.RefinementCtx): void {
  const periodic = plan.conditionType === ScheduleConditionType.Periodicity;
  if (periodic && !plan.schedule) ctx.addIssue({ code: 'custom', path: ['schedule'], message: 'a periodic plan needs its schedule' });
  if (!periodic && plan.schedule) ctx.addIssue({ code: 'custom', path: ['schedule'], message: 'only a periodic plan has a schedule' });
}

/**
 * Saving a contract's plan under a performance: its rows (tasks) as listed, or, for periodicity,
 * rows generated from the schedule. Unfinished rows not listed are removed; finished rows stay.
 */
export const planSaveSchema = z
  .object({
    contractID: idSchema,
    conditionType: conditionTypeSchema,
    schedule: periodicScheduleSchema.optional(),
    rows: z.array(planRowSchema).max(1000).default([]),
  })
  .strict()
  .superRefine((plan, ctx) => {
    refinePlanCondition(plan, ctx);
    plan.rows.forEach((row, i) => {
      if (!row.id && !row.name) ctx.addIssue({ code: 'custom', path: ['rows', i, 'name'], message: en.messages.performanceContentRequired });
    });
  });
export type PlanSave = z.infer<typeof planSaveSchema>;

export const planSchema = z.object({
  id: idSchema,
  contractID: idSchema,
  performanceID: idSchema,
  conditionType: conditionTypeSchema,
  schedule: periodicScheduleSchema.nullable(),
  version: z.number().int(),
  taskList: z.array(taskCardSchema),
});
export type Plan = z.infer<typeof planSchema>;

/** A row of a new plan: its cells and the task id the client made for it, which the server keeps. */
export const planCreateRowSchema = taskUpdateSchema
  .extend({ id: z.string().uuid(), name: taskUpdateSchema.shape.name.unwrap() })
  .strict();
export type PlanCreateRow = z.infer<typeof planCreateRowSchema>;

/**
 * A contract's new plan under a performance (the "add performance plan" of the performance tab):
 * rows generated from a periodic schedule, one per period (their task ids in `scheduleTaskIds`, in
 * period order), and rows typed by hand (`rows`, each with its task id), in one plan. Every id is
 * made by the client, so the tasks it shows before the server answers are the server's.
 */
export const planCreateSchema = z
  .object({
    contractID: idSchema,
    conditionType: conditionTypeSchema,
    schedule: periodicScheduleSchema.optional(),
    scheduleTaskIds: z.array(z.string().uuid()).max(1000).default([]),
    rows: z.array(planCreateRowSchema).max(1000).default([]),
  })
  .strict()
  .superRefine((plan, ctx) => {
    refinePlanCondition(plan, ctx);
    if (!plan.schedule && plan.scheduleTaskIds.length > 0) ctx.addIssue({ code: 'custom', path: ['scheduleTaskIds'], message: 'only a periodic schedule generates rows' });
    if (plan.scheduleTaskIds.length + plan.rows.length === 0) ctx.addIssue({ code: 'custom', path: ['rows'], message: 'a plan needs at least one row' });
    const ids = [...plan.scheduleTaskIds, ...plan.rows.map((row) => row.id)];
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['rows'], message: 'every row needs its own task id' });
  });
export type PlanCreate = z.infer<typeof planCreateSchema>;

/** The performance a new plan is under, as the device showed it: the plan's name, sheet and completion form until the server's plan is pulled. */
export const planPerformanceShownSchema = z
  .object({
    name: z.string().max(100),
    type: z.string().max(32),
    columns: z.array(sheetColumnSchema).max(100),
    fields: z.array(formFieldSchema).max(100),
  })
  .strict();
