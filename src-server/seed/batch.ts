import type { PgTable } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';
import type { ServerDb } from '../db/database';
import type { Random } from './random';

/** PostgreSQL takes at most 65,535 parameters per statement: rows per INSERT follow the column count. */
const maxParameters = 60_000;

export async function insertInBatches<T extends PgTable>(tx: ServerDb, table: T, rows: readonly T['$inferInsert'][]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Math.max(1, ...rows.slice(0, 20).map((row) => Object.keys(row).length));
  const size = Math.max(1, Math.floor(maxParameters / columns));
  for (let start = 0; start < rows.length; start += size) await tx.insert(table).values(rows.slice(start, start + size));
}

/** A UUIDv7 whose time is `at` and whose random part comes from the seeded generator. */
export function seededId(random: Random, at: number): string {
  return uuidv7({ msecs: at, random: random.bytes(16) });
}
