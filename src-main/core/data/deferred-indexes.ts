import type { ReplicaConnection } from './replica';

// A table's secondary indexes set aside while a first sync fills it, and built once in bulk
// afterwards: keeping them row by row cost several times what one sorted build costs. Each
// index's own SQL is kept in `replica_meta` until it is built again, so a cut or a restart
// mid-way loses nothing, and a replica opened for a migration gets them back first.

const keyPrefix = 'deferred_index:';

/** Drops the secondary indexes of `table` but those in `kept`, keeping their SQL. Call inside the page's transaction. */
export function deferIndexes(sqlite: ReplicaConnection, table: string, kept: readonly string[]): void {
  const indexes = sqlite
    .prepare<[string], { name: string; sql: string }>(`select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null`)
    .all(table)
    .filter(({ name }) => !kept.includes(name));
  const keep = sqlite.prepare<[string, string]>(`insert or replace into replica_meta (key, value) values (?, ?)`);
  for (const { name, sql } of indexes) {
    keep.run(`${keyPrefix}${name}`, sql);
    sqlite.exec(`drop index "${name.replaceAll('"', '""')}"`);
  }
}

/** Builds every index set aside, as it was. */
export function restoreIndexes(sqlite: ReplicaConnection): void {
  const kept = sqlite.prepare<[string, string], { key: string; value: string }>(`select key, value from replica_meta where key >= ? and key < ? order by key`);
  for (const { key, value } of kept.all(keyPrefix, `${keyPrefix}\uffff`)) {
    sqlite.exec(value);
    sqlite.prepare<[string]>('delete from replica_meta where key = ?').run(key);
  }
}
