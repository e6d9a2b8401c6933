import { sql } from 'drizzle-orm';
import type { MutationResult } from '../../src-shared/api/sync';
import type { TemplateDocument } from '../../src-shared/contract-document/schema';
import type { ApprovalTrailEntry } from '../../src-shared/domain/approval-trail';
import type { ContractStatus, CreditRating, PartySubtype, PartyType } from '../../src-shared/domain/enums';
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
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

// The contract server's PostgreSQL schema. `npx drizzle-kit generate --config drizzle.server.config.ts`
// turns changes here into SQL under migrations/server; the server applies them at start.
// Ids are text UUIDs (v7) so that clients can generate them for rows drafted offline.

const id = () => text('id').primaryKey();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const organisations = pgTable('organisations', {
  id: id(),
  name: text('name').notNull(),
  /**
   * The organisation subscribes to a counterparty credit platform (spec 6): its risk reminders,
   * credit-risk and monitoring views are shown. Off for a new organisation until IT turns it on.
   */
  creditPlatformEnabled: boolean('credit_platform_enabled').notNull().default(false),
  /** Audit events older than this many days are pruned by the server's maintenance (src-server/audit). */
  auditRetentionDays: integer('audit_retention_days').notNull().default(3650),
  /** A replica that has not reached the server for this many days asks for its user's password (issue 32). */
  offlineLockDays: integer('offline_lock_days').notNull().default(30),
  createdAt: createdAt(),
});

