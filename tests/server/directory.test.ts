import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { departments, organisations, users } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, failure, okData, signIn } from './support';

// GET /users and /departments: the organisation's directory for the people and department fields.

const alice = demoUsers.find((u) => u.username === 'alice')!;

describeOnDatabases('the user and department directory', (fixture) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 5, seed: 3 });
    await fixture.db.insert(organisations).values({ id: 'elsewhere', name: 'Elsewhere' });
    await fixture.db.insert(departments).values({ id: 'dept-elsewhere', organisationId: 'elsewhere', parentId: null, name: '别家部门' });
    await fixture.db.insert(users).values({
      id: 'user-elsewhere', organisationId: 'elsewhere', username: 'stranger', displayName: '别家用户', passwordHash: 'x', role: 'staff', departmentId: 'dept-elsewhere',
    });
    app = fixture.server();
    token = (await signIn(app, alice.username, alice.password)).token;
  });

  it('asks for a token', async () => {
    failure(await callEndpoint(app, 'userDirectory'), 401, 'unauthorized');
    failure(await callEndpoint(app, 'departmentDirectory'), 401, 'unauthorized');
  });

  it('lists every user of the organisation with their department, and nothing else about them', async () => {
    const { list } = okData('userDirectory', await callEndpoint(app, 'userDirectory', { token }));
    const [aliceUser] = await fixture.db.select().from(users).where(eq(users.username, 'alice'));
    const own = await fixture.db.select({ id: users.id }).from(users).where(eq(users.organisationId, aliceUser!.organisationId));
    expect(list.map((u) => u.id).sort()).toEqual(own.map((u) => u.id).sort());
    expect(list.map((u) => u.id)).not.toContain('user-elsewhere');
    const aliceRow = list.find((u) => u.name === alice.displayName)!;
    expect(aliceRow.department?.name).toBe(alice.department);
    expect(Object.keys(aliceRow).sort()).toEqual(['department', 'id', 'name']);
  });

  it('lists the organisation’s departments with their parent', async () => {
    const { list } = okData('departmentDirectory', await callEndpoint(app, 'departmentDirectory', { token }));
    const ids = new Set(list.map((d) => d.id));
    expect(list.map((d) => d.name)).toContain(alice.department);
    expect(ids.has('dept-elsewhere')).toBe(false);
    // The tree is whole: every parent named is itself listed.
    for (const department of list) if (department.parent !== null) expect(ids.has(department.parent)).toBe(true);
    expect(Object.keys(list[0]!).sort()).toEqual(['id', 'name', 'parent']);
  });
});
