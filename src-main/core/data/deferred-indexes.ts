import type { ReplicaConnection } from './replica';

// A table's secondary indexes set aside while a first sync fills it, and built once in bulk
// afterwards: keeping them row by row cost several times what one sorted build costs. Each
// index's own SQL is kept in `replica_meta` until it is built again, so a cut or a restart
// mid-way loses nothing, and a replica opened for a migration gets them back first. Triggers that
// stand aside during the first sync anyway are set aside the same way.

/** Where `replica_meta` keeps the SQL of what is set aside, by kind. */
const prefixes = { index: 'deferred_index:', trigger: 'deferred_trigger:' } as const;

/** Drops the secondary indexes of `table`, keeping their SQL. Call inside the page's transaction. */
export function deferIndexes(sqlite: ReplicaConnection, table: string): void {
  const indexes = sqlite
    .prepare<[string], { name: string; sql: string }>(`select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null`)
    .all(table);
  setAside(sqlite, 'index', indexes);
}

/** Keeps each object's SQL under its kind's prefix and drops it. */
function setAside(sqlite: ReplicaConnection, kind: 'index' | 'trigger', objects: readonly { name: string; sql: string }[]): void {
  const keep = sqlite.prepare<[string, string]>(`insert or replace into replica_meta (key, value) values (?, ?)`);
  for (const { name, sql } of objects) {
    keep.run(`${prefixes[kind]}${name}`, sql);
    sqlite.exec(`drop ${kind} "${name.replaceAll('"', '""')}"`);
  }
}

/** Builds every index set aside, as it was. */
export function restoreIndexes(sqlite: ReplicaConnection): void {
  restoreKept(sqlite, prefixes.index);
}

/**
 * Builds every index set aside, each in a transaction of its own: call outside a transaction. A
 * build's new pages are written at its commit and leave the page cache like any read page, where
 * inside one transaction they stay in it unwritten and push out the table the next build scans:
 * an encrypted replica then decrypts (and checks) the whole table again for each of its indexes.
 */
export function restoreIndexesOneByOne(sqlite: ReplicaConnection): void {
  restoreKept(sqlite, prefixes.index, (restore) => sqlite.transaction(restore)());
}

function restoreKept(sqlite: ReplicaConnection, prefix: string, each: (restore: () => void) => void = (restore) => restore()): void {
  const kept = sqlite.prepare<[string, string], { key: string; value: string }>(`select key, value from replica_meta where key >= ? and key < ? order by key`);
  for (const { key, value } of kept.all(prefix, `${prefix}\uffff`)) {
    each(() => {
      sqlite.exec(value);
      sqlite.prepare<[string]>('delete from replica_meta where key = ?').run(key);
    });
  }
}

/** The text outside parentheses, each group left as "()". */
function topLevel(text: string): string {
  let depth = 0;
  let out = '';
  for (const char of text) {
    if (char === '(') {
      if (depth === 0) out += char;
      depth += 1;
    } else if (char === ')') {
      depth -= 1;
      if (depth === 0) out += char;
    } else if (depth === 0) out += char;
  }
  return out;
}

/**
 * Whether a trigger does nothing while `replica_meta` holds `key`: its WHEN clause is a conjunction
 * (no OR outside parentheses) with the term "the key is not there" (client migrations 0030, 0031).
 */
export function standsAsideFor(sql: string, key: string): boolean {
  const when = /\bWHEN\b([\s\S]*?)\bBEGIN\b/i.exec(sql)?.[1];
  if (when === undefined) return false;
  const outer = topLevel(when);
  return !/\bOR\b/i.test(outer) && outer.includes('NOT EXISTS ()') && when.includes(`NOT EXISTS (SELECT 1 FROM \`replica_meta\` WHERE \`key\` = '${key}')`);
}

/**
 * Drops the triggers that stand aside while `replica_meta` holds `key`, keeping their SQL: each
 * would still look the key up for every row written, 0.3 s of a 50,000-contract first sync. Call
 * in the transaction that sets the key.
 */
export function deferTriggers(sqlite: ReplicaConnection, key: string): void {
  const triggers = sqlite
    .prepare<[string], { name: string; sql: string }>(`select name, sql from sqlite_master where type = 'trigger' and instr(sql, ?) > 0`)
    .all(`'${key}'`)
    .filter(({ sql }) => standsAsideFor(sql, key));
  setAside(sqlite, 'trigger', triggers);
}

/**
 * Makes again every trigger set aside. Call in the transaction that removes their key, so they are
 * never missing where they would act; a replica opened again gets them back first (they stand
 * aside by themselves while their key is set).
 */
export function restoreTriggers(sqlite: ReplicaConnection): void {
  restoreKept(sqlite, prefixes.trigger);
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
