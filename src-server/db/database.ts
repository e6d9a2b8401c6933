import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { fromDataCache } from './data-cache';

/** The one database type the server code sees, whichever driver is underneath. */
export type ServerDb = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: ServerDb;
  /** Where the data lives, for the start message (never includes a password). */
  description: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PGlite data directory; used when no databaseUrl is given. */
  dataDir?: string;
  /** postgres://… of a real PostgreSQL; wins over dataDir. */
  databaseUrl?: string;
}

export const defaultDataDir = '.data/server';

// Resolved from this file, not the working directory, so the server starts from any cwd.
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const migrationsFolder = path.join(repoRoot, 'migrations', 'server');

/** Serialises migrations of several server processes starting against one PostgreSQL. */
const migrationLockKey = 727_001;

/** Opens the database and brings its schema up to date before anything else touches it. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir ?? defaultDataDir);
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const dir = path.resolve(dataDir);
  await mkdir(dir, { recursive: true });
  await fromDataCache('migrated', dir, async (scratch) => {
    const made = await openMigratedPglite(scratch);
    await made.close();
  });
  const { client, db } = await openMigratedPglite(dir);
  return { db, description: `PGlite at ${dir}`, close: () => client.close() };
}

async function openMigratedPglite(dir: string): Promise<{ client: PGlite; db: ServerDb; close(): Promise<void> }> {
  const client = await PGlite.create({ dataDir: dir });
  try {
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder });
    return { client, db, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}

async function openPostgres(databaseUrl: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle connection can die (a PostgreSQL restart, a failover, an administrator ending it);
  // node-postgres re-emits that on the pool, where an unheard 'error' would end the process. The
  // pool drops the dead connection and opens a new one on the next query.
  pool.on('error', (error) => console.warn(`PostgreSQL connection lost (it is replaced on the next query): ${error.message}`));
  try {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [migrationLockKey]);
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [migrationLockKey]).catch(() => undefined);
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const url = new URL(databaseUrl);
  return {
    db: drizzlePg({ client: pool, schema }),
    description: `PostgreSQL at ${url.host}${url.pathname}`,
    close: () => pool.end(),
  };
}
