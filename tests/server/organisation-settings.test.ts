import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, call, describeOnDatabases, failure, okData, signIn } from './support';

// The counterparty credit platform configuration (spec 6): an organisation setting, on in the demo
// data, read by everyone, changed by administrators, and gating the credit-platform reads.

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;

describeOnDatabases('organisation settings', (fixture) => {
  let app: FastifyInstance;
  let admin: string;
  let alice: string;
  let partyId: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 50, seed: 5 });
    app = fixture.server();
    admin = (await signIn(app, 'admin', demo('admin').password)).token;
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
    const parties = okData('counterpartyList', await callEndpoint(app, 'counterpartyList', { token: alice, query: { type: 2 } }));
    partyId = parties.list[0]!.id;
  });

  const creditReads = () => [
    callEndpoint(app, 'counterpartRiskAlert', { token: alice }),
    call(app, 'GET', `/api/v1/counterpart/${partyId}/monitoring`, { token: alice }),
    call(app, 'GET', `/api/v1/counterpart/${partyId}/monitoring_url`, { token: alice }),
  ];

  it('is on in the demo data, and the credit-platform reads answer', async () => {
    expect(okData('organisationSettings', await callEndpoint(app, 'organisationSettings', { token: alice }))).toEqual({ creditPlatformEnabled: true });
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

  it('off: every user reads it off and the credit-platform reads are refused; on again: they answer', async () => {
    expect(okData('organisationSettingsUpdate', await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { creditPlatformEnabled: false } })))
      .toEqual({ creditPlatformEnabled: false });
    expect(okData('organisationSettings', await callEndpoint(app, 'organisationSettings', { token: alice })).creditPlatformEnabled).toBe(false);
    for (const result of await Promise.all(creditReads())) {
      expect(failure(result, 403, 'forbidden').message).toBe('the counterparty credit platform is not configured');
    }
    okData('organisationSettingsUpdate', await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { creditPlatformEnabled: true } }));
    for (const result of await Promise.all(creditReads())) expect(result.status).toBe(200);
  });
});
