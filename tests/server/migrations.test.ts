import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { eq, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrationsFolder } from '../../src-server/db/database';
import { contracts } from '../../src-server/db/schema';
import { describeOnDatabases, queryRows } from './support';

/** Every table the schema modules declare: src-server/db/schema.ts and each feature's schema.ts. */
async function declaredTables(): Promise<string[]> {
  const serverRoot = path.resolve(import.meta.dirname, '../../src-server');
  const modules = [
    path.join(serverRoot, 'db/schema.ts'),
    ...readdirSync(serverRoot)
      .map((feature) => path.join(serverRoot, feature, 'schema.ts'))
      .filter((file) => existsSync(file)),
  ];
  const names = new Set<string>();
  for (const file of modules) {
    const exported: Record<string, unknown> = await import(file);
    for (const value of Object.values(exported)) if (is(value, PgTable)) names.add(getTableConfig(value).name);
  }
  return [...names].sort();
}

describeOnDatabases('migrations', (fixture) => {
  it('create every table the schema declares on a fresh database and record each migration once', async () => {
    const tables = await queryRows<{ table_name: string }>(
      fixture.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const declared = await declaredTables();
    expect(declared).toContain('contracts');
    expect(tables.map((t) => t.table_name)).toEqual(declared);
    const applied = await queryRows<{ hash: string }>(fixture.db, sql`select hash from drizzle.__drizzle_migrations`);
    expect(applied).toHaveLength(readMigrationFiles({ migrationsFolder }).length);
  });

  it('are a no-op when the server starts again on a migrated database', async () => {
    await fixture.db.insert(contracts).values({ id: 'kept-across-restart', name: 'kept' });
    await fixture.reopen();
    const applied = await queryRows<{ hash: string }>(fixture.db, sql`select hash from drizzle.__drizzle_migrations`);
    expect(applied).toHaveLength(readMigrationFiles({ migrationsFolder }).length);
    expect(await fixture.db.select({ id: contracts.id }).from(contracts).where(eq(contracts.id, 'kept-across-restart'))).toHaveLength(1);
  });

  it('give every insert and update of a contract a new, larger change sequence, whatever the statement says', async () => {
    const [inserted] = await fixture.db
      .insert(contracts)
      .values({ id: 'seq-a', name: 'a', changeSeq: 999_999n })
      .returning({ changeSeq: contracts.changeSeq });
    const [other] = await fixture.db.insert(contracts).values({ id: 'seq-b', name: 'b' }).returning({ changeSeq: contracts.changeSeq });
    const [updated] = await fixture.db
      .update(contracts)
      .set({ name: 'a, renamed', changeSeq: 1n })
      .where(eq(contracts.id, 'seq-a'))
      .returning({ changeSeq: contracts.changeSeq });
    expect(inserted!.changeSeq).not.toBe(999_999n);
    expect(other!.changeSeq).toBeGreaterThan(inserted!.changeSeq);
    expect(updated!.changeSeq).toBeGreaterThan(other!.changeSeq);
  });

  it('refuse a status outside 1..5 and an amount without a currency unit', async () => {
    await expect(fixture.db.insert(contracts).values({ id: 'bad-status', name: 'x', status: 6 as never })).rejects.toThrow();
    await expect(fixture.db.insert(contracts).values({ id: 'bad-money', name: 'x', amount: 100 })).rejects.toThrow();
  });
});
