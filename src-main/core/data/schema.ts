import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

// The local replica: synced base state as the server last sent it. Pending local edits (the
// outbox of the sync engine) are kept apart from these rows so a pull never erases them.

export const contracts = sqliteTable(
  'contracts',
  {
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
  },
  (t) => [
    // The ledger pages by update time, within a status tab or across all of them.
    index('contracts_update_time').on(t.updateTime),
    index('contracts_status_update_time').on(t.status, t.updateTime),
  ],
);

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
