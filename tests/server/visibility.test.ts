import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { contractStatuses, contractStatusStatisticsKey } from '../../src-shared/domain/enums';
import { contracts, users } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, listAllContracts, okData, pullAll, signIn } from './support';

type ContractRow = typeof contracts.$inferSelect;
type UserRow = typeof users.$inferSelect;

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;

describeOnDatabases('visibility', (fixture) => {
  let app: FastifyInstance;
  let all: ContractRow[];
  const people = new Map<string, UserRow>();

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 300, seed: 5 });
    for (const username of ['admin', 'alice', 'bob']) {
      const [user] = await fixture.db.select().from(users).where(eq(users.username, username));
      people.set(username, user!);
    }
    const alice = people.get('alice')!;
    const bob = people.get('bob')!;
    expect(alice.departmentId).not.toBe(bob.departmentId);
    await fixture.db.insert(contracts).values([
      // Alice is responsible for a contract booked on Bob's department: both see it.
      { id: 'alice-in-sales', name: 'cross-department', status: 2, responsibleUserId: alice.id, departmentId: bob.departmentId },
      // Nobody is responsible yet; only the department (and admins) see it.
      { id: 'sales-unassigned', name: 'unassigned', status: 1, departmentId: bob.departmentId },
    ]);
    all = await fixture.db.select().from(contracts);
    app = fixture.server();
  });

  /** The rule, written independently of the server: admins see all; staff their own and their department's. */
  function visibleTo(username: string): ContractRow[] {
    const user = people.get(username)!;
    if (user.role === 'admin') return all;
    return all.filter((c) => c.responsibleUserId === user.id || (c.departmentId !== null && c.departmentId === user.departmentId));
  }

  const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id).sort();

  for (const username of ['admin', 'alice', 'bob']) {
    it(`${username} sees exactly the contracts the rule allows, in the list, the statistics and the pull`, async () => {
      const { token } = await signIn(app, username, demo(username).password);
      const expected = visibleTo(username);
      if (username !== 'admin') expect(expected.length).toBeLessThan(all.length);

      const list = await listAllContracts(app, token);
      expect(list.count).toBe(expected.length);
      expect(ids(list.rows)).toEqual(ids(expected));

      const statistics = okData('contractStatistics', await callEndpoint(app, 'contractStatistics', { token }));
      expect(statistics.total).toBe(expected.length);
      for (const status of contractStatuses) {
        expect(statistics[contractStatusStatisticsKey[status]]).toBe(expected.filter((c) => c.status === status).length);
      }

      const pulled = await pullAll(app, token, 50);
      expect(ids(pulled.rows)).toEqual(ids(expected));

      for (const status of contractStatuses) {
        const filtered = await listAllContracts(app, token, { status });
        expect(ids(filtered.rows)).toEqual(ids(expected.filter((c) => c.status === status)));
      }
    });
  }

  it('a staff user never sees another department’s contract they are not responsible for', async () => {
    const alice = people.get('alice')!;
    const { token } = await signIn(app, 'alice', demo('alice').password);
    const foreign = (c: { departmentId: string | null; responsibleUserId: string | null }) =>
      c.departmentId !== alice.departmentId && c.responsibleUserId !== alice.id;
    expect(all.some(foreign)).toBe(true);
    const list = await listAllContracts(app, token);
    const pulled = await pullAll(app, token, 1000);
    expect(list.rows.filter(foreign)).toEqual([]);
    expect(pulled.rows.filter(foreign)).toEqual([]);
    expect(ids(list.rows)).toContain('alice-in-sales');
    expect(ids(list.rows)).not.toContain('sales-unassigned');
    const q = await listAllContracts(app, token, { q: 'unassigned' });
    expect(q.count).toBe(0);
  });
});
