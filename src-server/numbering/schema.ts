import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { NumberDateFormat, ResetCycle, RuleScope } from '../../src-shared/domain/enums';
import type { NumberingKind } from '../../src-shared/domain/numbering';
import { departments, organisations, users } from '../db/schema';

// Numbering (spec 3 "Numbering rule", spec 4 "Numbering enums"): rules and abbreviations per kind
// (contract or template) and scope, the number editors, users' main departments, and the
// counters that make allocation unique under concurrent requests.

const kind = () => text('kind').$type<NumberingKind>().notNull();
/** The contract type or department id the row is for; '' for the default scope (a key, never null). */
const scopeKey = () => text('scope_key').notNull().default('');
const updateTime = () => timestamp('update_time', { withTimezone: true }).notNull().defaultNow();

export const numberingRules = pgTable(
  'numbering_rules',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    kind: kind(),
    ruleScope: smallint('rule_scope').$type<RuleScope>().notNull(),
    scopeKey: scopeKey(),
    digits: integer('digits').notNull().default(1),
    isNatural: boolean('is_natural').notNull().default(true),
    startNumber: integer('start_number').notNull().default(1),
    resetStartNumber: integer('reset_start_number').notNull().default(1),
    resetCycle: smallint('reset_cycle').$type<ResetCycle>().notNull().default(0),
    recount: boolean('recount').notNull().default(true),
    /** Rules of the scope last saved are in use; the others are kept with their counters. */
    inUse: boolean('in_use').notNull().default(true),
    version: integer('version').notNull().default(1),
    updateTime: updateTime(),
  },
  (t) => [
    uniqueIndex('numbering_rules_scope_key').on(t.organisationId, t.kind, t.ruleScope, t.scopeKey),
    check('numbering_rules_kind_check', sql`${t.kind} in ('contract', 'template')`),
    check('numbering_rules_scope_check', sql`${t.ruleScope} between 0 and 3`),
    check('numbering_rules_cycle_check', sql`${t.resetCycle} between 0 and 4`),
    check('numbering_rules_digits_check', sql`${t.digits} between 1 and 9`),
  ],
);

export const numberingAbbrSettings = pgTable(
  'numbering_abbr_settings',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    kind: kind(),
    ruleScope: smallint('rule_scope').$type<RuleScope>().notNull(),
    scopeKey: scopeKey(),
    abbr: text('abbr').notNull(),
    dateFormat: smallint('date_format').$type<NumberDateFormat>(),
    version: integer('version').notNull().default(1),
    updateTime: updateTime(),
  },
  (t) => [
    uniqueIndex('numbering_abbr_settings_scope_key').on(t.organisationId, t.kind, t.ruleScope, t.scopeKey),
    check('numbering_abbr_settings_date_format_check', sql`${t.dateFormat} between 0 and 3`),
  ],
);

/**
 * The last serial handed out per rule, scope key and reset period: incremented with
 * `insert … on conflict do update … returning` in the transaction that writes the number, so two
 * concurrent allocations never get the same serial and a rolled-back write gives its serial back.
 */
export const numberCounters = pgTable(
  'number_counters',
  {
    ruleId: text('rule_id').notNull().references(() => numberingRules.id, { onDelete: 'cascade' }),
    scopeKey: text('scope_key').notNull(),
    /** '' for never; otherwise the day, ISO week, month or year (src-shared/rules/numbering.ts). */
    period: text('period').notNull(),
    lastSerial: integer('last_serial').notNull(),
    updateTime: updateTime(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.scopeKey, t.period] })],
);

/** Users who may change an auto-generated contract number (spec 6). */
export const numberEditors = pgTable(
  'number_editors',
  {
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.userId] })],
);

/** A user's main department (rule scope 2), when it is not simply the department they belong to. */
export const userMainDepartments = pgTable(
  'user_main_departments',
  {
    userId: text('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
    departmentId: text('department_id').notNull().references(() => departments.id, { onDelete: 'cascade' }),
  },
  (t) => [index('user_main_departments_department_idx').on(t.departmentId)],
);
