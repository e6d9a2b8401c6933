import { eq } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitLoginAttempt, loginThrottle } from '../../src-server/auth/throttle';
import { RateLimited } from '../../src-server/http/errors';
import { authSessions } from '../../src-server/db/schema';
import { buildContractServer, demoUsers, openDatabase, seedDatabase, type DatabaseHandle } from '../../src-server/index';
import {
  backends, callEndpoint, describeOnDatabases, failure, okData, postgresSkipMessage, signIn, TestClock, type CallResult, type Scratch,
} from './support';

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

  describe('sign-in throttle, per user name and client address', () => {
    const attacker = '203.0.113.7';
    const user = '198.51.100.20';
    const attempt = (server: FastifyInstance, username: string, password: string, remoteAddress: string) =>
      callEndpoint(server, 'login', { body: { username, password }, remoteAddress });
    const retryAfter = (result: CallResult) => {
      failure(result, 429, 'rate_limited');
      return Number(result.headers['retry-after']);
    };

    it('lets the real user sign in from their address while an attacker elsewhere fails, with a wait that doubles up to 15 minutes', async () => {
      const clock = new TestClock();
      const server = fixture.server(clock);
      for (let i = 1; i <= loginThrottle.freeAttempts; i++) failure(await attempt(server, 'carol', 'wrong', attacker), 401, 'invalid_credentials');
      // The attacker's next try waits, even with the right password; carol at her own address does not.
      const refused = await attempt(server, 'carol', carol!.password, attacker);
      expect(retryAfter(refused)).toBe(1);
      expect((refused.json as { message: string }).message).toMatch(/from this address: try again in 1 s/);
      okData('login', await attempt(server, 'carol', carol!.password, user));

      const waits: number[] = [];
      for (let i = 0; i < 12; i++) {
        const wait = retryAfter(await attempt(server, 'carol', 'wrong', attacker));
        waits.push(wait);
        clock.advance(wait * 1000);
        failure(await attempt(server, 'carol', 'wrong', attacker), 401, 'invalid_credentials');
        okData('login', await attempt(server, 'carol', carol!.password, user));
      }
      expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);

      // Once the wait is over, the right password from the attacker's address clears that pair too.
      clock.advance(900 * 1000);
      okData('login', await attempt(server, 'carol', carol!.password, attacker));
      for (let i = 1; i <= loginThrottle.freeAttempts; i++) failure(await attempt(server, 'carol', 'wrong', attacker), 401, 'invalid_credentials');
      failure(await attempt(server, 'carol', 'wrong', attacker), 429, 'rate_limited');
    });

    it('throttles unknown user names alike, and forgets a pair after a day without attempts', async () => {
      const clock = new TestClock();
      const server = fixture.server(clock);
      for (let i = 1; i <= loginThrottle.freeAttempts; i++) failure(await attempt(server, 'nobody', 'x', attacker), 401, 'invalid_credentials');
      failure(await attempt(server, 'nobody', 'x', attacker), 429, 'rate_limited');
      failure(await attempt(server, 'nobody', 'x', user), 401, 'invalid_credentials');
      clock.advance(loginThrottle.forgetAfterMs);
      for (let i = 1; i <= loginThrottle.freeAttempts; i++) failure(await attempt(server, 'nobody', 'x', attacker), 401, 'invalid_credentials');
      failure(await attempt(server, 'nobody', 'x', attacker), 429, 'rate_limited');
    });

    it('admits the allowance even when attempts reach the row out of the order of their clocks', async () => {
      // Concurrent requests, or two server processes with skewed clocks: a later `now` may be counted first.
      const pair = { username: 'skewed', address: '198.51.100.7' };
      const start = Date.parse('2026-03-01T09:00:00Z');
      const order = [40, 10, 30, 0, 20];
      for (const offset of order) await admitLoginAttempt(fixture.db, pair, new Date(start + offset));
      await expect(admitLoginAttempt(fixture.db, pair, new Date(start + 50))).rejects.toBeInstanceOf(RateLimited);
    });

    it('checks no more passwords than the allowance in a burst of 30 simultaneous wrong ones', async () => {
      const server = fixture.server();
      const results = await Promise.all(Array.from({ length: 30 }, () => attempt(server, 'bob', 'wrong', attacker)));
      expect(results.filter((r) => r.status !== 429).every((r) => r.status === 401)).toBe(true);
      expect(results.filter((r) => r.status !== 429)).toHaveLength(loginThrottle.freeAttempts);
      okData('login', await attempt(server, 'bob', bob!.password, user));
    });
  });
});

const postgres = backends.find((backend) => backend.kind === 'PostgreSQL');

describe('sign-in throttle across two server processes on one PostgreSQL', () => {
  if (!postgres?.available) {
    it.skip(postgres ? postgresSkipMessage : 'skipped: TEST_BACKENDS leaves PostgreSQL out, and this needs two connection pools on one database');
    return;
  }
  let scratch: Scratch;
  const handles: DatabaseHandle[] = [];
  const servers: FastifyInstance[] = [];
  beforeAll(async () => {
    scratch = await postgres.create();
    // Each server on its own handle (its own connection pool), as two processes would be.
    for (let i = 0; i < 2; i++) {
      const handle = await openDatabase(scratch.options);
      if (i === 0) await seedDatabase(handle.db, { contracts: 5, seed: 3 });
      handles.push(handle);
      servers.push(buildContractServer(handle.db));
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(handles.map((handle) => handle.close()));
    await scratch?.remove();
  });

  it('checks no more passwords than the allowance when 30 wrong ones arrive at once, spread over both', async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => callEndpoint(servers[i % 2]!, 'login', { body: { username: 'carol', password: 'wrong' }, remoteAddress: '203.0.113.9' })),
    );
    const checked = results.filter((r) => r.status !== 429);
    expect(checked.map((r) => r.status)).toEqual(Array.from({ length: loginThrottle.freeAttempts }, () => 401));
    okData('login', await callEndpoint(servers[1]!, 'login', { body: { username: 'carol', password: carol!.password } }));
  });
});
