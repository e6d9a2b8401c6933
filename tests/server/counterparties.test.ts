import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { contracts, counterparties, organisations, users } from '../../src-server/db/schema';
import { counterpartyRisks } from '../../src-server/counterparties/schema';
import { scoreResults } from '../../src-server/scoring/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, call, describeOnDatabases, failure, okData, queryRows, signIn } from './support';

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;
const missing = '01900000-0000-7000-8000-000000000000';

const outerParty = {
  type: 2, subtype: 1, name: '  上海测试 100%_科技有限公司  ', keyword: '测试科技', idNumber: '91310000MA1FL0000X',
  address: '上海市浦东新区', rating: 20, ratingRemark: 'on time', isConnectedTransaction: false,
  banks: [{ name: '招商银行上海分行', account: '6225-8801_2345678', accountName: '上海测试科技有限公司' }],
  contacts: [{ name: '张三', phone: '13800000000' }],
  registration: { enterpriseType: '有限责任公司', legalPerson: '李四', establishmentDate: '2015-06-01', registrationStatus: '存续' },
};

describeOnDatabases('counterparties', (fixture) => {
  let app: FastifyInstance;
  let admin: string;
  let alice: string;
  let created: { id: string; version: number };

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 200, seed: 3 });
    app = fixture.server();
    admin = (await signIn(app, 'admin', demo('admin').password)).token;
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
  });

  const countParties = async () => (await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from counterparties`))[0]!.n;

  it('creates an outer counterparty with banks, contacts and registration, trimmed', async () => {
    const party = okData('counterpartyCreate', await callEndpoint(app, 'counterpartyCreate', { token: alice, body: outerParty }));
    expect(party.name).toBe('上海测试 100%_科技有限公司');
    expect(party.banks).toEqual(outerParty.banks);
    expect(party.contacts[0]).toMatchObject({ name: '张三', phone: '13800000000', email: null });
    expect(party.registration).toMatchObject({ legalPerson: '李四', establishmentDate: '2015-06-01', termEnd: null });
    expect(party.updaterName).toContain('Alice');
    expect(party.version).toBe(1);
    created = party;
    const read = okData('counterpartyGet', await call(app, 'GET', `/api/v1/counterparties/${party.id}`, { token: admin }));
    expect(read).toEqual(party);
  });

  it('refuses a missing name, a bad bank account and unknown fields, writing nothing', async () => {
    const before = await countParties();
    const noName = failure(await callEndpoint(app, 'counterpartyCreate', { token: alice, body: { ...outerParty, name: '   ' } }), 400, 'validation_failed');
    expect(noName.issues).toContainEqual({ path: 'name', message: 'please enter the name' });
    for (const account of ['12345678', '1234567890123456789012345', '6225 8801 2345', "1234567890'--"]) {
      const bad = failure(
        await callEndpoint(app, 'counterpartyCreate', { token: alice, body: { ...outerParty, banks: [{ ...outerParty.banks[0], account }] } }),
        400, 'validation_failed',
      );
      expect(bad.issues).toContainEqual({ path: 'banks.0.account', message: 'please enter 9-24 characters' });
    }
    failure(await callEndpoint(app, 'counterpartyCreate', { token: alice, body: { ...outerParty, rating: 15 } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'counterpartyCreate', { token: alice, body: { ...outerParty, extra: 1 } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'counterpartyCreate', { token: alice, body: { ...outerParty, name: 'x'.repeat(201) } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'counterpartyCreate', { token: alice, rawBody: '{"name":' }), 400, 'bad_request');
    failure(await callEndpoint(app, 'counterpartyCreate', { body: outerParty }), 401, 'unauthorized');
    expect(await countParties()).toBe(before);
  });

  it('updates with the current version and refuses a stale one', async () => {
    const path = `/api/v1/counterparties/${created.id}`;
    const updated = okData('counterpartyUpdate', await call(app, 'PUT', path, {
      token: admin, body: { ...outerParty, name: '上海测试科技有限公司', banks: [], rating: 40, version: created.version },
    }));
    expect(updated).toMatchObject({ name: '上海测试科技有限公司', banks: [], rating: 40, version: 2 });
    expect(updated.updaterName).toBe('系统管理员');
    failure(await call(app, 'PUT', path, { token: admin, body: { ...outerParty, version: 1 } }), 409, 'conflict');
    failure(await call(app, 'PUT', `/api/v1/counterparties/${missing}`, { token: admin, body: outerParty }), 404, 'not_found');
    failure(await call(app, 'PUT', path, { token: admin, body: { ...outerParty, banks: [{ name: 'b', account: 'short', accountName: 'a' }] } }), 400, 'validation_failed');
    failure(await call(app, 'PUT', path, { body: outerParty }), 401, 'unauthorized');
    created = updated;
  });

  it('hides another organisation’s counterparty', async () => {
    await fixture.db.insert(organisations).values({ id: 'other-org', name: 'Other' });
    await fixture.db.insert(counterparties).values({ id: '01900000-0000-7000-8000-0000000000aa', organisationId: 'other-org', name: '上海测试别家', type: 2, subtype: 1 });
    failure(await call(app, 'GET', '/api/v1/counterparties/01900000-0000-7000-8000-0000000000aa', { token: admin }), 404, 'not_found');
    failure(await call(app, 'PUT', '/api/v1/counterparties/01900000-0000-7000-8000-0000000000aa', { token: admin, body: outerParty }), 404, 'not_found');
    const found = okData('counterpartSearch', await callEndpoint(app, 'counterpartSearch', { token: admin, query: { abbr: '上海测试', type: 2 } }));
    expect(found.list.map((p) => p.id)).not.toContain('01900000-0000-7000-8000-0000000000aa');
  });

  it('searches by prefix first, then contains and keyword; wildcards are literal', async () => {
    const found = okData('counterpartSearch', await callEndpoint(app, 'counterpartSearch', { token: alice, query: { abbr: '上海测试', type: 2 } }));
    expect(found.list[0]).toMatchObject({ id: created.id, name: '上海测试科技有限公司' });
    expect(found.list[0]!.fieldDetailMap).toMatchObject({ idNumber: outerParty.idNumber, rating: 40 });
    expect(found.list[0]!.contactItemList).toHaveLength(1);
    const byKeyword = okData('counterpartSearch', await callEndpoint(app, 'counterpartSearch', { token: alice, query: { abbr: '测试科技', type: 2 } }));
    expect(byKeyword.list.map((p) => p.id)).toContain(created.id);
    for (const abbr of ['%', '_', '\\', "'; drop table counterparties; --"]) {
      const none = okData('counterpartSearch', await callEndpoint(app, 'counterpartSearch', { token: alice, query: { abbr, type: 2 } }));
      expect(none.list.filter((p) => !p.name.includes(abbr))).toEqual([]);
    }
    const inner = okData('counterpartSearch', await callEndpoint(app, 'counterpartSearch', { token: alice, query: { abbr: '', type: 1 } }));
    expect(inner.list.length).toBeGreaterThan(0);
    failure(await callEndpoint(app, 'counterpartSearch', { token: alice, query: { abbr: 'a', type: 3 } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'counterpartSearch', { query: { abbr: 'a', type: 2 } }), 401, 'unauthorized');
  });

  it('lists outer parties with cooperation columns counted over the viewer’s contracts only', async () => {
    const [aliceRow] = await fixture.db.select().from(users).where(eq(users.username, 'alice'));
    const [bobRow] = await fixture.db.select().from(users).where(eq(users.username, 'bob'));
    await fixture.db.insert(contracts).values([
      { id: 'cp-alice-1', name: 'a1', counterpartyId: created.id, amount: 10000, amountUnit: 'CNY', responsibleUserId: aliceRow!.id, departmentId: aliceRow!.departmentId },
      { id: 'cp-alice-2', name: 'a2', counterpartyId: created.id, amount: 5050, amountUnit: 'USD', responsibleUserId: aliceRow!.id, departmentId: aliceRow!.departmentId },
      { id: 'cp-bob-1', name: 'b1', counterpartyId: created.id, amount: 99900, amountUnit: 'CNY', responsibleUserId: bobRow!.id, departmentId: bobRow!.departmentId },
    ]);
    await fixture.db.insert(counterpartyRisks).values([
      { id: 'risk-1', counterpartyId: created.id, dimensionName: '司法风险', description: 'lawsuit', occurredOn: '2026-01-01' },
      { id: 'risk-2', counterpartyId: created.id, dimensionName: '经营风险', description: 'abnormal', occurredOn: '2026-03-01' },
    ]);
    const page = okData('counterpartyList', await callEndpoint(app, 'counterpartyList', { token: alice, query: { type: 2, q: '上海测试科技' } }));
    expect(page.count).toBe(1);
    expect(page.list[0]).toMatchObject({ id: created.id, cooperationCount: 2, riskCount: 2, rating: 40, averageScore: null });
    expect(page.list[0]!.totalAmount).toEqual(expect.arrayContaining([{ amount: 10000, unit: 'CNY' }, { amount: 5050, unit: 'USD' }]));
    const asAdmin = okData('counterpartyList', await callEndpoint(app, 'counterpartyList', { token: admin, query: { type: 2, q: '上海测试科技' } }));
    expect(asAdmin.list[0]!.cooperationCount).toBe(3);
    const all = okData('counterpartyList', await callEndpoint(app, 'counterpartyList', { token: admin, query: { type: 2, pageSize: 5 } }));
    expect(all.list).toHaveLength(5);
    expect(all.count).toBeGreaterThan(100);
    const literal = okData('counterpartyList', await callEndpoint(app, 'counterpartyList', { token: admin, query: { type: 2, q: '%' } }));
    expect(literal.count).toBe(0);
    failure(await callEndpoint(app, 'counterpartyList', { token: admin, query: { type: 2, pageSize: 1000 } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'counterpartyList', { token: admin, query: { type: 2, sort: 'x' } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'counterpartyList', { query: { type: 2 } }), 401, 'unauthorized');
  });

  it('gives the external detail, refreshed on request, and the risk reminders of visible contracts', async () => {
    const path = `/api/v1/counterpart/${created.id}/external_detail`;
    const plain = okData('counterpartExternalDetail', await call(app, 'GET', path, { token: alice }));
    expect(plain).toMatchObject({ subType: 'organization', riskCount: 2, refreshTime: null });
    const refreshed = okData('counterpartExternalDetail', await call(app, 'GET', path, { token: alice, query: { refresh: 'true' } }));
    expect(refreshed.refreshTime).not.toBeNull();

    // The cooperation figures of the list, over the viewer's contracts, and those contracts with their scores.
    expect(plain).toMatchObject({ cooperationCount: 2, averageScore: null });
    expect(plain.totalAmount).toEqual(expect.arrayContaining([{ amount: 10000, unit: 'CNY' }, { amount: 5050, unit: 'USD' }]));
    await fixture.db.insert(scoreResults).values({ id: 'score-cp-alice-1', contractId: 'cp-alice-1', counterpartyId: created.id, totalScore: 37, maxTotalScore: 40 });
    const scored = okData('counterpartExternalDetail', await call(app, 'GET', path, { token: alice }));
    expect(scored.averageScore).toBe(92.5);
    expect(scored.cooperationContracts.map((c) => [c.id, c.score, c.amount])).toEqual(expect.arrayContaining([
      ['cp-alice-1', 92.5, { amount: 10000, unit: 'CNY' }],
      ['cp-alice-2', null, { amount: 5050, unit: 'USD' }],
    ]));
    expect(scored.cooperationContracts).toHaveLength(2);
    const asAdmin = okData('counterpartExternalDetail', await call(app, 'GET', path, { token: admin }));
    expect(asAdmin.cooperationCount).toBe(3);
    expect(asAdmin.cooperationContracts.map((c) => c.id)).toContain('cp-bob-1');
    const listed = okData('counterpartyList', await callEndpoint(app, 'counterpartyList', { token: alice, query: { type: 2, q: '上海测试科技' } }));
    expect(listed.list[0]).toMatchObject({ cooperationCount: 2, averageScore: 92.5 });
    failure(await call(app, 'GET', path, { token: alice, query: { refresh: 'maybe' } }), 400, 'validation_failed');
    failure(await call(app, 'GET', `/api/v1/counterpart/${missing}/external_detail`, { token: alice }), 404, 'not_found');
    failure(await call(app, 'GET', '/api/v1/counterpart/not-a-uuid/external_detail', { token: alice }), 400, 'validation_failed');
    failure(await call(app, 'GET', path), 401, 'unauthorized');

    const alerts = okData('counterpartRiskAlert', await callEndpoint(app, 'counterpartRiskAlert', { token: alice }));
    expect(alerts.list).toContainEqual({ counterpartyID: created.id, riskInfo: { companyName: '上海测试科技有限公司', riskCount: 2, dimensionName: '经营风险' } });
    const carol = (await signIn(app, 'carol', demo('carol').password)).token;
    const carolAlerts = okData('counterpartRiskAlert', await callEndpoint(app, 'counterpartRiskAlert', { token: carol }));
    expect(carolAlerts.list.map((a) => a.counterpartyID)).not.toContain(created.id);
    failure(await callEndpoint(app, 'counterpartRiskAlert'), 401, 'unauthorized');
  });

  it('lists monitoring results and gives the monitoring detail URL', async () => {
    const list = okData('counterpartMonitoring', await call(app, 'GET', `/api/v1/counterpart/${created.id}/monitoring`, { token: alice }));
    expect(Array.isArray(list.list)).toBe(true);
    const { url } = okData('counterpartMonitoringUrl', await call(app, 'GET', `/api/v1/counterpart/${created.id}/monitoring_url`, { token: alice }));
    expect(url).toBe(`/manage/oppositeParty/externalDetail?id=${created.id}&role=organization`);
    failure(await call(app, 'GET', `/api/v1/counterpart/${missing}/monitoring`, { token: alice }), 404, 'not_found');
    failure(await call(app, 'GET', `/api/v1/counterpart/${missing}/monitoring_url`, { token: alice }), 404, 'not_found');
    failure(await call(app, 'GET', `/api/v1/counterpart/${created.id}/monitoring`), 401, 'unauthorized');
  });
});
