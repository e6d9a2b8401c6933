import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { syncFeedStreamPath, syncPullResponseSchema } from '../../src-shared/api/sync';
import { packedPullResponseSchema, unpackPullResponse } from '../../src-shared/sync/feed-codec';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { bodyDecoders, callEndpoint, describeOnDatabases, failure, okData, settledFeed, signIn, syncUrl, syncVersions } from './support';

// The feed as one stream of pages (architecture, sync rule 10): the same pages as /sync/feed,
// one a line, compressed in the coding offered, a refusal of the first page an ordinary error
// answer, and a stream nobody reads never holds the server's close up.

const admin = demoUsers.find((u) => u.username === 'admin')!;

describeOnDatabases('the feed as a stream of pages', (fixture) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 60, seed: 5 });
    await settledFeed(fixture.db);
    app = fixture.server();
    token = (await signIn(app, admin.username, admin.password)).token;
  });

  const streamUrl = (query: Record<string, string | number>) => syncUrl(syncFeedStreamPath, query);
  const lines = (text: string) => text.split('\n').filter((line) => line !== '').map((line) => packedPullResponseSchema.parse(JSON.parse(line)));

  it('sends the pages /sync/feed sends, one a line, the first bounded by firstLimit, in the coding offered', async () => {
    const paged = [];
    for (let cursor = '0', limit = 7; ; limit = 40) {
      const page = okData('syncFeed', await callEndpoint(app, 'syncFeed', { token, query: { ...syncVersions, cursor, limit } }));
      paged.push(page);
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    expect(paged.length).toBeGreaterThan(3);
    const plain = await app.inject({ method: 'GET', url: streamUrl({ cursor: '0', limit: 40, firstLimit: 7 }), headers: { authorization: `Bearer ${token}` } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const streamed = lines(plain.body);
    expect(streamed.map((page) => page.cursor)).toEqual(paged.map((page) => page.cursor));
    expect(streamed.map((page) => syncPullResponseSchema.parse(unpackPullResponse(page)).changes)).toEqual(
      paged.map((page) => syncPullResponseSchema.parse(unpackPullResponse(page)).changes),
    );
    for (const coding of ['br', 'gzip', 'deflate'] as const) {
      const coded = await app.inject({ method: 'GET', url: streamUrl({ cursor: '0', limit: 40, firstLimit: 7 }), headers: { authorization: `Bearer ${token}`, 'accept-encoding': `${coding}, identity;q=0.5` } });
      expect(coded.headers['content-encoding']).toBe(coding);
      expect(lines((await bodyDecoders[coding](coded.rawPayload)).toString())).toEqual(streamed);
    }
    const refusedBr = await app.inject({ method: 'GET', url: streamUrl({ cursor: '0', limit: 40 }), headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br;q=0, gzip' } });
    expect(refusedBr.headers['content-encoding']).toBe('gzip');
  });

  it('refuses as an ordinary error answer: no token, bad versions, a bad query', async () => {
    const refused = async (query: Record<string, string | number>, authorization?: string) => {
      const answer = await app.inject({ method: 'GET', url: streamUrl(query), headers: authorization ? { authorization } : {} });
      return { status: answer.statusCode, headers: answer.headers, json: answer.json() as unknown };
    };
    failure(await refused({ cursor: '0' }), 401, 'unauthorized');
    failure(await refused({ cursor: '0', protocolVersion: 1 }, `Bearer ${token}`), 400, 'bad_request');
    failure(await refused({ cursor: 'x' }, `Bearer ${token}`), 400, 'validation_failed');
    failure(await refused({ cursor: '0', firstLimit: 0 }, `Bearer ${token}`), 400, 'validation_failed');
  });

  it('the desktop client reads page by page, and a stream it stops reading does not hold the server up', async () => {
    const server = fixture.server();
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    const client = createContractServerClient(url);
    const { token: own } = await client.call('login', { body: { username: admin.username, password: admin.password } });
    const all = [];
    const stream = await client.openFeedStream({ cursor: '0', limit: 40, firstLimit: 7, maxBytes: 1024 * 1024, ...syncVersions }, own);
    for (let page = await stream.next(); page; page = page.hasMore ? await stream.next() : null) all.push(page);
    stream.finish();
    expect(all.length).toBeGreaterThan(3);
    expect(all.at(-1)!.hasMore).toBe(false);

    // One page read of many, then nothing: the server still closes at once.
    const stalled = await client.openFeedStream({ cursor: '0', limit: 1, maxBytes: 1024 * 1024, ...syncVersions }, own);
    expect((await stalled.next())?.hasMore).toBe(true);
    const start = performance.now();
    await server.close();
    expect(performance.now() - start).toBeLessThan(5_000);
    stalled.cancel();
  });

  afterAll(async () => {
    await app?.close();
  });
});
