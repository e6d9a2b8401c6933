import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ReplicaDb } from './replica';
import { cachedReads } from './schema';

// The last answer of each server-only read, per user, with its fetch time. Read back through the
// reader's schema: a damaged or outdated entry is no answer (the screen says it has nothing offline).

export interface CachedEntry<T> {
  value: T;
  fetchedAt: string;
}

export function cachedReadStore(db: ReplicaDb, userId: string) {
  const of = (kind: string, key: string) => and(eq(cachedReads.userId, userId), eq(cachedReads.kind, kind), eq(cachedReads.key, key));
  return {
    read<T>(kind: string, key: string, schema: z.ZodType<T>): CachedEntry<T> | null {
      const row = db.select({ value: cachedReads.value, fetchedAt: cachedReads.fetchedAt }).from(cachedReads).where(of(kind, key)).get();
      if (!row) return null;
      try {
        const parsed = schema.safeParse(JSON.parse(row.value));
        return parsed.success ? { value: parsed.data, fetchedAt: row.fetchedAt } : null;
      } catch {
        return null;
      }
    },
    write(kind: string, key: string, value: unknown, fetchedAt: string): void {
      const text = JSON.stringify(value);
      db.insert(cachedReads)
        .values({ userId, kind, key, fetchedAt, value: text })
        .onConflictDoUpdate({ target: [cachedReads.userId, cachedReads.kind, cachedReads.key], set: { fetchedAt, value: text } })
        .run();
    },
  };
}
