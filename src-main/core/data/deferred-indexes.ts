import type { ReplicaConnection } from './replica';

// A table's secondary indexes set aside while a first sync fills it, and built once in bulk
// afterwards: keeping them row by row cost several times what one sorted build costs. Each
// index's own SQL is kept in `replica_meta` until it is built again, so a cut or a restart
// mid-way loses nothing, and a replica opened for a migration gets them back first.

const keyPrefix = 'deferred_index:';

/** Drops the secondary indexes of `table`, keeping their SQL. Call inside the page's transaction. */
export function deferIndexes(sqlite: ReplicaConnection, table: string): void {
  const indexes = sqlite
    .prepare<[string], { name: string; sql: string }>(`select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null`)
    .all(table);
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

const presence = new WeakMap<ReplicaConnection, (name: string) => boolean>();

/** Whether index `name` exists now (a reader naming it with INDEXED BY reads without it while it is set aside). */
export function indexPresent(sqlite: ReplicaConnection, name: string): boolean {
  let lookup = presence.get(sqlite);
  if (!lookup) {
    const exists = sqlite.prepare<[string], number>(`select exists (select 1 from sqlite_master where type = 'index' and name = ?)`).pluck();
    lookup = (index) => exists.get(index) === 1;
    presence.set(sqlite, lookup);
  }
  return lookup(name);
}
