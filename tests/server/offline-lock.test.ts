import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, expect, it } from 'vitest';
import { migrationsFolder } from '../../src-server/db/database';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { call, callEndpoint, describeOnDatabases, failure, okData, queryRows } from './support';

// The offline lock's server side (issue 32): the organisation's days (default 30, 1..365, set by
// administrators), a device's own days that may only shorten them, and the days that apply to a
// device, answered at sign-in and at each refresh. Each change leaves an audit event.

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;
const lockUrl = (id: string) => `/api/v1/admin/devices/${id}/offline-lock`;
const laptop = () => ({ id: uuidv7(), name: 'field laptop', platform: 'linux', appVersion: '1.6.0' });

describeOnDatabases('offline lock settings', (fixture) => {
  let app: FastifyInstance;
  let admin: string;

  const signInFrom = async (username: string, device?: ReturnType<typeof laptop>) =>
    okData('login', await callEndpoint(app, 'login', { body: { username, password: demo(username).password, ...(device && { device }) } }));
  const setOrganisationDays = async (days: number) =>
    okData('organisationSettingsUpdate', await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { offlineLockDays: days } }));
  const deviceRow = async (deviceId: string) =>
    okData('adminDevices', await callEndpoint(app, 'adminDevices', { token: admin })).find((device) => device.deviceId === deviceId)!;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 5, seed: 44 });
    app = fixture.server();
    admin = (await signInFrom('admin')).token;
  });

  it('is 30 days by default, answered at sign-in with or without a device', async () => {
    const alice = await signInFrom('alice', laptop());
    expect(alice.offlineLockDays).toBe(30);
    expect((await signInFrom('bob')).offlineLockDays).toBe(30);
    expect(okData('organisationSettings', await callEndpoint(app, 'organisationSettings', { token: alice.token }))).toEqual({ creditPlatformEnabled: true, offlineLockDays: 30 });
  });

  it('is changed by administrators only, from 1 to 365 days, the other setting kept', async () => {
    const alice = (await signInFrom('alice')).token;
    failure(await callEndpoint(app, 'organisationSettingsUpdate', { token: alice, body: { offlineLockDays: 10 } }), 403, 'forbidden');
    for (const days of [0, 366, 7.5, '7']) {
      failure(await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { offlineLockDays: days } }), 400, 'validation_failed');
    }
    failure(await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: {} }), 400, 'validation_failed');
    expect(await setOrganisationDays(365)).toEqual({ creditPlatformEnabled: true, offlineLockDays: 365 });
    expect(await setOrganisationDays(14)).toEqual({ creditPlatformEnabled: true, offlineLockDays: 14 });
    expect((await signInFrom('alice')).offlineLockDays).toBe(14);
  });

  it("lets an administrator shorten a device's days, never lengthen them, and reaches the device at its next refresh", async () => {
    await setOrganisationDays(14);
    const device = laptop();
    const session = await signInFrom('alice', device);
    const row = await deviceRow(device.id);
    expect(row.offlineLockDays).toBeNull();

    const alice = session.token;
    failure(await call(app, 'PUT', lockUrl(row.id), { token: alice, body: { offlineLockDays: 3 } }), 403, 'forbidden');
    const longer = failure(await call(app, 'PUT', lockUrl(row.id), { token: admin, body: { offlineLockDays: 15 } }), 400, 'validation_failed');
    expect(longer.reason).toEqual({ key: 'offlineLockLonger', params: { days: 14 } });
    expect(longer.issues?.[0]?.path).toBe('offlineLockDays');
    failure(await call(app, 'PUT', lockUrl(row.id), { token: admin, body: { offlineLockDays: 0 } }), 400, 'validation_failed');
    failure(await call(app, 'PUT', lockUrl(uuidv7()), { token: admin, body: { offlineLockDays: 3 } }), 404, 'not_found');

    // The same days as the organisation's are allowed (not longer); shorter ones apply.
    expect(okData('deviceOfflineLock', await call(app, 'PUT', lockUrl(row.id), { token: admin, body: { offlineLockDays: 14 } })).offlineLockDays).toBe(14);
    expect(okData('deviceOfflineLock', await call(app, 'PUT', lockUrl(row.id), { token: admin, body: { offlineLockDays: 3 } })).offlineLockDays).toBe(3);
    const refreshed = okData('refresh', await callEndpoint(app, 'refresh', { body: { refreshToken: session.refreshToken } }));
    expect(refreshed.offlineLockDays).toBe(3);
    expect((await signInFrom('alice', device)).offlineLockDays).toBe(3);
    // Another device of the same user keeps the organisation's.
    expect((await signInFrom('alice', laptop())).offlineLockDays).toBe(14);

    // The organisation's lowered below the device's applies to it too; null follows the organisation's again.
    await setOrganisationDays(2);
    expect((await signInFrom('alice', device)).offlineLockDays).toBe(2);
    await setOrganisationDays(14);
    expect(okData('deviceOfflineLock', await call(app, 'PUT', lockUrl(row.id), { token: admin, body: { offlineLockDays: null } })).offlineLockDays).toBeNull();
    expect((await signInFrom('alice', device)).offlineLockDays).toBe(14);
  });

  it('records each change in the audit trail with its days before and after', async () => {
    const device = laptop();
    await signInFrom('alice', device);
    const row = await deviceRow(device.id);
    const requestId = uuidv7();
    okData('deviceOfflineLock', await call(app, 'PUT', lockUrl(row.id), { token: admin, body: { offlineLockDays: 5 }, headers: { 'x-request-id': requestId } }));
    const [event] = await queryRows<{ entity: string; entity_id: string; changes: unknown }>(fixture.db, sql`select entity, entity_id, changes from audit_events where request_id = ${requestId}`);
    expect(event).toMatchObject({ entity: 'device', entity_id: row.id, changes: { offlineLockDays: { before: null, after: 5 } } });

    await setOrganisationDays(20);
    const organisationRequest = uuidv7();
    okData('organisationSettingsUpdate', await callEndpoint(app, 'organisationSettingsUpdate', { token: admin, body: { offlineLockDays: 21 }, headers: { 'x-request-id': organisationRequest } }));
    const [changed] = await queryRows<{ entity: string; changes: unknown }>(fixture.db, sql`select entity, changes from audit_events where request_id = ${organisationRequest}`);
    expect(changed).toMatchObject({ entity: 'organisation', changes: { offlineLockDays: { before: 20, after: 21 } } });
  });
});

