import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { organisations } from '../../src-server/db/schema';
import { lawFirms, lawyers } from '../../src-server/law-firms/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { caseTypes } from '../../src-server/ledger/schema';
import { endpoints, type EndpointName } from '../../src-shared/api/endpoints';
import { call, callEndpoint, describeOnDatabases, failure, okData, queryRows, signIn, type CallOptions } from './support';

const alice = demoUsers.find((u) => u.username === 'alice')!;
const firmId = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;

describeOnDatabases('law firms and lawyers', (fixture) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 50, seed: 7 });
    await fixture.db.delete(lawFirms);
    const [organisation] = await fixture.db.select().from(organisations);
    await fixture.db.insert(organisations).values({ id: 'elsewhere', name: 'Elsewhere' });
    await fixture.db.insert(lawFirms).values([
      ...Array.from({ length: 120 }, (_, i) => ({ id: firmId(i + 1), organisationId: organisation!.id, name: `律师事务所 ${String(i + 1).padStart(3, '0')}` })),
      { id: firmId(500), organisationId: organisation!.id, name: '100%_合伙 律师事务所' },
      { id: firmId(900), organisationId: 'elsewhere', name: '律师事务所 别家' },
    ]);
    await fixture.db.insert(lawyers).values([
      { id: firmId(1001), lawFirmId: firmId(1), name: '王律师' },
      { id: firmId(1002), lawFirmId: firmId(1), name: '李律师' },
      { id: firmId(1003), lawFirmId: firmId(2), name: '张律师' },
      { id: firmId(1009), lawFirmId: firmId(900), name: '别家律师' },
    ]);
    app = fixture.server();
    token = (await signIn(app, alice.username, alice.password)).token;
  });

  it('pages law firms 100 at a time when asked, and gives the whole list without parameters', async () => {
    const first = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token, query: { pageSize: 100, pageNum: 1 } }));
    expect(first.list).toHaveLength(100);
    expect(first.count).toBe(121);
    const defaults = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token, query: { q: '' , pageNum: 2 } }));
    expect(defaults.list).toHaveLength(21);
    const all = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token }));
    expect(all.list).toHaveLength(121);
    expect(all.list.map((f) => f.id)).not.toContain(firmId(900));
    expect(Object.keys(all.list[0]!).sort()).toEqual(['id', 'name', 'state']);
  });

  it('searches law firms literally', async () => {
    const percent = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token, query: { q: '100%_' } }));
    expect(percent.list.map((f) => f.id)).toEqual([firmId(500)]);
    const underscore = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token, query: { q: "_'; --" } }));
    expect(underscore.list).toEqual([]);
  });

  it('lists lawyers of the chosen firms, of this organisation only', async () => {
    const both = okData('lawyersByLawFirms', await callEndpoint(app, 'lawyersByLawFirms', { token, query: { lawFirmIDs: `${firmId(1)},${firmId(2)},${firmId(900)}` } }));
    expect(both.list.map((l) => l.name).sort()).toEqual(['张律师', '李律师', '王律师'].sort());
    expect(both.list.find((l) => l.name === '张律师')).toEqual({ id: firmId(1003), name: '张律师', lawFirmID: firmId(2), state: 1 });
    const filtered = okData('lawyersByLawFirms', await callEndpoint(app, 'lawyersByLawFirms', { token, query: { lawFirmIDs: firmId(1), q: '王' } }));
    expect(filtered.list.map((l) => l.id)).toEqual([firmId(1001)]);
    const all = okData('lawyerList', await callEndpoint(app, 'lawyerList', { token }));
    expect(all.list).toHaveLength(3);
  });

  it('refuses bad parameters and missing tokens', async () => {
    const queries: Record<string, string | number>[] = [{ pageSize: 0 }, { pageSize: 'x' }, { pageNum: -1 }, { q: 'x'.repeat(101) }, { sort: 'name' }];
    for (const query of queries) {
      failure(await callEndpoint(app, 'lawFirmList', { token, query }), 400, 'validation_failed');
    }
    const bad = failure(await callEndpoint(app, 'lawyersByLawFirms', { token, query: { lawFirmIDs: "1' or '1'='1" } }), 400, 'validation_failed');
    expect(bad.message).toContain('lawFirmIDs');
    failure(await callEndpoint(app, 'lawFirmList'), 401, 'unauthorized');
    failure(await callEndpoint(app, 'lawyersByLawFirms', { query: { lawFirmIDs: firmId(1) } }), 401, 'unauthorized');
    failure(await callEndpoint(app, 'lawyerList'), 401, 'unauthorized');
    expect((await fixture.db.select().from(lawyers).where(eq(lawyers.lawFirmId, firmId(1)))).length).toBe(2);
  });

  /** Calls a write of the map with its `:id` filled in. */
  const write = (name: EndpointName, id: string | null, options: CallOptions) =>
    call(app, endpoints[name].method, endpoints[name].path.replace(':id', id ?? ''), { token, ...options });
  const auditOf = async (action: string) =>
    queryRows<{ entity: string; entity_id: string }>(fixture.db, sql`select entity, entity_id from audit_events where action = ${action} order by seq desc limit 1`);

  it('creates, renames and disables a law firm and a lawyer, each write audited, a disabled one still listed with its state', async () => {
    const firm = okData('lawFirmCreate', await write('lawFirmCreate', null, { body: { name: '  新建（杭州）律师事务所 ' } }));
    expect(firm).toMatchObject({ name: '新建（杭州）律师事务所', state: 1 });
    expect(await auditOf('lawFirmCreate')).toEqual([{ entity: 'lawFirm', entity_id: firm.id }]);
    const lawyer = okData('lawyerCreate', await write('lawyerCreate', null, { body: { name: '周律师', lawFirmID: firm.id } }));
    expect(lawyer).toMatchObject({ name: '周律师', lawFirmID: firm.id, state: 1 });
    expect(await auditOf('lawyerCreate')).toEqual([{ entity: 'lawyer', entity_id: lawyer.id }]);

    const disabled = okData('lawFirmUpdate', await write('lawFirmUpdate', firm.id, { body: { name: '新建（杭州）律师事务所（停用）', state: 2 } }));
    expect(disabled).toEqual({ id: firm.id, name: '新建（杭州）律师事务所（停用）', state: 2 });
    expect(await auditOf('lawFirmUpdate')).toEqual([{ entity: 'lawFirm', entity_id: firm.id }]);
    const moved = okData('lawyerUpdate', await write('lawyerUpdate', lawyer.id, { body: { name: '周律师', lawFirmID: firmId(2), state: 2 } }));
    expect(moved).toEqual({ id: lawyer.id, name: '周律师', lawFirmID: firmId(2), state: 2 });

    const firms = okData('lawFirmList', await callEndpoint(app, 'lawFirmList', { token, query: { q: '停用' } }));
    expect(firms.list).toEqual([{ id: firm.id, name: '新建（杭州）律师事务所（停用）', state: 2 }]);
    const ofFirm = okData('lawyersByLawFirms', await callEndpoint(app, 'lawyersByLawFirms', { token, query: { lawFirmIDs: firmId(2) } }));
    expect(ofFirm.list.find((l) => l.id === lawyer.id)?.state).toBe(2);
  });

  it('refuses bad input to the law firm and lawyer writes and changes nothing', async () => {
    const before = (await fixture.db.select().from(lawFirms)).length;
    const lawyersBefore = (await fixture.db.select().from(lawyers)).length;
    const taken = failure(await write('lawFirmCreate', null, { body: { name: '律师事务所 001' } }), 409, 'conflict');
    expect(taken.reason?.key).toBe('lawFirmNameTaken');
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(201) }, { name: 'ok', state: 3 }, { name: 'ok', extra: 1 }]) {
      failure(await write('lawFirmCreate', null, { body }), 400, 'validation_failed');
    }
    failure(await write('lawFirmUpdate', firmId(900), { body: { name: '抢别家的', state: 1 } }), 404, 'not_found');
    failure(await write('lawFirmUpdate', firmId(3), { body: { name: '律师事务所 001', state: 1 } }), 409, 'conflict');
    const elsewhere = failure(await write('lawyerCreate', null, { body: { name: '某律师', lawFirmID: firmId(900) } }), 400, 'validation_failed');
    expect(elsewhere.reason?.key).toBe('lawFirmUnknown');
    failure(await write('lawyerCreate', null, { body: { name: '某律师', lawFirmID: 'not-a-uuid' } }), 400, 'validation_failed');
    failure(await write('lawyerUpdate', firmId(1009), { body: { name: '别家律师', lawFirmID: firmId(1), state: 1 } }), 404, 'not_found');
    failure(await write('lawFirmCreate', null, { token: '', body: { name: '无令牌' } }), 401, 'unauthorized');
    expect((await fixture.db.select().from(lawFirms)).length).toBe(before);
    expect((await fixture.db.select().from(lawyers)).length).toBe(lawyersBefore);
  });

  it('adds case types at the top and under a node, renames and disables one keeping its place, and refuses bad input', async () => {
    const top = okData('caseTypeCreate', await write('caseTypeCreate', null, { body: { name: '知识产权纠纷' } }));
    expect(top).toMatchObject({ parentId: null, name: '知识产权纠纷', state: 1 });
    const child = okData('caseTypeCreate', await write('caseTypeCreate', null, { body: { name: '商标侵权', parentId: top.id } }));
    expect(await auditOf('caseTypeCreate')).toEqual([{ entity: 'caseType', entity_id: child.id }]);
    const disabled = okData('caseTypeUpdate', await write('caseTypeUpdate', child.id, { body: { name: '商标侵权纠纷', state: 2 } }));
    expect(disabled).toEqual({ id: child.id, parentId: top.id, name: '商标侵权纠纷', state: 2 });
    const tree = okData('caseTypeTree', await callEndpoint(app, 'caseTypeTree', { token }));
    const node = tree.find((n) => n.id === top.id);
    expect(node?.children.map((c) => ({ name: c.name, state: c.state }))).toEqual([{ name: '商标侵权纠纷', state: 2 }]);
    expect(tree.at(-1)?.id).toBe(top.id);

    const count = async () => (await fixture.db.select().from(caseTypes)).length;
    const before = await count();
    const unknown = failure(await write('caseTypeCreate', null, { body: { name: '孤儿', parentId: firmId(77) } }), 400, 'validation_failed');
    expect(unknown.reason?.key).toBe('caseTypeParentUnknown');
    for (const body of [{ name: '' }, { name: 'x', state: 0 }, { name: 'x', parentId: 'root' }]) failure(await write('caseTypeCreate', null, { body }), 400, 'validation_failed');
    failure(await write('caseTypeUpdate', child.id, { body: { name: '只改名' } }), 400, 'validation_failed');
    failure(await write('caseTypeUpdate', firmId(77), { body: { name: '不存在', state: 1 } }), 404, 'not_found');
    expect(await count()).toBe(before);
  });
});
