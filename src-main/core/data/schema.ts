import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, sqliteView, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { ApprovalTrailEntry } from '../../../src-shared/domain/approval-trail';
import type { SortField } from '../../../src-shared/domain/ledger';

// The local replica: synced base state as the server last sent it. Pending local edits (the
// outbox of the sync engine) are kept apart from these rows so a pull never erases them.

/** The columns of a contract row, shared by the base table and the optimistic one. */
const contractColumns = () => ({
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  contractNumber: text('contract_number'),
  status: integer('status'),
  contractTypeName: text('contract_type_name'),
  templateName: text('template_name'),
  counterpartName: text('counterpart_name'),
  amount: integer('amount'),
  amountUnit: text('amount_unit'),
  responsibleUserId: text('responsible_user_id'),
  responsibleUserName: text('responsible_user_name'),
  departmentId: text('department_id'),
  departmentName: text('department_name'),
  signDate: text('sign_date'),
  createTime: text('create_time').notNull(),
  updateTime: text('update_time').notNull(),
  version: integer('version').notNull(),
  // What the detail screen shows offline (sync schema 3).
  contractNumberAuto: integer('contract_number_auto', { mode: 'boolean' }).notNull().default(false),
  contractTypeId: text('contract_type_id'),
  templateId: text('template_id'),
  /** JSON of the form values keyed by field id. */
  formValues: text('form_values', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  /** The number was given offline from the numbering preview; the server confirms or replaces it. */
  numberProvisional: integer('number_provisional', { mode: 'boolean' }).notNull().default(false),
  // Sync schema 6: the counterparty by id (cooperation information) and the approval trail (history).
  counterpartyId: text('counterparty_id'),
  approvalTrail: text('approval_trail', { mode: 'json' }).$type<ApprovalTrailEntry[]>().notNull().default(sql`'[]'`),
});

export const contracts = sqliteTable(
  'contracts',
  contractColumns(),
  (t) => [
    // The ledger pages by update time, within a status tab or across all of them.
    index('contracts_update_time').on(t.updateTime),
    index('contracts_status_update_time').on(t.status, t.updateTime),
    // Scene pages join a task's contract and check its status without reading the row.
    index('contracts_id_status').on(t.id, t.status),
    // The contract detail's cooperation information: a counterparty's contracts, newest first.
    index('contracts_counterparty_update_time').on(t.counterpartyId, t.updateTime),
    // The duplicate-number check offline: one number, or every number held twice.
    index('contracts_contract_number').on(t.contractNumber),
    // Related-contract candidates offline: walked newest first, matched on name or number, and
    // stopped at the limit without reading a row of the table.
    index('contracts_related_candidates').on(t.updateTime, t.id, t.name, t.contractNumber),
  ],
);

/**
 * The numbers `contracts` holds more than once, kept by triggers on `contracts` (client migration
 * 0042) so the duplicate check of every number reads these few rather than grouping the ledger.
 */
export const repeatedContractNumbers = sqliteTable('repeated_contract_numbers', {
  contractNumber: text('contract_number').primaryKey(),
});

/**
 * Contracts per status (0 for a missing status), kept by triggers on `contracts` so the ledger's
 * header counts cost one tiny read however large the replica grows.
 */
export const contractStatusCounts = sqliteTable('contract_status_counts', {
  status: integer('status').primaryKey(),
  count: integer('count').notNull(),
});

/** Small key/value facts about this replica: the pull cursor, the last successful sync. */
export const replicaMeta = sqliteTable('replica_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Desktop reminders already shown (so each fires once across restarts) and those the user
 * snoozed: a snoozed row fires again once `snoozedUntil` (an ISO instant) has passed.
 */
export const firedReminders = sqliteTable(
  'fired_reminders',
  {
    id: text('id').primaryKey(),
    taskId: text('task_id').notNull(),
    rule: text('rule').notNull(),
    occurrence: text('occurrence').notNull(),
    firedAt: text('fired_at').notNull(),
    snoozedUntil: text('snoozed_until'),
  },
  (t) => [index('fired_reminders_snoozed_until').on(t.snoozedUntil)],
);

// Sync engine (architecture, sync rules 1, 4–6). Base rows stay exactly as the server sent them;
// `contracts_local` holds the optimistic row of each contract that live mutations touch (base +
// those mutations re-applied in seq order). It is rebuilt for a row whenever its base changes or
// one of its mutations settles, so the ledger reads one row per contract without replaying the
// outbox: when `contracts_local` is empty (the usual case) the reader uses `contracts` directly,
// otherwise it pages the base rows without a local row and merges the local rows in (the
// `contracts_overlay` view says the same thing in SQL, and tests hold the reader to it).

export const contractsLocal = sqliteTable('contracts_local', contractColumns());

export const contractsOverlay = sqliteView('contracts_overlay', contractColumns()).as(
  sql`select * from contracts_local union all select * from contracts where id not in (select id from contracts_local)`,
);

/**
 * pending: queued, not yet confirmed; applied: confirmed by the server, kept (and re-applied)
 * until a pull brings a base row at least as new, so the user's edit never flickers away;
 * rejected / conflict: settled against the user, kept to be shown until the user dismisses it.
 */
export const outboxStates = ['pending', 'applied', 'rejected', 'conflict'] as const;
export type OutboxState = (typeof outboxStates)[number];

/** The outbox: one intent per local write. Never holds an auth token. */
export const outbox = sqliteTable(
  'outbox',
  {
    // AUTOINCREMENT: a sequence number is never reused, even after its row is deleted.
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    name: text('name').notNull(),
    args: text('args').notNull(),
    /** JSON {"entity:id": version}: the version of each touched row the edit was based on. */
    baseVersions: text('base_versions').notNull(),
    createdAt: text('created_at').notNull(),
    state: text('state', { enum: outboxStates }).notNull(),
    /** Pushes whose answer carried no valid result for this mutation. */
    attempts: integer('attempts').notNull().default(0),
    /** JSON {"entity:id": version} of an applied mutation. */
    appliedVersions: text('applied_versions'),
    /** JSON MutationOutcome of an applied mutation (a draft's final number), replayed until pulled. */
    outcome: text('outcome'),
    /** JSON AppError of a rejected, conflicting or set-aside mutation. */
    error: text('error'),
    /** JSON SyncChange[]: the server's current rows of a conflict. */
    current: text('current'),
  },
  (t) => [index('outbox_state_seq').on(t.state, t.seq)],
);

/** Which rows ("entity:id") each outbox mutation touches, to find a row's mutations fast. */
export const outboxTouches = sqliteTable(
  'outbox_touches',
  {
    rowKey: text('row_key').notNull(),
    seq: integer('seq')
      .notNull()
      .references(() => outbox.seq, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.rowKey, t.seq] }), index('outbox_touches_seq').on(t.seq)],
);

