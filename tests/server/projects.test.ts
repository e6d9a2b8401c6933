import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { contracts, users } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { call, callEndpoint, describeOnDatabases, failure, okData, queryRows, signIn } from './support';

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;
const missing = '01900000-0000-7000-8000-000000000000';

describeOnDatabases('projects', (fixture) => {
  let app: FastifyInstance;
  let alice: string;
  let bob: string;
  let admin: string;
  let aliceContracts: string[];
  let bobContract: string;
  let projectId: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 200, seed: 9 });
    app = fixture.server();
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
    bob = (await signIn(app, 'bob', demo('bob').password)).token;
    admin = (await signIn(app, 'admin', demo('admin').password)).token;
    const [aliceRow] = await fixture.db.select().from(users).where(eq(users.username, 'alice'));
    const [bobRow] = await fixture.db.select().from(users).where(eq(users.username, 'bob'));
    await fixture.db.insert(contracts).values([
      { id: 'p-alice-1', name: '项目合同 一', responsibleUserId: aliceRow!.id, departmentId: aliceRow!.departmentId },
      { id: 'p-alice-2', name: '项目合同 二 100%', responsibleUserId: aliceRow!.id, departmentId: aliceRow!.departmentId },
      { id: 'p-bob-1', name: '项目合同 bob', responsibleUserId: bobRow!.id, departmentId: bobRow!.departmentId },
    ]);
    aliceContracts = ['p-alice-1', 'p-alice-2'];
    bobContract = 'p-bob-1';
  });

  const projectOf = async (id: string) => (await fixture.db.select({ projectId: contracts.projectId }).from(contracts).where(eq(contracts.id, id)))[0]?.projectId;
  const projectCount = async () => (await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from projects`))[0]!.n;

  it('creates a project with the creator’s visible contracts', async () => {
    const project = okData('projectCreate', await callEndpoint(app, 'projectCreate', {
      token: alice, body: { name: '  华东仓储项目  ', description: 'phase one', contractIds: aliceContracts },
    }));
    expect(project).toMatchObject({ name: '华东仓储项目', description: 'phase one', contractCount: 2, version: 1 });
    expect(project.createdByName).toContain('Alice');
    projectId = project.id;
    expect(await projectOf('p-alice-1')).toBe(projectId);
    expect(okData('projectGet', await call(app, 'GET', `/api/v1/project/${projectId}`, { token: bob }))).toMatchObject({ id: projectId, contractCount: 0 });
  });

  it('refuses bad bodies, duplicate names and invisible contracts, writing nothing', async () => {
    const before = await projectCount();
    const noName = failure(await callEndpoint(app, 'projectCreate', { token: alice, body: { name: ' ' } }), 400, 'validation_failed');
    expect(noName.issues).toContainEqual({ path: 'name', message: 'please enter the project name' });
    failure(await callEndpoint(app, 'projectCreate', { token: alice, body: { name: 'x', extra: true } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'projectCreate', { token: alice, body: { name: 'x'.repeat(101) } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'projectCreate', { token: alice, body: { name: 42 } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'projectCreate', { token: alice, rawBody: '[' }), 400, 'bad_request');
    failure(await callEndpoint(app, 'projectCreate', { token: alice, body: { name: '华东仓储项目' } }), 409, 'conflict');
    failure(await callEndpoint(app, 'projectCreate', { token: alice, body: { name: 'sneaky', contractIds: [bobContract] } }), 404, 'not_found');
    failure(await callEndpoint(app, 'projectCreate', { body: { name: 'anon' } }), 401, 'unauthorized');
    expect(await projectCount()).toBe(before);
    expect(await projectOf(bobContract)).toBeNull();
  });

  it('lets members add and remove only their visible contracts', async () => {
    const path = `/api/v1/project/${projectId}/contracts`;
    failure(await call(app, 'PUT', path, { token: alice, body: { contractIds: [bobContract] } }), 404, 'not_found');
    failure(await call(app, 'PUT', path, { token: alice, body: { contractIds: [] } }), 400, 'validation_failed');
    failure(await call(app, 'PUT', `/api/v1/project/${missing}/contracts`, { token: alice, body: { contractIds: aliceContracts } }), 404, 'not_found');
    failure(await call(app, 'PUT', path, { body: { contractIds: [bobContract] } }), 401, 'unauthorized');
    expect(okData('projectAddContracts', await call(app, 'PUT', path, { token: bob, body: { contractIds: [bobContract] } }))).toEqual({ count: 1 });

    const bobView = okData('projectContracts', await call(app, 'GET', path, { token: bob }));
    expect(bobView.list.map((c) => c.id)).toEqual([bobContract]);
    const aliceView = okData('projectContracts', await call(app, 'GET', path, { token: alice, query: { q: '100%' } }));
    expect(aliceView.list.map((c) => c.id)).toEqual(['p-alice-2']);
    const adminView = okData('projectContracts', await call(app, 'GET', path, { token: admin }));
    expect(adminView.count).toBe(3);
    failure(await call(app, 'GET', `/api/v1/project/${missing}/contracts`, { token: admin }), 404, 'not_found');
    failure(await call(app, 'GET', path, { token: admin, query: { pageSize: 500 } }), 400, 'validation_failed');

    // Alice cannot take Bob's contract out: it is not visible to her, so nothing changes.
    expect(okData('projectRemoveContracts', await call(app, 'DELETE', path, { token: alice, query: { contractIds: `${bobContract},p-alice-1` } }))).toEqual({ count: 1 });
    expect(await projectOf(bobContract)).toBe(projectId);
    expect(await projectOf('p-alice-1')).toBeNull();
    failure(await call(app, 'DELETE', path, { token: alice }), 400, 'validation_failed');
    failure(await call(app, 'DELETE', path, { query: { contractIds: 'p-alice-2' } }), 401, 'unauthorized');
  });

  it('lists projects with visible counts, the full list, and the visible contracts to pick from', async () => {
    const page = okData('projectList', await callEndpoint(app, 'projectList', { token: alice, query: { q: '华东仓储项目' } }));
    expect(page.list.map((p) => [p.id, p.contractCount])).toEqual([[projectId, 1]]);
    const all = okData('projectListAll', await callEndpoint(app, 'projectListAll', { token: alice }));
    expect(all.list).toContainEqual({ id: projectId, name: '华东仓储项目' });
    failure(await callEndpoint(app, 'projectList', { token: alice, query: { pageNum: 0 } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'projectList'), 401, 'unauthorized');
    failure(await callEndpoint(app, 'projectListAll'), 401, 'unauthorized');

    const visible = okData('contractListVisible', await callEndpoint(app, 'contractListVisible', { token: alice, query: { q: '项目合同', pageSize: 100 } }));
    expect(visible.list.map((c) => c.id).sort()).toEqual(aliceContracts);
    const inProject = okData('contractListVisible', await callEndpoint(app, 'contractListVisible', { token: alice, query: { projectId } }));
    expect(inProject.list.map((c) => c.id)).toEqual(['p-alice-2']);
    const free = okData('contractListVisible', await callEndpoint(app, 'contractListVisible', { token: alice, query: { withoutProject: 'true', q: '项目合同' } }));
    expect(free.list.map((c) => c.id)).toEqual(['p-alice-1']);
    const literal = okData('contractListVisible', await callEndpoint(app, 'contractListVisible', { token: alice, query: { q: "%'; drop table contracts; --" } }));
    expect(literal.count).toBe(0);
    failure(await callEndpoint(app, 'contractListVisible', { token: alice, query: { projectId: 'x' } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'contractListVisible'), 401, 'unauthorized');
  });

  it('lets only the creator or an administrator rename or delete, with version checks', async () => {
    const path = `/api/v1/project/${projectId}`;
    failure(await call(app, 'PUT', path, { token: bob, body: { name: 'taken over' } }), 403, 'forbidden');
    failure(await call(app, 'DELETE', path, { token: bob }), 403, 'forbidden');
    failure(await call(app, 'PUT', path, { token: alice, body: { name: '' } }), 400, 'validation_failed');
    failure(await call(app, 'PUT', `/api/v1/project/${missing}`, { token: alice, body: { name: 'x' } }), 404, 'not_found');
    failure(await call(app, 'PUT', path, { body: { name: 'x' } }), 401, 'unauthorized');
    const current = okData('projectGet', await call(app, 'GET', path, { token: alice }));
    const renamed = okData('projectUpdate', await call(app, 'PUT', path, { token: alice, body: { name: '华东仓储二期', version: current.version } }));
    expect(renamed).toMatchObject({ name: '华东仓储二期', description: '', version: current.version + 1 });
    failure(await call(app, 'PUT', path, { token: admin, body: { name: 'stale', version: current.version } }), 409, 'conflict');
    failure(await call(app, 'PUT', path, { token: admin, body: { name: 'stale' }, headers: { 'if-match': `"${current.version}"` } }), 409, 'conflict');
    failure(await call(app, 'PUT', path, { token: admin, body: { name: 'odd' }, headers: { 'if-match': 'yesterday' } }), 400, 'bad_request');
    const viaHeader = okData('projectUpdate', await call(app, 'PUT', path, { token: admin, body: { name: '华东仓储二期' }, headers: { 'if-match': `"${renamed.version}"` } }));
    expect(viaHeader.version).toBe(renamed.version + 1);

    failure(await call(app, 'DELETE', `/api/v1/project/${missing}`, { token: admin }), 404, 'not_found');
    failure(await call(app, 'DELETE', path), 401, 'unauthorized');
    expect(okData('projectDelete', await call(app, 'DELETE', path, { token: admin }))).toEqual({ deleted: true });
    failure(await call(app, 'GET', path, { token: alice }), 404, 'not_found');
    const freed = await fixture.db.select({ projectId: contracts.projectId }).from(contracts).where(inArray(contracts.id, [bobContract, 'p-alice-2']));
    expect(freed.map((c) => c.projectId)).toEqual([null, null]);
  });
});
