import { sql } from 'drizzle-orm';
import pg from 'pg';
import { expect, it } from 'vitest';
import { describeOnDatabases, queryRows } from './support';

// The server's connection pool survives connections that die under it (a PostgreSQL restart, a
// failover, an administrator ending them): before it had an 'error' listener, such a death ended
// the whole server process with an uncaught exception.

describeOnDatabases('database connections', (fixture) => {
  it.runIf(fixture.kind === 'PostgreSQL')('keeps serving after its idle connections are terminated', async () => {
    const [database] = await queryRows<{ name: string }>(fixture.db, sql`select current_database() as name`);
    const name = database!.name;
    const url = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      const ended = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      expect(ended.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // Let the termination reach the pool's idle connection before the next query.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await queryRows<{ one: number }>(fixture.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });
});