/**
 * While a must_resync rebuild runs: the base contracts the full pull has not brought yet. Those
 * still here when it ends are gone from the server (or from the user's view) and are removed.
 * Kept in the replica so a rebuild interrupted by a restart resumes where it stopped.
 */
export const resyncUnseen = sqliteTable('resync_unseen', {
  id: text('id').primaryKey(),
});

/** The columns of a performance task row, shared by the base table and the optimistic one. */
const taskColumns = () => ({
  id: text('id').primaryKey(),
  contractId: text('contract_id'),
  planId: text('plan_id'),
  performanceId: text('performance_id'),
  name: text('name').notNull(),
  type: text('type').notNull(),
  state: integer('state').notNull(),
  /** The due date, yyyy-MM-dd. */
  expirationTime: text('expiration_time'),
  /** Money in integer hundredths, with its unit. */
  receivableAmount: integer('receivable_amount'),
  payableAmount: integer('payable_amount'),
  amountUnit: text('amount_unit'),
  leaderUserId: text('leader_user_id'),
  /** The row number in the contract's performance sheet, and the row's cells (JSON, by column id). */
  rowIndex: integer('row_index').notNull().default(1),
  level: integer('level'),
  values: text('values').notNull().default('{}'),
  /** The completion form's values (JSON) and the finished amount, once finished. */
  completionValues: text('completion_values'),
  finishedAmount: integer('finished_amount'),
  /** JSON ids of its predecessor tasks (sync schema 5), null when none. */
  frontTaskIds: text('front_task_ids'),
  /** When the task was made: the ledger sorts and shows it offline. */
  createTime: text('create_time').notNull().default(''),
  version: integer('version').notNull(),
  updateTime: text('update_time').notNull(),
});