export const departments = pgTable(
  'departments',
  {
    id: id(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    parentId: text('parent_id'),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({ columns: [t.parentId], foreignColumns: [t.id], name: 'departments_parent_fk' }),
    index('departments_organisation_idx').on(t.organisationId),
    index('departments_parent_idx').on(t.parentId),
  ],
);

export const userRoleValues = ['admin', 'staff'] as const;

export const users = pgTable(
  'users',
  {
    id: id(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    /** Sign-in names are case-insensitive: they are stored in lower case (see the check). */
    username: text('username').notNull(),
    displayName: text('display_name').notNull(),
    /** scrypt with its salt and parameters, see src-server/auth/password.ts. */
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: userRoleValues }).notNull(),
    departmentId: text('department_id').references(() => departments.id),
    /**
     * The change-feed position of the last change of this user's department or role (trigger
     * users_take_access_change, src-server/sync/access.ts): a replica pulled before it was built
     * under the old rights, so its cursor gets must_resync. Null: never changed.
     */
    accessChangedPosition: bigint('access_changed_position', { mode: 'bigint' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_key').on(t.username),
    index('users_department_idx').on(t.departmentId),
    check('users_username_lower_check', sql`${t.username} = lower(${t.username})`),
    check('users_role_check', sql`${t.role} in ('admin', 'staff')`),
  ],
);

/**
 * A signed-in installation of one user (issue 32): the core names itself at sign-in with its own
 * random id. Revoking it refuses every session of it and any sign-in from it, for good.
 */
export const devices = pgTable(
  'devices',
  {
    id: id(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The installation's own id; one installation signed in by two users is two rows. */
    deviceId: text('device_id').notNull(),
    name: text('name').notNull(),
    platform: text('platform').notNull(),
    appVersion: text('app_version').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    revokedReason: text('revoked_reason'),
    /** An administrator's shorter offline lock for this device; null follows the organisation's. */
    offlineLockDays: integer('offline_lock_days'),
  },
  (t) => [uniqueIndex('devices_user_device_key').on(t.userId, t.deviceId)],
);

/** Only sha256 hashes of the tokens are stored, so a database leak does not leak sessions. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: id(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    accessTokenHash: text('access_token_hash').notNull(),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Null for clients that sign in without naming a device (scripts, tests). */
    deviceId: text('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('auth_sessions_device_idx').on(t.deviceId),
    uniqueIndex('auth_sessions_access_token_key').on(t.accessTokenHash),
    uniqueIndex('auth_sessions_refresh_token_key').on(t.refreshTokenHash),
    index('auth_sessions_user_idx').on(t.userId),
  ],
);

/**
 * Sign-in attempts per user name and client address that have not (yet) succeeded, kept in the
 * database so the throttle holds across stateless processes (src-server/auth/throttle.ts).
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    username: text('username').notNull(),
    address: text('address').notNull(),
    attempts: integer('attempts').notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }).notNull(),
    /** The next attempt of this pair is refused before this time. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.username, t.address] }), index('login_throttles_last_attempt_idx').on(t.lastAttemptAt)],
);

export const counterparties = pgTable(
  'counterparties',
  {
    id: id(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
    /** Party type: 1 inner, 2 outer (spec 3). */
    type: smallint('type').$type<PartyType>().notNull(),
    /** Party subtype: 1 organisation, 2 natural person (spec 3). */
    subtype: smallint('subtype').$type<PartySubtype>().notNull(),
    /** The short name the party pickers search by (spec 3, party value "keyword"). */
    keyword: text('keyword'),
    /** ID number of a natural person or unified social credit code of an organisation. */
    idNumber: text('id_number'),
    address: text('address'),
    contactInfo: text('contact_info'),
    email: text('email'),
    fax: text('fax'),
    /** Credit rating 0 none, 10 high quality, 20 good, 30 average, 40 blacklist (spec 4). */
    rating: smallint('rating').$type<CreditRating>().notNull().default(0),
    ratingRemark: text('rating_remark'),
    isConnectedTransaction: boolean('is_connected_transaction').notNull().default(false),
    updatedBy: text('updated_by').references(() => users.id),
    /** When the external detail was last refreshed from the credit platform. */
    detailRefreshedAt: timestamp('detail_refreshed_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('counterparties_organisation_idx').on(t.organisationId),
    // Party pickers search by name prefix: lower(name) with pattern ops serves LIKE 'abc%'.
    index('counterparties_name_prefix_idx').on(t.organisationId, t.type, sql`lower(${t.name}) text_pattern_ops`),
    index('counterparties_update_time_idx').on(t.organisationId, t.type, t.updatedAt.desc(), t.id.desc()),
    check('counterparties_type_check', sql`${t.type} in (1, 2)`),
    check('counterparties_subtype_check', sql`${t.subtype} in (1, 2)`),
    check('counterparties_rating_check', sql`${t.rating} in (0, 10, 20, 30, 40)`),
  ],
);

/** Contract types (spec 7, "contract_types/list"); numbering rules may be scoped by type. */
export const contractTypes = pgTable(
  'contract_types',
  {
    id: id(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
    parentId: text('parent_id'),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    foreignKey({ columns: [t.parentId], foreignColumns: [t.id], name: 'contract_types_parent_fk' }),
    uniqueIndex('contract_types_organisation_name_key').on(t.organisationId, t.name),
  ],
);

/**
 * A contract template: its form field configs (spec 3, "Form field config"), its clauses and the
 * document with bookmarks, and a number from the template numbering rules. Approval state uses
 * the contract statuses.
 */
export const templates = pgTable(
  'templates',
  {
    id: id(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
    templateNumber: text('template_number'),
    contractTypeId: text('contract_type_id').references(() => contractTypes.id),
    status: smallint('status').$type<ContractStatus>().notNull().default(1),
    /** The form field configs of spec point 3, in display order. */
    fields: jsonb('fields').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    /** The template's Word document (issue 29): its uploaded file and the bookmarks read from it. */
    document: jsonb('document').$type<TemplateDocument>(),
    createdBy: text('created_by').references(() => users.id),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('templates_organisation_idx').on(t.organisationId),
    uniqueIndex('templates_number_key').on(t.organisationId, t.templateNumber),
    check('templates_status_check', sql`${t.status} between 1 and 5`),
  ],
);

export const contracts = pgTable(
  'contracts',
  {
    id: id(),
    name: text('name').notNull(),
    contractNumber: text('contract_number'),
    /** The number was allocated from the numbering rules: only number editors may change it (spec 6). */
    contractNumberAuto: boolean('contract_number_auto').notNull().default(false),
    /** 1 drafting … 5 archived (spec 4); null is shown as '--'. */
    status: smallint('status').$type<ContractStatus>(),
    contractTypeName: text('contract_type_name'),
    templateName: text('template_name'),
    counterpartyId: text('counterparty_id').references(() => counterparties.id),
    /** Money in integer hundredths with its currency unit (spec 9). */
    amount: bigint('amount', { mode: 'number' }),
    amountUnit: text('amount_unit'),
    responsibleUserId: text('responsible_user_id').references(() => users.id),
    /** The business handler; a transfer moves this permission (spec 6). */
    businessHandlerUserId: text('business_handler_user_id').references(() => users.id),
    departmentId: text('department_id').references(() => departments.id),
    contractTypeId: text('contract_type_id').references(() => contractTypes.id),
    templateId: text('template_id').references(() => templates.id),
    /** The contract's form values keyed by field id (spec 3, "Values"). */
    formValues: jsonb('form_values').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** The project the contract belongs to (spec 7, "Projects"). */
    projectId: text('project_id'),
    /** The archived PDF (spec 2, "contract archive"); an uploaded file's id. */
    archiveFileId: text('archive_file_id'),
    /** Its approval steps, oldest first (approval_records, as the feed sends them with the contract; migration 0038). */
    approvalTrail: jsonb('approval_trail').$type<ApprovalTrailEntry[]>().notNull().default(sql`'[]'::jsonb`),
    caseTypeId: text('case_type_id'),
    createdBy: text('created_by').references(() => users.id),
    signDate: date('sign_date', { mode: 'string' }),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    /**
     * The version at which each field group last changed ("name", "form:<field id>", …; see
     * src-shared/sync/field-groups.ts), kept by a trigger (migration 0020) from what an update
     * really changed; "*" is the floor for groups changed before it was kept. Sync decides
     * conflicts by it, per field (architecture, sync rule 6).
     */
    fieldVersions: jsonb('field_versions').$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
    /**
     * The sync position: the writing transaction's id and a counter within it (see
     * sync_next_change_position in migration 0003, and src-server/sync/pull.ts). Always assigned
     * by the trigger; the 0 default only lets inserts omit it (and, with the unique index, makes a
     * missing trigger fail loudly).
     */
    changeSeq: bigint('change_seq', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [
    // The ledger: the 'all' tab and each status tab, newest first. NULLS FIRST is what a plain
    // ORDER BY … DESC means; drizzle-kit's default (NULLS LAST) would not serve that ordering.
    index('contracts_update_time_idx').on(t.updateTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('contracts_status_update_time_idx').on(t.status, t.updateTime.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Visibility for staff: their own contracts and their department's.
    index('contracts_responsible_user_idx').on(t.responsibleUserId, t.changeSeq),
    index('contracts_department_idx').on(t.departmentId, t.changeSeq),
    // The pull: changes after a cursor in sequence order.
    uniqueIndex('contracts_change_seq_key').on(t.changeSeq),
    index('contracts_counterparty_idx').on(t.counterpartyId),
    index('contracts_project_idx').on(t.projectId),
    index('contracts_contract_type_idx').on(t.contractTypeId),
    check('contracts_status_check', sql`${t.status} between 1 and 5`),
    check('contracts_amount_unit_check', sql`(${t.amount} is null) = (${t.amountUnit} is null)`),
    check('contracts_version_check', sql`${t.version} >= 0`),
  ],
);

/** Agents of a contract: they see it like its responsible person (spec 6, transfer method 2). */
export const contractAgents = pgTable(
  'contract_agents',
  {
    contractId: text('contract_id').notNull().references(() => contracts.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.contractId, t.userId] }), index('contract_agents_user_idx').on(t.userId)],
);

/**
 * A contract that was deleted, or that its former responsible person or department lost with a
 * transfer: a 'delete' change for those who saw it under these owner columns. Written by
 * triggers (migration 0003); pruned after the retention period, which raises the sync horizon.
 */
export const contractTombstones = pgTable(
  'contract_tombstones',
  {
    changeSeq: bigint('change_seq', { mode: 'bigint' }).primaryKey(),
    contractId: text('contract_id').notNull(),
    /** The owner columns the contract had, so the feed applies the usual visibility rule. */
    responsibleUserId: text('responsible_user_id'),
    departmentId: text('department_id'),
    createdAt: createdAt(),
  },
  (t) => [index('contract_tombstones_created_at_idx').on(t.createdAt)],
);

/**
 * One row: every change position at or below `prunedThrough` may have lost its tombstone, so a
 * client holding such a cursor must download everything again (must_resync).
 */
export const syncHorizon = pgTable(
  'sync_horizon',
  {
    id: smallint('id').primaryKey().default(1),
    prunedThrough: bigint('pruned_through', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [check('sync_horizon_single_row_check', sql`${t.id} = 1`)],
);

/**
 * Every pushed mutation that was decided, written in the transaction of its effect: the key of
 * exactly-once. A replay of the id returns `result` and changes nothing.
 */
export const processedMutations = pgTable(
  'processed_mutations',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    /** The MutationResult sent back; null only while the claiming transaction is running. */
    result: jsonb('result').$type<MutationResult>(),
    processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
  },
);
