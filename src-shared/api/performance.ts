import { DateTime } from 'luxon';
import { z } from 'zod';
import { idSchema } from '../domain/contract';
import {
  finishPayloadSchema,
  finishTaskSchema,
  formFieldSchema,
  isoDateSchema,
  performanceCreateSchema,
  performanceSchema,
  performanceUpdateSchema,
  planSaveSchema,
  planSchema,
  predecessorTaskSchema,
  quickTaskPayloadSchema,
  restorePayloadSchema,
  scheduleDaySchema,
  sheetColumnSchema,
  taskCardSchema,
  taskStatisticsSchema,
  taskTypeSchema,
  taskUpdateSchema,
} from '../domain/performance';
import { reminderSettingsSchema } from '../domain/reminders';
import { pageSchema } from './envelope';
import { apiPrefix, endpoint, idParams, none, pageNum, trimmed, type Endpoint } from './endpoint';

// Performance tasks and plans (spec 7). Paths the spec leaves unnamed are defined here in the same
// style (see docs/api/performance.md): check_front, by_contract, :id/plan_task, :id/finish,
// :id/restore and :id/plan.

/** A day range of at most `maxDays` days, both ends included. */
function dayRange(maxDays: number) {
  return z
    .object({ startDate: isoDateSchema, endDate: isoDateSchema })
    .strict()
    .refine((r) => r.startDate <= r.endDate, { path: ['endDate'], message: 'the end date must not be before the start date' })
    .refine((r) => DateTime.fromISO(r.endDate).diff(DateTime.fromISO(r.startDate), 'days').days < maxDays, {
      path: ['endDate'],
      message: `the range covers at most ${maxDays} days`,
    });
}

const listOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item) });
const deleted = z.object({ id: idSchema });

export const relateBodySchema = z.object({ frontTaskIDList: z.array(idSchema).min(1).max(50) }).strict();
export const unrelateQuerySchema = z.object({ frontTaskID: idSchema }).strict();

