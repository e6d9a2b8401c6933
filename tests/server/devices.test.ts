import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, expect, it } from 'vitest';
import { syncFeedStreamPath, syncProtocolVersion, syncSchemaVersion } from '../../src-shared/api/sync';
import { contracts } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { call, callEndpoint, describeOnDatabases, failure, okData, TestClock } from './support';

// Devices (issue 32): each signed-in installation is known; users sign their own out, administrators
// revoke any of the organisation's, and a revoked device is refused on every call and at sign-in.

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;

const laptop = (name: string) => ({ id: uuidv7(), name, platform: 'win32', appVersion: '1.4.0' });

describeOnDatabases('devices', (fixture) => {
  let app: FastifyInstance;
  const clock = new TestClock();
  let admin: string;

  const signInFrom = async (username: string, device?: ReturnType<typeof laptop>) =>
    okData('login', await callEndpoint(app, 'login', { body: { username, password: demo(username).password, ...(device && { device }) } }));

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 40, seed: 7 });
    app = fixture.server(clock);
    admin = (await signInFrom('admin', laptop('admin desk'))).token;
  });

  it('knows each signed-in device with its first and last contact, one row per user and installation', async () => {
    const office = laptop('office laptop');
    const first = await signInFrom('alice', office);
    const firstSeen = clock.now().toISOString();
    clock.advance(5 * 60_000);
    okData('contractList', await callEndpoint(app, 'contractList', { token: first.token }));
    const second = await signInFrom('alice', { ...office, appVersion: '1.5.0' });
    const mine = okData('myDevices', await callEndpoint(app, 'myDevices', { token: second.token }));
    const row = mine.find((device) => device.deviceId === office.id)!;
    expect(row).toMatchObject({ current: true, name: 'office laptop', platform: 'win32', appVersion: '1.5.0', firstSeenAt: firstSeen, openSessions: 2, revokedAt: null, username: 'alice' });
    expect(row.lastSeenAt).toBe(clock.now().toISOString());
    expect(mine.filter((device) => device.deviceId === office.id)).toHaveLength(1);
    // Another user on the same installation is another device; alice does not see it.
    await signInFrom('bob', office);
    expect(okData('myDevices', await callEndpoint(app, 'myDevices', { token: second.token })).every((device) => device.username === 'alice')).toBe(true);
  });

  it('lets a user sign one of their devices out: its sessions end, it may sign in again', async () => {
    const home = laptop('home laptop');
    const there = await signInFrom('alice', home);
    const here = await signInFrom('alice', laptop('desk'));
    const id = okData('myDevices', await callEndpoint(app, 'myDevices', { token: here.token })).find((device) => device.deviceId === home.id)!.id;
    const bob = await signInFrom('bob');
    failure(await call(app, 'POST', `/api/v1/devices/${id}/sign-out`, { token: bob.token }), 403, 'forbidden');
    okData('contractList', await callEndpoint(app, 'contractList', { token: there.token }));
    const signedOut = okData('deviceSignOut', await call(app, 'POST', `/api/v1/devices/${id}/sign-out`, { token: here.token }));
    expect(signedOut).toMatchObject({ id, current: false, openSessions: 0, revokedAt: null });
    failure(await callEndpoint(app, 'contractList', { token: there.token }), 401, 'unauthorized');
    failure(await callEndpoint(app, 'refresh', { body: { refreshToken: there.refreshToken } }), 401, 'unauthorized');
    okData('contractList', await callEndpoint(app, 'contractList', { token: here.token }));
    const again = await signInFrom('alice', home);
    okData('contractList', await callEndpoint(app, 'contractList', { token: again.token }));
    failure(await call(app, 'POST', `/api/v1/devices/${uuidv7()}/sign-out`, { token: here.token }), 404, 'not_found');
    failure(await call(app, 'POST', '/api/v1/devices/not-an-id/sign-out', { token: here.token }), 400, 'validation_failed');
  });

  it('lists every device of the organisation to administrators only, filtered by user', async () => {
    const alice = await signInFrom('alice', laptop('listed'));
    failure(await callEndpoint(app, 'adminDevices', { token: alice.token }), 403, 'forbidden');
    const all = okData('adminDevices', await callEndpoint(app, 'adminDevices', { token: admin }));
    expect(new Set(all.map((device) => device.username))).toEqual(new Set(['admin', 'alice', 'bob']));
    const alices = okData('adminDevices', await callEndpoint(app, 'adminDevices', { token: admin, query: { userId: alice.user.id } }));
    expect(alices.length).toBeGreaterThan(1);
    expect(alices.every((device) => device.userId === alice.user.id)).toBe(true);
    failure(await callEndpoint(app, 'adminDevices', { token: admin, query: { owner: 'x' } }), 400, 'validation_failed');
  });

  it('refuses a revoked device on every call, its refresh and its next sign-in, with the reason; its other sessions and other devices go on', async () => {
    const stolen = laptop('stolen laptop');
    const session = await signInFrom('alice', stolen);
    const other = await signInFrom('alice', laptop('kept laptop'));
    const id = okData('myDevices', await callEndpoint(app, 'myDevices', { token: session.token })).find((device) => device.deviceId === stolen.id)!.id;
    failure(await call(app, 'POST', `/api/v1/admin/devices/${id}/revoke`, { token: other.token, body: { reason: 'x' } }), 403, 'forbidden');
    failure(await call(app, 'POST', `/api/v1/admin/devices/${id}/revoke`, { token: admin, body: { reason: '  ' } }), 400, 'validation_failed');
    okData('contractList', await callEndpoint(app, 'contractList', { token: session.token }));

    const revoked = okData('deviceRevoke', await call(app, 'POST', `/api/v1/admin/devices/${id}/revoke`, { token: admin, body: { reason: 'reported stolen' } }));
    expect(revoked).toMatchObject({ id, revokedAt: clock.now().toISOString(), revokedReason: 'reported stolen', openSessions: 0 });

    const [target] = await fixture.db.select().from(contracts).limit(1);
    const refusals = [
      await callEndpoint(app, 'contractList', { token: session.token }),
      await callEndpoint(app, 'syncPull', { token: session.token, query: { cursor: '0', protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion } }),
      await call(app, 'GET', syncFeedStreamPath, { token: session.token, query: { cursor: '0', protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion } }),
      await callEndpoint(app, 'syncPush', {
        token: session.token,
        body: {
          protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId: uuidv7(),
          mutations: [{ id: uuidv7(), seq: 1, name: 'contract.update', args: { id: target!.id, patch: { name: 'written by a thief' } }, baseVersions: { [`contract:${target!.id}`]: target!.version } }],
        },
      }),
      await callEndpoint(app, 'refresh', { body: { refreshToken: session.refreshToken } }),
      await callEndpoint(app, 'login', { body: { username: 'alice', password: demo('alice').password, device: stolen } }),
    ];
    for (const refusal of refusals) expect(failure(refusal, 403, 'device_revoked').reason).toEqual({ key: 'deviceRevoked', params: { reason: 'reported stolen' } });
    const [after] = await fixture.db.select().from(contracts).where(eq(contracts.id, target!.id));
    expect(after!.name).not.toBe('written by a thief');
    // A wrong password learns nothing of the device.
    failure(await callEndpoint(app, 'login', { body: { username: 'alice', password: 'wrong password', device: stolen } }), 401, 'invalid_credentials');

    okData('contractList', await callEndpoint(app, 'contractList', { token: other.token }));
    // Revoked for alice only: bob may still sign in from that installation.
    await signInFrom('bob', stolen);
    // A second revocation keeps the first's time and reason.
    clock.advance(60_000);
    const twice = okData('deviceRevoke', await call(app, 'POST', `/api/v1/admin/devices/${id}/revoke`, { token: admin, body: { reason: 'again' } }));
    expect(twice).toMatchObject({ revokedAt: revoked.revokedAt, revokedReason: 'reported stolen' });
  });
});
