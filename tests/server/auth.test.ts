import { eq } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { authSessions } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, failure, okData, signIn, TestClock } from './support';

const minute = 60 * 1000;
const day = 24 * 60 * minute;
const [admin, alice, bob, carol] = demoUsers;

describeOnDatabases('auth', (fixture) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 10, seed: 3 });
    app = fixture.server();
  });

  it('signs a demo user in: tokens, an expiry one hour ahead, and the user with their department', async () => {
    const clock = new TestClock();
    const server = fixture.server(clock);
    const session = await signIn(server, alice!.username, alice!.password);
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.refreshToken).not.toBe(session.token);
    expect(Date.parse(session.expiresAt) - clock.now().getTime()).toBe(60 * minute);
    expect(session.user).toMatchObject({ username: 'alice', role: 'staff', departmentName: alice!.department });
    const me = okData('me', await callEndpoint(server, 'me', { token: session.token }));
    expect(me).toEqual(session.user);
  });

  it('treats the user name case-insensitively and ignores surrounding blanks', async () => {
    const session = await signIn(app, `  ${admin!.username.toUpperCase()} `, admin!.password);
    expect(session.user.role).toBe('admin');
  });

  it('refuses a wrong password and an unknown user alike: 401 invalid_credentials', async () => {
    const wrong = failure(await callEndpoint(app, 'login', { body: { username: 'alice', password: 'nope' } }), 401, 'invalid_credentials');
    const unknown = failure(await callEndpoint(app, 'login', { body: { username: 'mallory', password: 'x' } }), 401, 'invalid_credentials');
    expect(unknown.message).toBe(wrong.message);
  });

  it('stores only sha256 hashes of the tokens', async () => {
    const session = await signIn(app, bob!.username, bob!.password);
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(await fixture.db.select().from(authSessions).where(eq(authSessions.accessTokenHash, session.token))).toHaveLength(0);
    const [stored] = await fixture.db.select().from(authSessions).where(eq(authSessions.accessTokenHash, sha256(session.token)));
    expect(stored?.refreshTokenHash).toBe(sha256(session.refreshToken));
  });

  it('answers 401 unauthorized without a token, with a malformed header, or with an unknown token', async () => {
    failure(await callEndpoint(app, 'contractList'), 401, 'unauthorized');
    failure(await callEndpoint(app, 'contractStatistics', { headers: { authorization: 'Basic YWxpY2U6YWxpY2UxMjM=' } }), 401, 'unauthorized');
    failure(await callEndpoint(app, 'me', { token: 'not-a-token-this-server-issued' }), 401, 'unauthorized');
  });

  it('refuses an access token after its hour, and the refresh token then gives a working one', async () => {
    const clock = new TestClock();
    const server = fixture.server(clock);
    const session = await signIn(server, carol!.username, carol!.password);
    clock.advance(60 * minute + 1);
    failure(await callEndpoint(server, 'me', { token: session.token }), 401, 'unauthorized');
    const renewed = okData('refresh', await callEndpoint(server, 'refresh', { body: { refreshToken: session.refreshToken } }));
    expect(okData('me', await callEndpoint(server, 'me', { token: renewed.token })).username).toBe('carol');
  });

  it('rotates both tokens on refresh: the old pair stops working, the new pair works', async () => {
    const session = await signIn(app, alice!.username, alice!.password);
    const renewed = okData('refresh', await callEndpoint(app, 'refresh', { body: { refreshToken: session.refreshToken } }));
    expect(renewed.token).not.toBe(session.token);
    expect(renewed.refreshToken).not.toBe(session.refreshToken);
    failure(await callEndpoint(app, 'me', { token: session.token }), 401, 'unauthorized');
    failure(await callEndpoint(app, 'refresh', { body: { refreshToken: session.refreshToken } }), 401, 'unauthorized');
    okData('me', await callEndpoint(app, 'me', { token: renewed.token }));
    okData('refresh', await callEndpoint(app, 'refresh', { body: { refreshToken: renewed.refreshToken } }));
  });

  it('refuses a refresh token older than 30 days', async () => {
    const clock = new TestClock();
    const server = fixture.server(clock);
    const session = await signIn(server, alice!.username, alice!.password);
    clock.advance(30 * day + 1);
    failure(await callEndpoint(server, 'refresh', { body: { refreshToken: session.refreshToken } }), 401, 'unauthorized');
  });

  it('signs out: both tokens of the session are refused afterwards, other sessions keep working', async () => {
    const session = await signIn(app, bob!.username, bob!.password);
    const otherDevice = await signIn(app, bob!.username, bob!.password);
    expect(okData('logout', await callEndpoint(app, 'logout', { token: session.token }))).toEqual({ signedOut: true });
    failure(await callEndpoint(app, 'me', { token: session.token }), 401, 'unauthorized');
    failure(await callEndpoint(app, 'refresh', { body: { refreshToken: session.refreshToken } }), 401, 'unauthorized');
    failure(await callEndpoint(app, 'logout', { token: session.token }), 401, 'unauthorized');
    okData('me', await callEndpoint(app, 'me', { token: otherDevice.token }));
  });

  it('answers 429 rate_limited after 10 failures in 15 minutes, on every server process, even for the right password', async () => {
    const clock = new TestClock();
    const server = fixture.server(clock);
    const otherProcess = fixture.server(clock);
    const wrong = { username: 'carol', password: 'wrong' };
    for (let attempt = 1; attempt <= 10; attempt++) {
      failure(await callEndpoint(attempt % 2 ? server : otherProcess, 'login', { body: wrong }), 401, 'invalid_credentials');
      clock.advance(10 * 1000);
    }
    const limited = await callEndpoint(server, 'login', { body: { username: 'carol', password: carol!.password } });
    failure(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    failure(await callEndpoint(otherProcess, 'login', { body: wrong }), 429, 'rate_limited');

    // Once the oldest failures leave the window, the right password works again.
    clock.advance(15 * minute);
    expect((await signIn(server, carol!.username, carol!.password)).user.username).toBe('carol');
  });

  it('counts unknown user names too, and a successful sign-in clears the failures', async () => {
    const server = fixture.server();
    for (let attempt = 1; attempt <= 10; attempt++) {
      failure(await callEndpoint(server, 'login', { body: { username: 'nobody', password: 'x' } }), 401, 'invalid_credentials');
    }
    failure(await callEndpoint(server, 'login', { body: { username: 'nobody', password: 'x' } }), 429, 'rate_limited');

    for (let attempt = 1; attempt <= 9; attempt++) {
      failure(await callEndpoint(server, 'login', { body: { username: 'bob', password: 'x' } }), 401, 'invalid_credentials');
    }
    await signIn(server, bob!.username, bob!.password);
    failure(await callEndpoint(server, 'login', { body: { username: 'bob', password: 'x' } }), 401, 'invalid_credentials');
    await signIn(server, bob!.username, bob!.password);
  });
});
