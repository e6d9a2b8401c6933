import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getTableColumns, getTableName } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { ReplicaConnection } from '../../src-main/core/data/replica';
import type { ReplicaFeatures } from '../../src-main/core/data/replica-features';
import { clientMigrationsDir } from '../../src-main/paths';

/** The client migrations this build knows, in order. */
export const clientJournal = JSON.parse(readFileSync(join(clientMigrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };

/** The migrations folder (made under `dir`) of a build that knew only the first `count` client migrations. */
export function migrationsUpTo(dir: string, count: number): string {
  const folder = join(dir, `migrations-${count}`);
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const entries = clientJournal.entries.slice(0, count);
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...clientJournal, entries }));
  for (const entry of entries) copyFileSync(join(clientMigrationsDir, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  return folder;
}

/**
 * This build's replica features for a replica left at an earlier schema, whose performance_tasks
 * lacks this build's task columns (client migration 0036 added front_task_ids): the task and
 * reminder-settings writers, which prepare their statements over those columns, write nothing.
 * For tests that pull other entities there.
 */
export function withoutTaskWriters(features: ReplicaFeatures): ReplicaFeatures {
  const unused = () => ({ page: () => ({ write: () => [] }) });
  return { ...features, pulled: { ...features.pulled, performanceTask: unused, reminderSettings: unused } };
}

/**
 * Runs `write` on a replica left at an earlier schema with the contract columns this build's
 * contract writer prepares over (client migration 0038 added counterparty_id and approval_trail),
 * then drops them again, so the later migrations add them as they would on that replica.
 */
export function withThisBuildsContractColumns(sqlite: { exec(sql: string): unknown; prepare(sql: string): { all(): unknown[] } }, write: () => void): void {
  // contracts_local too, and the views (the overlay unions the two tables column for column) set
  // aside while the tables' columns change.
  const views = sqlite.prepare(`select name, sql from sqlite_master where type = 'view' and sql like '%contracts_local%'`).all() as { name: string; sql: string }[];
  const alter = (change: (table: string) => string) => {
    for (const view of views) sqlite.exec(`drop view ${view.name}`);
    for (const table of ['contracts', 'contracts_local']) sqlite.exec(change(table));
    for (const view of views) sqlite.exec(view.sql);
  };
  alter((table) => `alter table ${table} add column counterparty_id text; alter table ${table} add column approval_trail text not null default '[]'`);
  write();
  alter((table) => `alter table ${table} drop column counterparty_id; alter table ${table} drop column approval_trail`);
}

/**
 * Inserts `rows` (this build's row objects) into a replica left at an earlier schema, writing only
 * the columns that schema has: its own triggers then act on them as they did then.
 */
export function insertWithItsColumns<T extends SQLiteTable>(sqlite: ReplicaConnection, table: T, rows: T['$inferInsert'][]): void {
  const tableName = getTableName(table);
  const present = new Set(sqlite.prepare<[], string>(`select name from pragma_table_info('${tableName}')`).pluck().all());
  for (const row of rows) {
    const written = Object.entries(getTableColumns(table)).filter(([key, column]) => present.has(column.name) && (row as Record<string, unknown>)[key] !== undefined);
    sqlite
      .prepare(`insert into "${tableName}" (${written.map(([, column]) => `"${column.name}"`).join(', ')}) values (${written.map(() => '?').join(', ')})`)
      .run(...written.map(([key, column]) => column.mapToDriverValue((row as Record<string, unknown>)[key]) as unknown));
  }
}
