import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import type { ContractStatus } from '../../src-shared/domain/enums';
import type { AlterationChange, ClauseStatement } from '../../src-shared/domain/contract-forms';
import { contracts, organisations, templates, users } from '../db/schema';

// Contract forms: the field definitions the form builder picks from and their options, the
// clauses of a template, the offline archive places, approval records and contract alterations.

/** A field the form builder offers (GET fields); its options page through dynamic_select. */
export const fieldDefinitions = pgTable(
  'field_definitions',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
    type: text('type').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('field_definitions_organisation_idx').on(t.organisationId, t.sortOrder)],
);

export const fieldOptions = pgTable(
  'field_options',
  {
    fieldId: text('field_id').notNull().references(() => fieldDefinitions.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fieldId, t.id] }), index('field_options_order_idx').on(t.fieldId, t.sortOrder)],
);

/** A clause of a template (spec 3, "Clause"): its statements to choose from, at a bookmark. */
export const templateClauses = pgTable(
  'template_clauses',
  {
    id: text('id').primaryKey(),
    templateId: text('template_id').notNull().references(() => templates.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    labelId: text('label_id').notNull(),
    name: text('name').notNull(),
    isNullable: boolean('is_nullable').notNull().default(false),
    bookmarkName: text('bookmark_name'),
    statementList: jsonb('statement_list').$type<ClauseStatement[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [index('template_clauses_template_idx').on(t.templateId, t.position)],
);

/** Offline archive places (GET archive/offline_settings). */
export const archiveOfflineSettings = pgTable('archive_offline_settings', {
  id: text('id').primaryKey(),
  organisationId: text('organisation_id').notNull().references(() => organisations.id),
  name: text('name').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** Each approval step of a contract or template: submit, approve, reject, archive. */
export const approvalRecords = pgTable(
  'approval_records',
  {
    id: text('id').primaryKey(),
    subjectKind: text('subject_kind').$type<'contract' | 'template'>().notNull(),
    subjectId: text('subject_id').notNull(),
    action: text('action').notNull(),
    fromStatus: smallint('from_status').$type<ContractStatus>(),
    toStatus: smallint('to_status').$type<ContractStatus>().notNull(),
    userId: text('user_id').notNull().references(() => users.id),
    comment: text('comment'),
    fileId: text('file_id'),
    /** When the user took the step: the device's time of a step queued offline (null: when it was applied). */
    takenAt: timestamp('taken_at', { withTimezone: true }),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('approval_records_subject_idx').on(t.subjectKind, t.subjectId, t.createTime)],
);

/** A contract alteration: the changed form values, before and after. */
export const contractAlterations = pgTable(
  'contract_alterations',
  {
    id: text('id').primaryKey(),
    contractId: text('contract_id').notNull().references(() => contracts.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id),
    reason: text('reason').notNull(),
    changes: jsonb('changes').$type<AlterationChange[]>().notNull(),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contract_alterations_contract_idx').on(t.contractId, t.createTime)],
);
