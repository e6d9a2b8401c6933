import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ScheduleConditionType, TaskState } from '../../src-shared/domain/enums';
import { contracts, organisations, users } from '../db/schema';

// Performance (fulfilment): a performance is a configured kind of fulfilment record with its own
// form (spec 7, "performances"); a plan is one contract's performance sheet under it; the plan's
// rows are performance tasks. Tasks without a contract are quick tasks (spec 4).

export const performances = pgTable(
  'performances',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
    /** The task type its rows default to (see taskTypes in src-shared/domain/enums). */
    type: text('type').notNull(),
    /** Form field configs of the performance form (spec 3). */
    fields: jsonb('fields').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    /** Performance sheet columns (spec 3, "Performance sheet"). */
    columns: jsonb('columns').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    sortOrder: integer('sort_order').notNull().default(0),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('performances_organisation_idx').on(t.organisationId)],
);

export const performancePlans = pgTable(
  'performance_plans',
  {
    id: text('id').primaryKey(),
    contractId: text('contract_id').notNull().references(() => contracts.id, { onDelete: 'cascade' }),
    performanceId: text('performance_id').notNull().references(() => performances.id),
    /** none, single/multiple, periodicity (spec 4). */
    conditionType: smallint('condition_type').$type<ScheduleConditionType>().notNull().default(0),
    /** The periodic schedule's settings (cycle, start, end, amount) when conditionType is periodicity. */
    schedule: jsonb('schedule').$type<unknown>(),
    createdBy: text('created_by').references(() => users.id),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    /** Per field group, the version at which it last changed (migrations 0024/0025; sync rule 6). */
    fieldVersions: jsonb('field_versions').$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
    /** Position in the change feed, set by trigger (src-server/sync/pull.ts); a change of its performance moves it too. */
    changeSeq: bigint('change_seq', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [
    // One plan per contract and performance: saving a plan replaces it.
    uniqueIndex('performance_plans_contract_performance_key').on(t.contractId, t.performanceId),
    index('performance_plans_performance_idx').on(t.performanceId),
    index('performance_plans_change_seq_idx').on(t.changeSeq),
  ],
);

export const performanceTasks = pgTable(
  'performance_tasks',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    /** Null for a quick task or a task added outside a plan. */
    planId: text('plan_id').references(() => performancePlans.id, { onDelete: 'cascade' }),
    /** Null for a quick task, which cannot be opened (spec 4). */
    contractId: text('contract_id').references(() => contracts.id, { onDelete: 'cascade' }),
    performanceId: text('performance_id').references(() => performances.id),
    name: text('name').notNull(),
    /** receivable, collection, payable, payment, invoicing, expiration, recall, or custom (quick tasks). */
    type: text('type').notNull(),
    /** 1 not started … 4 success (spec 4). */
    state: smallint('state').$type<TaskState>().notNull().default(1),
    level: smallint('level'),
    /** The row number in the performance sheet (`index` column). */
    rowIndex: integer('row_index').notNull().default(1),
    /** The version of its plan whose save added the row (0: before this was kept); a save based on an older one did not know it. */
    addedAtPlanVersion: integer('added_at_plan_version').notNull().default(0),
    /** The due date: yyyy-MM-dd in the organisation's calendar. */
    expirationTime: date('expiration_time', { mode: 'string' }),
    /** Money in integer hundredths with its currency unit (spec 9). */
    payableAmount: bigint('payable_amount', { mode: 'number' }),
    receivableAmount: bigint('receivable_amount', { mode: 'number' }),
    amountUnit: text('amount_unit'),
    leaderUserId: text('leader_user_id').references(() => users.id),
    /** The sheet row's cells by column id, and the completion form's values once finished. */
    values: jsonb('values').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    completionValues: jsonb('completion_values').$type<Record<string, unknown>>(),
    finishedAmount: bigint('finished_amount', { mode: 'number' }),
    /** Its predecessors' ids in id order, null when none: kept from performance_task_relations by trigger (migration 0037). */
    frontTaskIds: text('front_task_ids').array(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    finishedBy: text('finished_by').references(() => users.id),
    createdBy: text('created_by').references(() => users.id),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    /** Per field group, the version at which it last changed (migrations 0024/0025; sync rule 6). */
    fieldVersions: jsonb('field_versions').$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
    /** Position in the change feed, set by trigger (src-server/sync/pull.ts). */
    changeSeq: bigint('change_seq', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [
    index('performance_tasks_change_seq_idx').on(t.changeSeq),
    index('performance_tasks_plan_idx').on(t.planId, t.rowIndex),
    index('performance_tasks_contract_idx').on(t.contractId, t.rowIndex),
    index('performance_tasks_leader_due_idx').on(t.leaderUserId, t.expirationTime),
    index('performance_tasks_due_idx').on(t.organisationId, t.expirationTime),
    index('performance_tasks_performance_idx').on(t.performanceId),
    // Quick tasks are visible to their creator (besides their leader).
    index('performance_tasks_created_by_idx').on(t.createdBy),
    check('performance_tasks_state_check', sql`${t.state} between 1 and 5`),
    check('performance_tasks_amount_unit_check', sql`(coalesce(${t.payableAmount}, ${t.receivableAmount}) is null) or ${t.amountUnit} is not null`),
  ],
);

/** Predecessor ("front") tasks: `taskId` may start only after `frontTaskId` (spec 7, relate). */
export const performanceTaskRelations = pgTable(
  'performance_task_relations',
  {
    taskId: text('task_id').notNull().references(() => performanceTasks.id, { onDelete: 'cascade' }),
    frontTaskId: text('front_task_id').notNull().references(() => performanceTasks.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.frontTaskId] }),
    index('performance_task_relations_front_idx').on(t.frontTaskId),
    check('performance_task_relations_not_self_check', sql`${t.taskId} <> ${t.frontTaskId}`),
  ],
);

/** Reminder settings per user, keyed by task kind (spec 3, "Reminder settings"). */
export const reminderSettings = pgTable(
  'reminder_settings',
  {
    userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    /** Position in the change feed, set by trigger (src-server/sync/pull.ts). */
    changeSeq: bigint('change_seq', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [index('reminder_settings_change_seq_idx').on(t.userId, t.changeSeq)],
);

/**
 * A deleted task, for the change feed. Visibility is decided as for a live task: by its contract
 * (while the contract exists; a contract's own tombstone removes its tasks on the client), or for
 * a quick task by its creator and leader.
 */
export const performanceTaskTombstones = pgTable(
  'performance_task_tombstones',
  {
    changeSeq: bigint('change_seq', { mode: 'bigint' }).primaryKey(),
    taskId: text('task_id').notNull(),
    contractId: text('contract_id'),
    createdBy: text('created_by'),
    leaderUserId: text('leader_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('performance_task_tombstones_created_at_idx').on(t.createdAt)],
);

/** A deleted plan, for the change feed: visible with its contract, as a live plan is. */
export const performancePlanTombstones = pgTable(
  'performance_plan_tombstones',
  {
    changeSeq: bigint('change_seq', { mode: 'bigint' }).primaryKey(),
    planId: text('plan_id').notNull(),
    contractId: text('contract_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('performance_plan_tombstones_created_at_idx').on(t.createdAt)],
);