export const canBeFrontQuerySchema = z
  .object({
    taskID: idSchema,
    contractID: idSchema.optional(),
    q: trimmed(100).optional(),
    pageNum,
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();

export const checkFrontQuerySchema = z.object({ contractID: idSchema, currentTaskID: idSchema }).strict();

/** Unfinished predecessors of a task, grouped by contract; empty when it may be finished. */
export const checkFrontResponseSchema = listOf(
  z.object({ contractID: idSchema.nullable(), contractName: z.string().nullable(), taskList: z.array(predecessorTaskSchema) }),
);

export const completeFormSchema = z.object({
  configFields: z.array(formFieldSchema),
  /** The completion values once finished, else null. */
  values: z.record(z.string(), z.unknown()).nullable(),
});

export const performanceFormSchema = z.object({
  performance: performanceSchema,
  /** The contract's plan under this performance, when contractID is given and one exists. */
  plan: planSchema.nullable(),
});

export const defaultFormSchema = z.object({ fields: z.array(formFieldSchema), columns: z.array(sheetColumnSchema) });

export const performanceEndpoints = {
  performanceTaskDelete: endpoint({
    method: 'DELETE', path: `${apiPrefix}/performances/task/:id`, auth: true, params: idParams, query: none, body: none, response: deleted,
  }),
  performanceTaskUpdate: endpoint({
    method: 'PUT', path: `${apiPrefix}/performances/task/:id`, auth: true, params: idParams, query: none, body: taskUpdateSchema,
    response: taskCardSchema,
  }),
  performanceTaskFinish: endpoint({
    method: 'PUT', path: `${apiPrefix}/performances/task/:id/finish`, auth: true, params: idParams, query: none, body: finishTaskSchema,
    response: taskCardSchema,
  }),
  performanceTaskRestore: endpoint({
    method: 'PUT', path: `${apiPrefix}/performances/task/:id/restore`, auth: true, params: idParams, query: none, body: none,
    response: taskCardSchema,
  }),
  performanceTaskRelate: endpoint({
    method: 'POST', path: `${apiPrefix}/performances/task/:id/relate`, auth: true, params: idParams, query: none, body: relateBodySchema,
    response: listOf(predecessorTaskSchema),
  }),
  performanceTaskUnrelate: endpoint({
    method: 'DELETE', path: `${apiPrefix}/performances/task/:id/relate`, auth: true, params: idParams, query: unrelateQuerySchema, body: none,
    response: listOf(predecessorTaskSchema),
  }),
  performanceTaskFrontTasks: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/task/:id/front_tasks`, auth: true, params: idParams, query: none, body: none,
    response: listOf(predecessorTaskSchema),
  }),
  performanceTaskCompleteForm: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/task/:id/complete_form`, auth: true, params: idParams, query: none, body: none,
    response: completeFormSchema,
  }),
  performanceQuickTask: endpoint({
    method: 'POST', path: `${apiPrefix}/performances/task`, auth: true, query: none, body: quickTaskPayloadSchema, response: taskCardSchema,
  }),
  performanceTaskCanBeFront: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/task/can_be_front`, auth: true, query: canBeFrontQuerySchema, body: none,
    response: pageSchema(predecessorTaskSchema),
  }),
  /** Defined here: the predecessor check before finishing. */
  performanceTaskCheckFront: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/task/check_front`, auth: true, query: checkFrontQuerySchema, body: none,
    response: checkFrontResponseSchema,
  }),
  /** Defined here: a contract's tasks in sheet order. */
  performanceTasksByContract: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/task/by_contract`, auth: true, query: z.object({ contractID: idSchema }).strict(), body: none,
    response: listOf(taskCardSchema),
  }),
  /** Defined here: deleting a plan row of a performance. */
  performancePlanTaskDelete: endpoint({
    method: 'DELETE', path: `${apiPrefix}/performances/:id/plan_task`, auth: true, params: idParams, query: none,
    body: z.object({ planID: idSchema }).strict(), response: deleted,
  }),
  /** Defined here: finishing rows of a performance (batch finish). */
  performanceFinishTasks: endpoint({
    method: 'PUT', path: `${apiPrefix}/performances/:id/finish`, auth: true, params: idParams, query: none, body: finishPayloadSchema,
    response: listOf(taskCardSchema),
  }),
  /** Defined here: restoring finished rows of a performance. */
  performanceRestoreTasks: endpoint({
    method: 'PUT', path: `${apiPrefix}/performances/:id/restore`, auth: true, params: idParams, query: none, body: restorePayloadSchema,
    response: listOf(taskCardSchema),
  }),
  /** Defined here: creating or replacing a contract's plan under a performance. */
  performancePlanSave: endpoint({
    method: 'PUT', path: `${apiPrefix}/performances/:id/plan`, auth: true, params: idParams, query: none, body: planSaveSchema,
    response: planSchema,
  }),
  /** Defined here: removing a contract's plan under a performance with its rows (none finished). */
  performancePlanDelete: endpoint({
    method: 'DELETE', path: `${apiPrefix}/performances/:id/plan`, auth: true, params: idParams, query: z.object({ contractID: idSchema }).strict(), body: none,
    response: deleted,
  }),
  performanceStatistics: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/statistics`, auth: true, query: dayRange(366), body: none,
    response: taskStatisticsSchema,
  }),
  performanceReminderSettings: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/reminder_settings`, auth: true, query: none, body: none,
    response: reminderSettingsSchema,
  }),
  performanceReminderSettingsSave: endpoint({
    method: 'POST', path: `${apiPrefix}/performances/reminder_settings`, auth: true, query: none, body: reminderSettingsSchema.strict(),
    response: reminderSettingsSchema,
  }),
  performanceTaskScheduling: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/task_scheduling`, auth: true, query: dayRange(62), body: none,
    response: z.array(scheduleDaySchema),
  }),
  performanceList: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/list`, auth: true,
    query: z.object({ type: taskTypeSchema.optional(), q: trimmed(100).optional() }).strict(), body: none,
    response: z.object({ performanceList: z.array(performanceSchema) }),
  }),
  performanceCreate: endpoint({
    method: 'POST', path: `${apiPrefix}/performances`, auth: true, query: none, body: performanceCreateSchema, response: performanceSchema,
  }),
  performanceUpdate: endpoint({
    method: 'PUT', path: `${apiPrefix}/performances/:id`, auth: true, params: idParams, query: none, body: performanceUpdateSchema,
    response: performanceSchema,
  }),
  performanceDelete: endpoint({
    method: 'DELETE', path: `${apiPrefix}/performances/:id`, auth: true, params: idParams, query: none, body: none, response: deleted,
  }),
  performanceForm: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/:id/form`, auth: true, params: idParams,
    query: z.object({ contractID: idSchema.optional() }).strict(), body: none, response: performanceFormSchema,
  }),
  performanceDefaultForm: endpoint({
    method: 'GET', path: `${apiPrefix}/performances/default_form`, auth: true, query: z.object({ type: taskTypeSchema }).strict(), body: none,
    response: defaultFormSchema,
  }),
} as const satisfies Record<string, Endpoint>;
