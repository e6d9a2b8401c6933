import type { FastifyInstance } from 'fastify';
import { syncProtocolVersion, syncSchemaVersion } from '../../src-shared/api/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildContractServer, demoUsers, seedDatabase, type ServerDb } from '../../src-server/index';
import { call, callEndpoint, describeOnDatabases, failure, okData, signIn } from './support';

const admin = demoUsers.find((u) => u.role === 'admin')!;

describeOnDatabases('bad input', (fixture) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 5, seed: 2 });
    app = fixture.server();
    token = (await signIn(app, admin.username, admin.password)).token;
  });

  it('answers health without a token', async () => {
    expect(okData('health', await callEndpoint(app, 'health'))).toEqual({ status: 'up', protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion });
  });

  it('names the offending query field in a 400 validation_failed', async () => {
    for (const [query, field] of [
      [{ pageSize: 0 }, 'pageSize'],
      [{ pageSize: 101 }, 'pageSize'],
      [{ pageSize: 'twenty' }, 'pageSize'],
      [{ pageNum: -1 }, 'pageNum'],
      [{ pageNum: 1.5 }, 'pageNum'],
      [{ status: 9 }, 'status'],
      [{ status: 'approved' }, 'status'],
      [{ q: 'x'.repeat(101) }, 'q'],
      [{ q: 'nul\u0000byte' }, 'q'],
    ] as const) {
      const error = failure(await callEndpoint(app, 'contractList', { token, query }), 400, 'validation_failed');
      expect(error.message, JSON.stringify(query)).toMatch(new RegExp(`^validation failed: ${field}: `));
      expect(error.issues?.map((i) => i.path)).toEqual([field]);
    }
  });

  it('refuses repeated query parameters instead of failing on them', async () => {
    const error = failure(await call(app, 'GET', '/api/v1/contracts?status=1&status=2', { token }), 400, 'validation_failed');
    expect(error.message).toContain('status: ');
  });

  it('refuses unknown query and body fields (the schemas are strict)', async () => {
    const query = failure(await callEndpoint(app, 'contractList', { token, query: { sort: 'name' } }), 400, 'validation_failed');
    expect(query.message).toContain('"sort"');
    const body = failure(
      await callEndpoint(app, 'login', { body: { username: 'admin', password: 'admin123', remember: true } }),
      400,
      'validation_failed',
    );
    expect(body.message).toContain('"remember"');
    failure(await callEndpoint(app, 'logout', { token, body: { everywhere: true } }), 400, 'validation_failed');
  });

  it('names missing or empty login fields with the messages the sign-in screen shows', async () => {
    const missing = failure(await callEndpoint(app, 'login', { body: { username: 'admin' } }), 400, 'validation_failed');
    expect(missing.issues?.map((i) => i.path)).toEqual(['password']);
    const blank = failure(await callEndpoint(app, 'login', { body: { username: '   ', password: 'x' } }), 400, 'validation_failed');
    expect(blank.message).toBe('validation failed: username: please enter the user name');
    failure(await callEndpoint(app, 'login', { body: [] }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'login', { rawBody: 'null' }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'refresh', { body: { refreshToken: 42 } }), 400, 'validation_failed');
  });

  it('answers malformed JSON and a wrong media type with 400-class bad_request', async () => {
    const malformed = failure(await callEndpoint(app, 'login', { rawBody: '{"username": "admin",' }), 400, 'bad_request');
    expect(malformed.message).toMatch(/JSON/);
    const xml = await callEndpoint(app, 'login', { rawBody: '<login/>', headers: { 'content-type': 'application/xml' } });
    failure(xml, 415, 'bad_request');
    // Plain text is parsed as a string, which is not the object the schema asks for.
    const text = await callEndpoint(app, 'login', { rawBody: 'username=admin', headers: { 'content-type': 'text/plain' } });
    expect(failure(text, 400, 'validation_failed').message).toContain('expected object');
  });

  it('checks the token before the input, so callers without one learn nothing', async () => {
    failure(await callEndpoint(app, 'contractList', { query: { pageSize: 0 } }), 401, 'unauthorized');
  });

  it('answers unknown routes and methods with 404 not_found', async () => {
    failure(await call(app, 'GET', '/api/v1/nothing-here'), 404, 'not_found');
    failure(await call(app, 'DELETE', '/api/v1/contracts', { token }), 404, 'not_found');
  });
});

describe('unexpected failures', () => {
  it('answer 500 server_error with a generic message that leaks no detail', async () => {
    const broken = { execute: () => Promise.reject(new Error('connection to 10.0.0.7 lost: password=hunter2')) } as unknown as ServerDb;
    const app = buildContractServer(broken);
    const response = await callEndpoint(app, 'health');
    const error = failure(response, 500, 'server_error');
    expect(error.message).toBe('The contract server reported an error.');
    expect(JSON.stringify(response.json)).not.toContain('hunter2');
    await app.close();
  });
});