const statementsOf = (file: string) =>
  readFileSync(path.join(migrationsFolder, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.replace(/^--.*$/gm, '').trim())
    .filter(Boolean);

describeOnDatabases('migration 0044: the offline lock', (fixture) => {
  it('gives existing organisations 30 days and existing devices none of their own', async () => {
    await seedDatabase(fixture.db, { contracts: 2, seed: 45 });
    const app = fixture.server();
    await callEndpoint(app, 'login', { body: { username: 'alice', password: demo('alice').password, device: laptop() } });
    // The database before 0044.
    await fixture.db.execute(sql`alter table organisations drop column offline_lock_days`);
    await fixture.db.execute(sql`alter table devices drop column offline_lock_days`);

    for (const statement of statementsOf('0044_offline_lock.sql')) await fixture.db.execute(sql.raw(statement));

    const organisations = await queryRows<{ offline_lock_days: number }>(fixture.db, sql`select offline_lock_days from organisations`);
    expect(organisations.length).toBeGreaterThan(0);
    expect(organisations.every((row) => row.offline_lock_days === 30)).toBe(true);
    const devices = await queryRows<{ offline_lock_days: number | null }>(fixture.db, sql`select offline_lock_days from devices`);
    expect(devices.length).toBeGreaterThan(0);
    expect(devices.every((row) => row.offline_lock_days === null)).toBe(true);
  });
});