/** Performance tasks as the server's feed sends them (base state). */
export const performanceTasks = sqliteTable(
  'performance_tasks',
  taskColumns(),
  // A contract that leaves the replica takes its tasks along; the scheduler reads by due date;
  // the ledger's default order is the newest update first.
  (t) => [
    index('performance_tasks_contract').on(t.contractId),
    // Due date then state: the dashboard's counts over a range read this index alone.
    index('performance_tasks_due_state').on(t.expirationTime, t.state),
    index('performance_tasks_update_time').on(t.updateTime, t.id),
    // The dashboard board reads the first cards of each day in this order, without sorting and
    // without visiting the table: the index holds every column of a card.
    index('performance_tasks_card').on(
      t.expirationTime,
      t.name,
      t.id,
      t.contractId,
      t.type,
      t.state,
      t.receivableAmount,
      t.payableAmount,
      t.amountUnit,
    ),
    // Scene pages filter by task type, due-date range and contract status, and order by id: the
    // page's keys and its count read this index alone (migration 0028). `contract_status` is kept
    // by triggers from the contract and read only by the scene search's SQL, so it is not a
    // column of the task rows here.
    index('performance_tasks_scene').on(t.type, t.expirationTime, sql`contract_status`, t.contractId, t.id),
    // The few tasks without their contract's status: an unfiltered scene's count subtracts them (migration 0037).
    index('performance_tasks_without_contract_status').on(t.id).where(sql`contract_status is null`),
  ],
);

/**
 * Pulled tasks per due day and stored state, kept by triggers on `performance_tasks` (migration
 * 0024), so the dashboard's counts and the board's day totals cost a read of at most a year's
 * days x 5 states however many tasks the replica holds.
 */
export const performanceTaskDays = sqliteTable(
  'performance_task_days',
  {
    day: text('day').notNull(),
    state: integer('state').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.state] })],
);

/**
 * The optimistic row of each task that live fulfilment mutations move (finish, restore, delete),
 * as `contracts_local` is for contracts; `deleted` marks a row a queued delete removes.
 */
export const performanceTasksLocal = sqliteTable(
  'performance_tasks_local',
  { ...taskColumns(), deleted: integer('deleted', { mode: 'boolean' }).notNull().default(false) },
  (t) => [index('performance_tasks_local_contract').on(t.contractId)],
);

/** The columns of a plan row (a contract's performance sheet under a performance), base and optimistic. */
const planColumns = () => ({
  id: text('id').primaryKey(),
  contractId: text('contract_id').notNull(),
  performanceId: text('performance_id').notNull(),
  performanceName: text('performance_name').notNull(),
  performanceType: text('performance_type').notNull(),
  /** JSON SheetColumn[] and FormField[] (the completion form) of its performance. */
  columns: text('columns').notNull(),
  fields: text('fields').notNull(),
  conditionType: integer('condition_type').notNull(),
  /** JSON periodic schedule, or null. */
  schedule: text('schedule'),
  version: integer('version').notNull(),
  updateTime: text('update_time').notNull(),
});

export const performancePlans = sqliteTable('performance_plans', planColumns(), (t) => [index('performance_plans_contract').on(t.contractId)]);

