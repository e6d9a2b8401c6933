import { renameSync, rmSync } from 'node:fs';
import { AppFailure } from '../../../src-shared/errors';
import type { ReplicaConnection } from './replica';

// A replica as a file (architecture, "First sync"): the server builds a user's first sync as an
// image of their replica with these migrations and the features' pull writers, and the desktop
// takes the image's synced tables in, in one transaction, instead of writing the feed row by row.
// What an image holds and how it is attached is here; the take-in itself is the replica writer's
// (replica-sync.ts), beside the feed's pages.

/**
 * The tables a pull writes, and those their triggers keep (the status counts, the numbers held
 * twice, the tasks' day counts): an image's rows. Every other table is the device's own (the
 * outbox and its optimistic rows, cached reads, kept files, the full-text index) and stays as it
 * is; an image holding a row anywhere else is refused, so a table a new pull writer fills cannot
 * be left out unseen.
 */
export const imageTables = ['contracts', 'contract_status_counts', 'repeated_contract_numbers', 'performance_tasks', 'performance_task_days', 'performance_plans', 'ledger_scenes', 'reminder_settings'] as const;

/** The meta key naming whose replica an image is. */
export const imageUserKey = 'image_user_id';

/** The schema name an image is attached under while it is taken in. */
export const imageSchema = 'image';

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Attaches the image file to the replica's connection. The one place an image enters a replica:
 * an encrypted replica attaches its plain image here, so the copy writes it encrypted.
 */
export function attachImage(sqlite: ReplicaConnection, path: string): void {
  // KEY '': the image is plain; without it SQLite3MultipleCiphers would read it with the replica's key.
  sqlite.prepare(`attach database ? as ${imageSchema} key ''`).run(path);
}

export function detachImage(sqlite: ReplicaConnection): void {
  sqlite.exec(`detach database ${imageSchema}`);
}

const refused = (why: string) => new AppFailure('validation_failed', `The prepared replica image was refused: ${why}.`);

/**
 * Checks the attached image against this replica: the same schema version, built for `userId`,
 * rows only in the image tables; answers its feed cursor.
 */
export function checkAttachedImage(sqlite: ReplicaConnection, userId: string): string {
  const version = sqlite.pragma(`${imageSchema}.user_version`, { simple: true });
  if (version !== sqlite.pragma('user_version', { simple: true })) throw refused(`it is of replica schema ${String(version)}`);
  const meta = sqlite.prepare<[string], string>(`select value from ${imageSchema}.replica_meta where key = ?`).pluck();
  if (meta.get(imageUserKey) !== userId) throw refused('it was built for another user');
  const cursor = meta.get('pull_cursor');
  if (cursor === undefined) throw refused('it has no cursor');
  const master = sqlite.prepare<[], { name: string; sql: string }>(`select name, sql from ${imageSchema}.sqlite_master where type = 'table' and name not like 'sqlite_%'`).all();
  // Besides the image tables: its meta, the migrations' own record (the same, by the version), and
  // the full-text index's tables with the bookkeeping FTS5 writes when it is made (it is not copied).
  const copied = new Set<string>([...imageTables, 'replica_meta', '__drizzle_migrations']);
  const fullText = master.filter(({ sql }) => /^CREATE VIRTUAL TABLE/i.test(sql)).map(({ name }) => name);
  for (const { name: table } of master) {
    if (!copied.has(table) && !fullText.some((index) => table === index || table.startsWith(`${index}_`)) && sqlite.prepare(`select exists (select 1 from ${imageSchema}.${quoted(table)})`).pluck().get() === 1) throw refused(`it holds rows of ${table}`);
  }
  return cursor;
}

/** The indexes and triggers of the image tables as they stand: set aside while an image's rows are copied in. */
export function imageTablesUpkeep(sqlite: ReplicaConnection): { name: string; sql: string; type: 'index' | 'trigger' }[] {
  return sqlite
    .prepare<[], { name: string; sql: string; type: 'index' | 'trigger' }>(
      `select name, sql, type from sqlite_master where type in ('index', 'trigger') and sql is not null and tbl_name in (${imageTables.map((t) => `'${t}'`).join(', ')})`,
    )
    .all();
}

/**
 * Ends an image's build once its pull has ended: without the secondary indexes (the desktop
 * builds them from its own schema as it takes the image in), named for its user, and written
 * compact to `target`, in the rollback journal's mode so it is one file.
 */
export function sealImage(sqlite: ReplicaConnection, userId: string, target: string): void {
  for (const { name } of sqlite.prepare<[], { name: string }>(`select name from sqlite_master where type = 'index' and sql is not null`).all()) sqlite.exec(`drop index ${quoted(name)}`);
  sqlite.prepare(`insert or replace into replica_meta (key, value) values (?, ?)`).run(imageUserKey, userId);
  // The desktop takes its own planner statistics once the indexes are built.
  if (sqlite.prepare(`select exists (select 1 from sqlite_master where name = 'sqlite_stat1')`).pluck().get() === 1) sqlite.exec('delete from sqlite_stat1');
  sqlite.pragma('journal_mode = DELETE');
  rmSync(target, { force: true });
  sqlite.prepare('vacuum into ?').run(`${target}.part`);
  renameSync(`${target}.part`, target);
}

/** Forgets the indexes a first sync set aside (deferred-indexes.ts): an image's pull ends without building them. */
export function forgetDeferredIndexes(sqlite: ReplicaConnection): void {
  sqlite.exec(`delete from replica_meta where key >= 'deferred_index:' and key < 'deferred_index:\uffff'`);
}
