import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { LedgerFieldCategory, LedgerFieldType, SortField } from '../../src-shared/domain/ledger';
import { contracts, organisations, templates, users } from '../db/schema';
import { performances } from '../performance/schema';

// The ledger (spec 2 "Ledger list screen", 3 "Ledger"): the field/title definitions a scene picks
// its filters and columns from, the scenes each user saves, transfers of the responsible person,
// the case-type tree and the approval workflows the ledger filters by.

/**
 * A column the ledger can filter or show. System definitions (the performance record's own
 * columns and the contract columns) are written from the catalogue in src-server/ledger/fields.ts
 * on first use; which SQL each id reads is decided there, by id, never taken from a request.
 */
export const ledgerFields = pgTable(
  'ledger_fields',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** 'system': the performance record's own columns; 'contract': the contract's. */
    category: text('category').$type<LedgerFieldCategory>().notNull(),
    type: text('type').$type<LedgerFieldType>().notNull(),
    /** Options of select fields ({id, name}[]), a date format, … */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    isDefaultFilter: boolean('is_default_filter').notNull().default(false),
    isDefaultTitle: boolean('is_default_title').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [check('ledger_fields_category_check', sql`${t.category} in ('system', 'contract')`)],
);

/** A saved ledger scene (a tab of the ledger list screen), per user. */
export const ledgerScenes = pgTable(
  'ledger_scenes',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** System scenes are made for each user on first read and cannot be deleted (spec 6). */
    isSystem: boolean('is_system').notNull().default(false),
    isDefault: boolean('is_default').notNull().default(false),
    /** Which performance's records the scene lists; null for all. */
    performanceId: text('performance_id').references(() => performances.id, { onDelete: 'set null' }),
    /** Ledger field ids shown in the filter drawer, and the preset conditions of the scene. */
    filterIds: jsonb('filter_ids').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    filters: jsonb('filters').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    /** The kept sort by one of the scene's columns ({id, key, type?}); null: newest update first (migration 0040). */
    sortField: jsonb('sort_field').$type<SortField>(),
    /** Ledger field ids shown as columns, in order; always includes 'name'. */
    titleIds: jsonb('title_ids').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    sortOrder: integer('sort_order').notNull().default(0),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    /** Per field group, the version at which it last changed (migrations 0024/0025; sync rule 6). */
    fieldVersions: jsonb('field_versions').$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
    /** Position in the change feed, set by trigger (src-server/sync/pull.ts): scenes sync to their user's replica. */
    changeSeq: bigint('change_seq', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [
    index('ledger_scenes_user_idx').on(t.userId, t.sortOrder),
    index('ledger_scenes_change_seq_idx').on(t.userId, t.changeSeq),
    // Exactly one default per user; name uniqueness is a deferrable constraint (custom migration)
    // so that a reordering save may swap two names.
    uniqueIndex('ledger_scenes_one_default_key').on(t.userId).where(sql`${t.isDefault}`),
    check('ledger_scenes_name_check', sql`char_length(${t.name}) between 1 and 50`),
  ],
);

/** A deleted scene, for its user's change feed (trigger, custom migration). */
export const ledgerSceneTombstones = pgTable(
  'ledger_scene_tombstones',
  {
    changeSeq: bigint('change_seq', { mode: 'bigint' }).primaryKey(),
    sceneId: text('scene_id').notNull(),
    userId: text('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ledger_scene_tombstones_user_idx').on(t.userId, t.changeSeq), index('ledger_scene_tombstones_created_at_idx').on(t.createdAt)],
);

/** Transfers of the responsible person: kept because a transfer cannot be undone (spec 6). */
export const contractTransfers = pgTable(
  'contract_transfers',
  {
    id: text('id').primaryKey(),
    contractId: text('contract_id').notNull().references(() => contracts.id, { onDelete: 'cascade' }),
    fromUserId: text('from_user_id').references(() => users.id),
    toUserId: text('to_user_id').notNull().references(() => users.id),
    /** 1 transfer as business handler; 2 keep the old handler as an agent (spec 6). */
    handleMethod: smallint('handle_method').notNull(),
    reason: text('reason').notNull().default(''),
    createdBy: text('created_by').notNull().references(() => users.id),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('contract_transfers_contract_idx').on(t.contractId),
    check('contract_transfers_handle_method_check', sql`${t.handleMethod} in (1, 2)`),
    check('contract_transfers_reason_check', sql`char_length(${t.reason}) <= 2000`),
  ],
);

/** The case-type tree (spec 3, "Case type node"): state 2 means disabled. */
export const caseTypes = pgTable(
  'case_types',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id, { onDelete: 'cascade' }),
    parentId: text('parent_id'),
    name: text('name').notNull(),
    state: smallint('state').notNull().default(1),
    sortOrder: integer('sort_order').notNull().default(0),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('case_types_organisation_idx').on(t.organisationId, t.sortOrder), check('case_types_state_check', sql`${t.state} in (1, 2)`)],
);

/** The templates offered under a case type (the node's templateList). */
export const caseTypeTemplates = pgTable(
  'case_type_templates',
  {
    caseTypeId: text('case_type_id').notNull().references(() => caseTypes.id, { onDelete: 'cascade' }),
    templateId: text('template_id').notNull().references(() => templates.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.caseTypeId, t.templateId] }), index('case_type_templates_template_idx').on(t.templateId)],
);

/** Approval workflows, as far as the ledger needs them: the workflow filter's options. */
export const workflows = pgTable(
  'workflows',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workflows_organisation_idx').on(t.organisationId)],
);

/**
 * How many performance records each contract has per performance (performance '' for none), with
 * a copy of the contract's owner columns, kept by triggers (custom migration): the unfiltered
 * ledger count is a sum over this narrow table under the usual visibility rule, instead of a
 * count over every record joined to its contract.
 */
export const ledgerTaskCounts = pgTable(
  'ledger_task_counts',
  {
    contractId: text('contract_id').notNull().references(() => contracts.id, { onDelete: 'cascade' }),
    performanceId: text('performance_id').notNull(),
    count: integer('count').notNull(),
    responsibleUserId: text('responsible_user_id'),
    departmentId: text('department_id'),
    businessHandlerUserId: text('business_handler_user_id'),
  },
  (t) => [
    primaryKey({ columns: [t.contractId, t.performanceId] }),
    index('ledger_task_counts_performance_idx').on(t.performanceId, t.contractId),
    index('ledger_task_counts_responsible_user_idx').on(t.responsibleUserId),
    index('ledger_task_counts_department_idx').on(t.departmentId),
    index('ledger_task_counts_business_handler_user_idx').on(t.businessHandlerUserId),
  ],
);

/**
 * ledger_task_counts summed per performance and owner triple, kept as additions: a trigger on
 * ledger_task_counts appends one row per group a statement changes (custom migration), so no two
 * writers ever wait on one row, and compactLedgerTaskTotals folds the additions together now and
 * then. The unfiltered ledger count reads these few hundred rows instead of one per contract; the
 * agents' share of the visibility rule, which is per contract, still reads ledger_task_counts.
 */
export const ledgerTaskTotals = pgTable('ledger_task_totals', {
  performanceId: text('performance_id').notNull(),
  responsibleUserId: text('responsible_user_id'),
  departmentId: text('department_id'),
  businessHandlerUserId: text('business_handler_user_id'),
  count: bigint('count', { mode: 'number' }).notNull(),
});