/**
 * The optimistic row of a plan whose sheet a queued save edits: `pendingRows` is the sheet as
 * saved (JSON plan rows), `pendingRemoves` the rows its user removed (JSON ids; null: a save that
 * names none, whose unlisted unfinished rows all go).
 */
export const performancePlansLocal = sqliteTable('performance_plans_local', { ...planColumns(), pendingRows: text('pending_rows').notNull(), pendingRemoves: text('pending_removes') });

/** The columns of a ledger scene (issue 14), shared by the base table and the optimistic one. */
const sceneColumns = () => ({
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  isDefault: integer('is_default', { mode: 'boolean' }).notNull(),
  isSystem: integer('is_system', { mode: 'boolean' }).notNull(),
  performanceId: text('performance_id'),
  /** JSON string[]. */
  filterIds: text('filter_ids', { mode: 'json' }).$type<string[]>().notNull(),
  /** JSON string[]. */
  titleIds: text('title_ids', { mode: 'json' }).$type<string[]>().notNull(),
  /** JSON FilterCondition[]. */
  filters: text('filters', { mode: 'json' }).$type<unknown[]>().notNull(),
  /** JSON SortField: the kept sort; null: newest update first (migration 0039). */
  sortField: text('sort_field', { mode: 'json' }).$type<SortField>(),
  sortOrder: integer('sort_order').notNull(),
  version: integer('version').notNull(),
  updateTime: text('update_time').notNull(),
});

/** The signed-in user's ledger scenes as the server last sent them. */
export const ledgerScenes = sqliteTable('ledger_scenes', sceneColumns());

/**
 * The optimistic scene of each scene that live mutations move (base + those re-applied), as
 * contracts_local is for contracts; a deleted one stays as a marked row until the delete settles.
 */
export const ledgerScenesLocal = sqliteTable('ledger_scenes_local', {
  ...sceneColumns(),
  deleted: integer('deleted', { mode: 'boolean' }).notNull().default(false),
  /** When an edit here made it the default: of two such pending edits, the later one wins. */
  defaultSetAt: text('default_set_at'),
});

/** The signed-in user's reminder settings (JSON, src-shared/domain/reminders.ts); one row. */
export const reminderSettings = sqliteTable('reminder_settings', {
  userId: text('user_id').primaryKey(),
  settings: text('settings').notNull(),
  version: integer('version').notNull(),
  updateTime: text('update_time').notNull(),
});

// Drafting offline (issue 6).

/** The signed-in user's drafting catalogue (one row per user: a replica is per user anyway). */
export const draftingCatalogue = sqliteTable('drafting_catalogue', {
  userId: text('user_id').primaryKey(),
  refreshedAt: text('refreshed_at').notNull(),
  /** JSON CatalogueContractType[]. */
  contractTypes: text('contract_types').notNull(),
  /** JSON PreviewRule[]: the numbering rules that may number this user's contracts, with the next number of each. */
  numberingPreview: text('numbering_preview').notNull(),
  isNumberEditor: integer('is_number_editor', { mode: 'boolean' }).notNull(),
});

/** Approved templates with their field configs and clauses (JSON TemplateDetail). */
export const catalogueTemplates = sqliteTable(
  'catalogue_templates',
  {
    userId: text('user_id').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    detail: text('detail').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] })],
);

/** Counterparties for the party pickers while offline. */
export const catalogueCounterparties = sqliteTable(
  'catalogue_counterparties',
  {
    userId: text('user_id').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    partyType: integer('party_type').notNull(),
    creditCode: text('credit_code'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] }), index('catalogue_counterparties_type_name').on(t.userId, t.partyType, t.name)],
);

/** Every provisional number shown here, so none is handed out twice (even after its draft is gone). */
export const provisionalNumbers = sqliteTable('provisional_numbers', {
  number: text('number').primaryKey(),
  contractId: text('contract_id').notNull(),
  createdAt: text('created_at').notNull(),
});

