import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion } from '../../src-shared/api/sync';
import { departments, users } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, failure, listAllContracts, okData, pullAll, queryRows, signIn } from './support';

// Loss of access through the user's own rights (issue 3, points 5 and 6): a replica pulled
// before the user's department or role changed must be rebuilt (src-server/sync/access.ts).

const password = (username: string) => demoUsers.find((u) => u.username === username)!.password;

describeOnDatabases('sync pull after a change of the user\'s own department or role', (fixture) => {
  let app: FastifyInstance;
  let alice: string;
  let aliceId: string;

  const pullOnce = (cursor: string, limit = 50) =>
    callEndpoint(app, 'syncPull', { token: alice, query: { cursor, limit, protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion } });

  /**
   * A cursor records only its snapshot's xmin, so while a transaction older than the change (on
   * this shared cluster: anyone's) is still running, a pull cannot prove it saw the change and
   * the server errs on the safe side with must_resync. Wait until that window has closed.
   */
  async function changeSettled() {
    for (let tries = 0; tries < 200; tries++) {
      const [row] = await queryRows<{ settled: boolean }>(fixture.db, sql`
        select pg_snapshot_xmin(pg_current_snapshot())::text::bigint > (access_changed_position >> 24) as settled from users where id = ${aliceId}`);
      if (row?.settled) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('an old transaction kept running for 10 s');
  }

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 60, seed: 17 });
    app = fixture.server();
    alice = (await signIn(app, 'alice', password('alice'))).token;
    aliceId = (await fixture.db.select({ id: users.id }).from(users).where(eq(users.username, 'alice')))[0]!.id;
  });

  it('answers must_resync to a staff user moved to another department; a full pull then shows exactly the new department\'s contracts', async () => {
    const before = await pullAll(app, alice, 25);
    const firstPage = okData('syncPull', await pullOnce('0', 2));
    expect(firstPage.hasMore).toBe(true);
    const [user] = await fixture.db.select().from(users).where(eq(users.id, aliceId));
    const [other] = await fixture.db.select({ id: departments.id }).from(departments).where(and(eq(departments.organisationId, user!.organisationId), ne(departments.id, user!.departmentId!)));
    // A department that shares no contracts with her old one, to see the old ones go.
    await fixture.db.update(users).set({ departmentId: other!.id }).where(eq(users.id, aliceId));

    failure(await pullOnce(before.cursor), 410, 'must_resync');
    // So is a cursor taken mid-way through a pull that began before the change.
    failure(await pullOnce(firstPage.cursor, 2), 410, 'must_resync');

    await changeSettled();
    const rebuilt = await pullAll(app, alice, 25);
    const visible = await listAllContracts(app, alice);
    expect(new Set(rebuilt.rows.map((r) => r.id))).toEqual(new Set(visible.rows.map((r) => r.id)));
    // Exactly the new department's contracts plus those she is personally on.
    const expected = await queryRows<{ id: string }>(fixture.db, sql`
      select id from contracts
      where department_id = ${other!.id} or responsible_user_id = ${aliceId} or business_handler_user_id = ${aliceId}
         or id in (select contract_id from contract_agents where user_id = ${aliceId})`);
    expect(new Set(rebuilt.rows.map((r) => r.id))).toEqual(new Set(expected.map((r) => r.id)));
    expect(rebuilt.rows.some((r) => r.departmentId === user!.departmentId && r.responsibleUserId !== aliceId)).toBe(false);

    // The rebuilt replica's cursor is current: the next pull is a normal, empty one.
    const next = await pullOnce(rebuilt.cursor);
    expect(next.status).toBe(200);
  });

  it('answers must_resync after a change of role, and not after an unrelated change of the user', async () => {
    const caughtUp = await pullAll(app, alice, 50);
    await fixture.db.update(users).set({ displayName: 'Alice (renamed)' }).where(eq(users.id, aliceId));
    expect((await pullOnce(caughtUp.cursor)).status).toBe(200);
    await fixture.db.update(users).set({ role: 'admin' }).where(eq(users.id, aliceId));
    failure(await pullOnce(caughtUp.cursor), 410, 'must_resync');
    await fixture.db.update(users).set({ role: 'staff' }).where(eq(users.id, aliceId));
  });
});
