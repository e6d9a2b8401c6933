import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { contracts, counterparties, organisations, users } from '../db/schema';

// Counterparty scoring (spec 2 and 3): criteria groups with child criteria, and one score result
// per contract with an actual score per criterion.

export const scoringCriteriaGroups = pgTable(
  'scoring_criteria_groups',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('scoring_criteria_groups_organisation_idx').on(t.organisationId, t.sortOrder)],
);

export const scoringCriteria = pgTable(
  'scoring_criteria',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id').notNull().references(() => scoringCriteriaGroups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The scoring standard text shown beside the input. */
    criterion: text('criterion').notNull(),
    maxScore: integer('max_score').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('scoring_criteria_group_idx').on(t.groupId, t.sortOrder), check('scoring_criteria_max_score_check', sql`${t.maxScore} > 0`)],
);

export const scoreResults = pgTable(
  'score_results',
  {
    id: text('id').primaryKey(),
    contractId: text('contract_id').notNull().references(() => contracts.id, { onDelete: 'cascade' }),
    /** The contract's counterparty when scored: averages per counterparty read this. */
    counterpartyId: text('counterparty_id').notNull().references(() => counterparties.id, { onDelete: 'cascade' }),
    comment: text('comment').notNull().default(''),
    totalScore: integer('total_score').notNull(),
    maxTotalScore: integer('max_total_score').notNull(),
    scoredBy: text('scored_by').references(() => users.id),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [uniqueIndex('score_results_contract_key').on(t.contractId), index('score_results_counterparty_idx').on(t.counterpartyId)],
);

export const scoreResultItems = pgTable(
  'score_result_items',
  {
    resultId: text('result_id').notNull().references(() => scoreResults.id, { onDelete: 'cascade' }),
    criterionId: text('criterion_id').notNull().references(() => scoringCriteria.id, { onDelete: 'cascade' }),
    actualScore: integer('actual_score').notNull(),
  },
  (t) => [primaryKey({ columns: [t.resultId, t.criterionId] }), check('score_result_items_score_check', sql`${t.actualScore} >= 0`)],
);