/** Provisional numbers the server replaced on sync, shown until the user dismisses them. */
export const numberNotices = sqliteTable('number_notices', {
  contractId: text('contract_id').primaryKey(),
  contractName: text('contract_name').notNull(),
  provisional: text('provisional').notNull(),
  /** Null when no numbering rule applied any more on the server. */
  confirmed: text('confirmed'),
  at: text('at').notNull(),
});

/** A contract's alteration history as the server last sent it, kept per user for reading offline. */
export const alterationHistory = sqliteTable(
  'alteration_history',
  {
    userId: text('user_id').notNull(),
    contractId: text('contract_id').notNull(),
    /** When the server sent it: the history is shown "as of" this time while offline. */
    fetchedAt: text('fetched_at').notNull(),
    /** JSON of the server's alteration list. */
    alterations: text('alterations').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.contractId] })],
);

// Contract archive and full-text search (issue 14). The archived PDF of a contract as this device
// knows it: its text is kept for the full-text index even after its bytes leave the bounded cache.

/** The archived PDF of a contract: its bytes may be in the archive cache, its text feeds the index. */
export const archivedFiles = sqliteTable(
  'archived_files',
  {
    contractId: text('contract_id').primaryKey(),
    fileId: text('file_id').notNull(),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    /** Its bytes are in the archive cache (they leave it least recently opened first). */
    cached: integer('cached', { mode: 'boolean' }).notNull().default(false),
    /** When it was last opened or fetched: the cache's eviction order. */
    openedAt: text('opened_at').notNull(),
    /** Null until the text extraction has read the document. */
    pages: integer('pages'),
    indexedPages: integer('indexed_pages').notNull().default(0),
    /** The extracted text, null until every page was read (the index takes it whole). */
    text: text('text'),
  },
  (t) => [index('archived_files_cached_opened').on(t.cached, t.openedAt)],
);

/**
 * Files kept on this device until they reach the server (issue 30): an attachment or an archive's
 * PDF chosen offline, sealed beside the replica under its id, which becomes the server's file id.
 * The row goes once the server holds the whole file; a refused one stays, with why, until the edit
 * naming it is settled.
 */
export const queuedFiles = sqliteTable('queued_files', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  size: integer('size').notNull(),
  /** The whole file's SHA-256 (lower-case hex), which the server checks. */
  sha256: text('sha256').notNull(),
  purpose: text('purpose', { enum: ['attachment', 'archive'] }).notNull(),
  contractId: text('contract_id'),
  /** Bytes the server has acknowledged. */
  sent: integer('sent').notNull().default(0),
  state: text('state', { enum: ['waiting', 'refused'] }).notNull().default('waiting'),
  /** Why the server refused it (an AppError's JSON). */
  error: text('error'),
  /** An edit kept on this device has named it: once none does, it was removed and goes everywhere. */
  claimed: integer('claimed', { mode: 'boolean' }).notNull().default(false),
  keptAt: text('kept_at').notNull(),
});

/**
 * The full-text index's row ids (FTS5 needs integers): one row per contract and source, 'base'
 * for the synced row and 'local' for its optimistic one. Kept by triggers (migration 0015).
 */
export const searchRows = sqliteTable(
  'search_rows',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    contractId: text('contract_id').notNull(),
    source: text('source', { enum: ['base', 'local'] }).notNull(),
  },
  (t) => [uniqueIndex('search_rows_contract_source').on(t.contractId, t.source)],
);

/**
 * The last answer of a server-only read (a screen of issue 15: counterparties, projects, numbering,
 * IP, law firms, case types), kept per user and keyed by what was read, so the screen can still show
 * it offline "as of" its time. One generic table: each screen's answer is JSON of its endpoint's response.
 */
export const cachedReads = sqliteTable(
  'cached_reads',
  {
    userId: text('user_id').notNull(),
    /** What was read, usually the endpoint's name. */
    kind: text('kind').notNull(),
    /** Which answer of that kind: its parameters in canonical JSON, or an id. */
    key: text('key').notNull(),
    fetchedAt: text('fetched_at').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.key] })],
);
