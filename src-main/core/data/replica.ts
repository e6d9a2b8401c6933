import Database from 'better-sqlite3-multiple-ciphers';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppFailure } from '../../../src-shared/errors';
import { restoreIndexes, restoreTriggers } from './deferred-indexes';
import { cjkBigrams, cjkBigramsFunction } from './cjk-bigrams';
import * as schema from './schema';

export type ReplicaDb = BetterSQLite3Database<typeof schema>;
/**
 * The raw SQLite connection, for a feature store whose hot paths (a first sync's hundreds of
 * thousands of rows) use prepared SQL; named here so better-sqlite3 stays in this folder.
 */
export type ReplicaConnection = Database.Database;
/** A prepared statement of that connection, for the stores that keep theirs. */
export type ReplicaStatement = Database.Statement<unknown[]>;

export interface OpenReplica {
  readonly path: string;
  readonly db: ReplicaDb;
  readonly sqlite: ReplicaConnection;
  close(): void;
}

/** How many migrations this build knows; stored in PRAGMA user_version after migrating. */
export function knownSchemaVersion(migrationsDir: string): number {
  const journal = JSON.parse(readFileSync(join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

const corruptionCodes = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_VTAB']);

function isCorruption(cause: unknown): boolean {
  return cause instanceof Database.SqliteError && corruptionCodes.has(cause.code);
}

/** Statements kept per connection for drizzle: every query shape the core makes, with room to spare. */
const cachedStatements = 1000;

/**
 * The connection as drizzle sees it: drizzle prepares each query anew on every call, and the
 * native prepare is a good part of a small edit's cost, so each statement is kept by its SQL and
 * handed back as drizzle expects it (rows as objects unless it asks raw() itself). Only drizzle's
 * statements are shared this way; the stores' own prepared statements stay theirs.
 */
function withStatementCache(sqlite: Database.Database): Database.Database {
  const statements = new Map<string, Database.Statement>();
  function prepare(source: string): Database.Statement {
    const kept = statements.get(source);
    if (kept) {
      if (kept.reader) kept.raw(false);
      return kept;
    }
    if (statements.size >= cachedStatements) statements.delete(statements.keys().next().value!);
    const statement = sqlite.prepare(source);
    statements.set(source, statement);
    return statement;
  }
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The first bytes of every plain SQLite file; an encrypted one starts with its random salt instead. */
const plainHeader = Buffer.from('SQLite format 3\0', 'latin1');

function startsPlain(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(plainHeader.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(plainHeader);
  } finally {
    closeSync(fd);
  }
}

/**
 * Keys a connection before its first read: SQLCipher 4's format (AES-256-CBC pages with an
 * HMAC-SHA512 each) with the raw 256-bit key, so no passphrase derivation runs at each open.
 */
function applyKey(sqlite: Database.Database, key: Buffer, pragma: 'key' | 'rekey'): void {
  sqlite.pragma(`cipher = 'sqlcipher'`);
  sqlite.pragma('legacy = 4');
  sqlite.pragma(`${pragma} = "x'${key.toString('hex')}'"`);
}

/** Whether the connection reads its file (a wrong key or no key reads as 'not a database'). */
function readable(sqlite: Database.Database): boolean {
  try {
    sqlite.prepare('select count(*) from sqlite_schema').get();
    return true;
  } catch (cause) {
    if (cause instanceof Database.SqliteError && cause.code === 'SQLITE_NOTADB') return false;
    throw cause;
  }
}

/**
 * Encrypts a plain replica in place (one written before replicas were encrypted), outbox and all:
 * its WAL is checkpointed into it first and the rekey rewrites every page, so no page of it stays
 * in clear in the file.
 */
function encryptPlainReplica(path: string, key: Buffer): void {
  const plain = new Database(path);
  try {
    plain.pragma('wal_checkpoint(TRUNCATE)');
    plain.pragma('journal_mode = DELETE');
    applyKey(plain, key, 'rekey');
  } finally {
    plain.close();
  }
}

/** Opens the file with the key, encrypting it first when it is a plain replica. */
function openKeyed(path: string, key: Buffer): Database.Database {
  const isNew = path === ':memory:' || !existsSync(path);
  const sqlite = new Database(path);
  applyKey(sqlite, key, 'key');
  if (isNew || readable(sqlite)) return sqlite;
  sqlite.close();
  if (!startsPlain(path)) throw new AppFailure('replica_key_lost');
  encryptPlainReplica(path, key);
  const keyed = new Database(path);
  applyKey(keyed, key, 'key');
  return keyed;
}

/**
 * A bare connection to a replica file with its database key, no schema work: for support tools
 * and tests that look inside a replica the core has closed.
 */
export function connectReplicaFile(path: string, key: Buffer | undefined, options: { readonly?: boolean } = {}): ReplicaConnection {
  const sqlite = new Database(path, { readonly: options.readonly ?? false, fileMustExist: true });
  if (key) applyKey(sqlite, key, 'key');
  return sqlite;
}

export interface ReplicaOpenOptions {
  /**
   * The replica's database key (32 bytes): the file is encrypted with it, a plain one is
   * encrypted on opening. Without it the file is plain (tests and the benches' plain side).
   */
  key?: Buffer;
}

/**
 * Opens (creating if needed) a replica file and brings its schema up to date. A file that is not
 * a sound SQLite database fails with `replica_corrupt`; an encrypted one this key does not open
 * with `replica_key_lost`; one written by a newer build (a higher user_version than this build
 * knows) fails with `replica_newer_schema` and is left untouched.
 */
export function openReplica(path: string, migrationsDir: string, options: ReplicaOpenOptions = {}): OpenReplica {
  mkdirSync(dirname(path), { recursive: true });
  const known = knownSchemaVersion(migrationsDir);
  let sqlite: Database.Database | undefined;
  try {
    sqlite = options.key ? openKeyed(path, options.key) : new Database(path);
    const check = sqlite.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new AppFailure('replica_corrupt');
    const version = sqlite.pragma('user_version', { simple: true }) as number;
    if (version > known) throw new AppFailure('replica_newer_schema');
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // Sorts and temporary tables stay in memory, never in a temporary file beside the encrypted replica.
    sqlite.pragma('temp_store = MEMORY');
    // Every page read from the file is decrypted (and its HMAC checked): a page cache of 64 MiB
    // (SQLite's default is 2 MiB) keeps a scene's or the ledger's working set decrypted.
    sqlite.pragma('cache_size = -65536');
    // ANALYZE reads a sample of each index, not all of it: quick at any replica size.
    sqlite.pragma('analysis_limit = 1000');
    // The full-text index's triggers (and the migration that builds it) split CJK text with it.
    sqlite.function(cjkBigramsFunction, { deterministic: true }, (text: unknown) => cjkBigrams(typeof text === 'string' ? text : null));
    const db = drizzle(withStatementCache(sqlite), { schema });
    // Triggers a first sync set aside stand aside by themselves while it goes on: back at once, so
    // none is ever missing where it would act, and a migration finds them as it left them.
    if (version > 0) restoreTriggers(sqlite);
    if (version < known) {
      // A migration may change or drop an index a first sync set aside: it finds them as it left them.
      if (version > 0) restoreIndexes(sqlite);
      migrate(db, { migrationsFolder: migrationsDir });
      sqlite.pragma(`user_version = ${known}`);
    }
    const opened = sqlite;
    return { path, db, sqlite: opened, close: () => opened.close() };
  } catch (cause) {
    sqlite?.close();
    if (cause instanceof AppFailure) throw cause;
    if (isCorruption(cause)) throw new AppFailure('replica_corrupt');
    throw cause;
  }
}

/**
 * Keeps a damaged replica (or one whose key is lost) for support instead of deleting it, so a
 * fresh one can be made.
 */
export function setCorruptReplicaAside(path: string, now: Date, why: 'corrupt' | 'key-lost' = 'corrupt'): string | null {
  if (!existsSync(path)) return null;
  const aside = `${path}.${why}-${now.toISOString().replace(/[:.]/g, '-')}`;
  renameSync(path, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  }
  return aside;
}

/**
 * `read`'s answer, read again only after the replica changed: small reads a hot path asks on
 * every call (a scene, the field definitions, the kept directory), each otherwise a query and a
 * schema parse. The core's connection is the replica's only writer, so its total_changes()
 * moves with every write (a rolled-back one too, which only costs a read).
 */
export function untilReplicaChanges<T>(sqlite: ReplicaConnection, read: () => T): () => T {
  const generation = sqlite.prepare('select total_changes()').pluck();
  let seen = -1;
  let kept: T;
  return () => {
    const now = generation.get() as number;
    if (now !== seen) {
      kept = read();
      seen = now;
    }
    return kept;
  };
}
