import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '../../src-shared/api/endpoints';
import { maxJsonDepth } from '../../src-shared/api/endpoint';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { nestsDeeperThan, tooDeepMessage } from '../../src-server/http/json-body';
import { apiResponseHeaders } from '../../src-server/http/response-headers';
import { call, callEndpoint, describeOnDatabases, failure, okData, signIn } from './support';

// Hostile input against every operation of the map (issue 11, "Server hardening"): whatever is
// sent, the answer is a 4xx error envelope or a success, never a 500.

const admin = demoUsers.find((u) => u.role === 'admin')!;
const missing = '01900000-0000-7000-8000-000000000000';
const names = Object.keys(endpoints) as EndpointName[];
const jsonWrites = names.filter((name) => endpoints[name].method !== 'GET');

/** `{"a":{"a":…}}` nested `depth` levels deep around `inner`. */
const nested = (depth: number, inner = '1') => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
const url = (name: EndpointName) => endpoints[name].path.replace(/:(\w+)/g, missing);

describe('the depth scan of a JSON text', () => {
  it('counts arrays and objects, not brackets inside strings or after escaped quotes', () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan('[[[[1]]]]', 3)).toBe(true);
    expect(nestsDeeperThan(`{"a":"${'['.repeat(50)}"}`, 3)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\"${'{'.repeat(50)}"}`, 3)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\",${'"b":{'.repeat(4)}1${'}'.repeat(4)}}`, 3)).toBe(true);
  });
});

describeOnDatabases('hostile input', (fixture) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 5, seed: 4 });
    app = fixture.server();
    token = (await signIn(app, admin.username, admin.password)).token;
  });

  it(`refuses a body nested deeper than ${maxJsonDepth} with 400 on every JSON write, sign-in included`, async () => {
    const deep = nested(5000);
    for (const name of jsonWrites) {
      const error = failure(await call(app, endpoints[name].method, url(name), { token, rawBody: deep }), 400, 'bad_request');
      expect(error.message, name).toBe(tooDeepMessage);
    }
    failure(await callEndpoint(app, 'login', { rawBody: `[${deep}]` }), 400, 'bad_request');
  });

  it('reads a body at the limit, and brackets inside strings do not count', async () => {
    // At the limit the body is parsed and reaches the schema, which refuses the unknown field.
    const atLimit = `{"username":"admin","password":"x","extra":${nested(maxJsonDepth - 1)}}`;
    expect(failure(await callEndpoint(app, 'login', { rawBody: atLimit }), 400, 'validation_failed').message).toContain('"extra"');
    const bracketed = await callEndpoint(app, 'login', { body: { username: 'nobody', password: '{['.repeat(100) } });
    failure(bracketed, 401, 'invalid_credentials');
    expect(okData('login', await callEndpoint(app, 'login', { body: { username: admin.username, password: admin.password } })).user.role).toBe('admin');
  });

  it('sends the hardening headers with successes, failures, unknown routes and refused bodies', async () => {
    const responses = [
      await callEndpoint(app, 'me', { token }),
      await callEndpoint(app, 'login', { body: { username: admin.username, password: admin.password } }),
      await callEndpoint(app, 'me'),
      await call(app, 'GET', '/api/v1/nothing-here'),
      await callEndpoint(app, 'login', { rawBody: nested(100) }),
      await callEndpoint(app, 'login', { rawBody: '{' }),
      await call(app, 'GET', '/api/v1/openapi.json'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 401, 404, 400, 400, 200]);
    for (const response of responses) {
      expect(response.headers).toMatchObject(apiResponseHeaders);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});
