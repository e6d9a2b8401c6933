import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { counterpartyRisks } from '../../src-server/counterparties/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, call, describeOnDatabases, failure, okData, queryRows, signIn } from './support';

// The counterparty credit platform configuration (spec 6): an organisation setting, on in the demo
// data, read by everyone, changed by administrators, and gating the credit-platform reads.

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;

describeOnDatabases('organisation settings', (fixture) => {
  let app: FastifyInstance;
  let admin: string;
  let alice: string;
  let partyId: string;
  let contractId: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 50, seed: 5 });
    app = fixture.server();
    admin = (await signIn(app, 'admin', demo('admin').password)).token;
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
    const parties = okData('counterpartyList', await callEndpoint(app, 'counterpartyList', { token: alice, query: { type: 2 } }));
    partyId = parties.list[0]!.id;
    const contracts = okData('contractList', await callEndpoint(app, 'contractList', { token: alice }));
    contractId = contracts.list[0]!.id;
  });

  const creditReads = () => [
    callEndpoint(app, 'counterpartRiskAlert', { token: alice }),
    call(app, 'GET', `/api/v1/counterpart/${partyId}/monitoring`, { token: alice }),
    call(app, 'GET', `/api/v1/counterpart/${partyId}/monitoring_url`, { token: alice }),
    call(app, 'GET', `/api/v1/contracts/${contractId}/credit_risk`, { token: alice }),
  ];

  it('is on in the demo data, and the credit-platform reads answer', async () => {
    expect(okData('organisationSettings', await callEndpoint(app, 'organisationSettings', { token: alice }))).toEqual({ creditPlatformEnabled: true, offlineLockDays: 30 });
    for (const result of await Promise.all(creditReads())) expect(result.status).toBe(200);
    failure(await callEndpoint(app, 'organisationSettings'), 401, 'unauthorized');
  });

  it('is changed by administrators only, with the body checked', async () => {
    const refused = failure(await callEndpoint(app, 'organisationSettingsUpdate', { token: alice, body: { creditPlatformEnabled: false } }), 403, 'forbidden');
    expect(refused.message).toContain('administrators');
    failure(await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { creditPlatformEnabled: 'no' } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { creditPlatformEnabled: false, extra: 1 } }), 400, 'validation_failed');
    expect(okData('organisationSettings', await callEndpoint(app, 'organisationSettings', { token: alice })).creditPlatformEnabled).toBe(true);
  });

  it('refuses a malformed If-Match as every write does, changing nothing; a well-formed one is read and the write goes through', async () => {
    for (const ifMatch of ['latest', 'W/3x', '3, 4']) {
      const refused = failure(await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { creditPlatformEnabled: false }, headers: { 'if-match': ifMatch } }), 400, 'bad_request');
      expect(refused.issues).toEqual([expect.objectContaining({ path: 'If-Match' })]);
    }
    expect(okData('organisationSettings', await callEndpoint(app, 'organisationSettings', { token: alice })).creditPlatformEnabled).toBe(true);
    const kept = okData('organisationSettingsUpdate', await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { creditPlatformEnabled: true }, headers: { 'if-match': '"1"' } }));
    expect(kept).toEqual({ creditPlatformEnabled: true, offlineLockDays: 30 });
  });

  it('off: every user reads it off and the credit-platform reads are refused; on again: they answer', async () => {
    expect(okData('organisationSettingsUpdate', await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { creditPlatformEnabled: false } })))
      .toEqual({ creditPlatformEnabled: false, offlineLockDays: 30 });
    expect(okData('organisationSettings', await callEndpoint(app, 'organisationSettings', { token: alice })).creditPlatformEnabled).toBe(false);
    for (const result of await Promise.all(creditReads())) {
      expect(failure(result, 403, 'forbidden').message).toBe('the counterparty credit platform is not configured');
    }
    okData('organisationSettingsUpdate', await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { creditPlatformEnabled: true } }));
    for (const result of await Promise.all(creditReads())) expect(result.status).toBe(200);
  });
});

describeOnDatabases('contract credit risk and the monitoring URL', (fixture) => {
  let app: FastifyInstance;
  let alice: string;
  let carol: string;
  let contractId: string;
  let partyId: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 60, seed: 6 });
    app = fixture.server();
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
    carol = (await signIn(app, 'carol', demo('carol').password)).token;
    const [row] = await queryRows<{ contract: string; party: string }>(
      fixture.db,
      sql`select c.id as contract, c.counterparty_id as party from contracts c join users u on u.id = c.responsible_user_id
          join counterparties p on p.id = c.counterparty_id
          where u.username = 'alice' and p.type = 2 order by c.id limit 1`,
    );
    contractId = row!.contract;
    partyId = row!.party;
    await fixture.db.insert(counterpartyRisks).values([
      { id: 'credit-risk-1', counterpartyId: partyId, dimensionName: '司法风险', description: 'lawsuit filed', occurredOn: '2026-01-05' },
      { id: 'credit-risk-2', counterpartyId: partyId, dimensionName: '经营风险', description: 'abnormal operation', occurredOn: '2026-04-02' },
    ]);
  });

  it("previews the contract's outer party with its rating and risks, newest first", async () => {
    const preview = okData('contractCreditRisk', await call(app, 'GET', `/api/v1/contracts/${contractId}/credit_risk`, { token: alice }));
    expect(preview.contractId).toBe(contractId);
    const [party] = preview.list;
    expect(party).toMatchObject({ counterpartyID: partyId });
    expect(party!.riskCount).toBe(party!.risks.length);
    const ours = party!.risks.filter((r) => r.id.startsWith('credit-risk-'));
    expect(ours.map((r) => r.id)).toEqual(['credit-risk-2', 'credit-risk-1']);
    expect(party!.risks.map((r) => r.occurredOn)).toEqual([...party!.risks.map((r) => r.occurredOn)].sort().reverse());
  });

  it('answers 404 for a contract the viewer may not see, and 401 without a token', async () => {
    const [hidden] = await queryRows<{ id: string }>(
      fixture.db,
      sql`select c.id from contracts c join users u on u.id = c.responsible_user_id join departments d on d.id = c.department_id
          where u.username <> 'carol' and d.name <> '法务部' order by c.id limit 1`,
    );
    failure(await call(app, 'GET', `/api/v1/contracts/${hidden!.id}/credit_risk`, { token: carol }), 404, 'not_found');
    failure(await call(app, 'GET', `/api/v1/contracts/${contractId}/credit_risk`), 401, 'unauthorized');
  });

  it('gives the credit platform page when one is configured, with the party filled in', async () => {
    const configured = fixture.server(undefined, { creditMonitoringUrl: 'https://credit.example.com/monitor?company={name}&code={idNumber}&ref={id}' });
    const token = (await signIn(configured, 'alice', demo('alice').password)).token;
    const party = okData('counterpartyGet', await call(configured, 'GET', `/api/v1/counterparties/${partyId}`, { token }));
    const { url } = okData('counterpartMonitoringUrl', await call(configured, 'GET', `/api/v1/counterpart/${partyId}/monitoring_url`, { token }));
    const parsed = new URL(url);
    expect(parsed.origin).toBe('https://credit.example.com');
    expect(parsed.searchParams.get('company')).toBe(party.name);
    expect(parsed.searchParams.get('code')).toBe(party.idNumber ?? '');
    expect(parsed.searchParams.get('ref')).toBe(partyId);
    expect(() => fixture.server(undefined, { creditMonitoringUrl: 'javascript:alert(1)' })).toThrow(/http\(s\)/);
  });
});
