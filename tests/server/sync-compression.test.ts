import type { FastifyInstance } from 'fastify';
import zlib from 'node:zlib';
import { beforeAll, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { syncPullResponseSchema } from '../../src-shared/api/sync';
import { packedPullResponseSchema, unpackPullResponse } from '../../src-shared/sync/feed-codec';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { jsonBytes } from '../../src-server/sync/pull';
import { bodyDecoders, call, callEndpoint, describeOnDatabases, failure, okData, settledFeed, signIn, syncUrl, syncVersions } from './support';

// Sync for poor links (issue 12, architecture sync rule 10): compressed answers and request bodies
// in the codings both sides name, the packed feed that sends no value twice in a page, and pages
// bounded by bytes as well as changes.

const admin = demoUsers.find((u) => u.username === 'admin')!;

describeOnDatabases('sync over poor links: compression, packed feed, byte-bounded pages', (fixture) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 60, seed: 4 });
    await settledFeed(fixture.db);
    app = fixture.server();
    token = (await signIn(app, admin.username, admin.password)).token;
  });

  const pullUrl = (path: 'pull' | 'feed', query: Record<string, string | number>) => syncUrl(`/api/v1/sync/${path}`, query);

  it('answers in the coding the client offers, names the codings it takes, and the bytes decode to the plain answer', async () => {
    const url = pullUrl('pull', { cursor: '0', limit: 500 });
    const plain = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['accept-encoding']).toBe('br, gzip, deflate');
    for (const coding of ['br', 'gzip', 'deflate'] as const) {
      const coded = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'accept-encoding': coding } });
      expect(coded.headers['content-encoding']).toBe(coding);
      expect(coded.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect((await bodyDecoders[coding](coded.rawPayload)).toString()).toBe(plain.body);
    }
    // A coding the server does not have is not chosen: the answer comes plain.
    const unknown = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'x-unknown' } });
    expect(unknown.headers['content-encoding']).toBeUndefined();
  });

  it('takes a compressed push body, and refuses a coding it does not have with 415', async () => {
    const body = JSON.stringify({ ...syncVersions, clientId: '0192f000-0000-7000-8000-00000000c0de', mutations: [{ id: '0192f000-0000-7000-8000-00000000c0df', seq: 1, name: 'contract.update', args: { id: 'nope', patch: { name: 'x' } }, baseVersions: {} }] });
    const sent = await app.inject({
      method: 'POST', url: '/api/v1/sync/push',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zlib.gzipSync(body),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((sent.json() as { data: { results: { status: string }[] } }).data.results).toMatchObject([{ status: 'rejected' }]);
    const refused = await app.inject({
      method: 'POST', url: '/api/v1/sync/push',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'x-unknown' },
      payload: body,
    });
    expect(refused.statusCode).toBe(415);
  });

  it('packs a page with no string sent twice, derives the form-held columns, and unpacks to the plain page', async () => {
    const query = { cursor: '0', limit: 500 };
    const plain = okData('syncPull', await callEndpoint(app, 'syncPull', { token, query: { ...syncVersions, ...query } }));
    const packed = okData('syncFeed', await callEndpoint(app, 'syncFeed', { token, query: { ...syncVersions, ...query } }));
    expect(syncPullResponseSchema.parse(unpackPullResponse(packed))).toEqual(plain);
    // Every string of the page, wherever it is sent, is sent once (ids as their hex rests).
    const strings = [...packed.values, ...packed.tables.flatMap((t) => t.cells.flatMap((column) => (Array.isArray(column) ? column : column.idRests)))];
    const plainIds = Array.isArray(packed.ids) ? packed.ids : packed.ids.idRests;
    const sent = [...strings, ...plainIds].filter((cell): cell is string => typeof cell === 'string');
    expect(new Set(sent).size).toBe(sent.length);
    // The seeded contracts' names, numbers and counterparties are their form values: sent once, inside them.
    const contractTable = packed.tables.find((t) => t.entity === 'contract' && t.op === 'upsert')!;
    const names = contractTable.cells[contractTable.columns.indexOf('name')]!;
    expect(Array.isArray(names) && names.length > 0 && names.every((cell) => cell === -1)).toBe(true);
    // Ids go as id columns (the contracts' own, or the pool's when tasks and plans name them too): no whole id is spelt out.
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    expect(sent.filter((cell) => uuid.test(cell))).toEqual([]);
    expect(Array.isArray(packed.ids)).toBe(false);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(plain).length * 0.6);
  });

  it('ends a page at its byte bound, and the pages together hold the feed once', async () => {
    const whole = okData('syncPull', await callEndpoint(app, 'syncPull', { token, query: { ...syncVersions, cursor: '0', limit: 5000, maxBytes: 16 * 1024 * 1024 } }));
    expect(whole.hasMore).toBe(false);
    const maxBytes = 8 * 1024;
    const pages = [];
    for (let cursor = '0'; ; ) {
      const page = packedPullResponseSchema.parse(okData('syncFeed', await callEndpoint(app, 'syncFeed', { token, query: { ...syncVersions, cursor, limit: 5000, maxBytes } })));
      const changes = syncPullResponseSchema.parse(unpackPullResponse(page)).changes;
      if (changes.length > 1) expect(Buffer.byteLength(JSON.stringify(changes))).toBeLessThanOrEqual(maxBytes + changes.length + 2);
      // The bound is estimated, not written out: it still fills a page to more than half of it.
      if (page.hasMore) expect(Buffer.byteLength(JSON.stringify(changes))).toBeGreaterThan(maxBytes / 2);
      pages.push(changes);
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.flat()).toEqual(whole.changes);
  });

  it('estimates a change\'s JSON bytes without writing it: Chinese text by its UTF-8 bytes, numbers at their longest', () => {
    const change = { entity: 'contract', op: 'upsert', row: { id: 'a1', name: '设备采购合同', amount: 1250000.5, tags: ['甲方', 'B'], signed: true, note: null } };
    const bytes = Buffer.byteLength(JSON.stringify(change));
    expect(jsonBytes(change)).toBeGreaterThanOrEqual(bytes);
    expect(jsonBytes(change)).toBeLessThan(bytes * 1.25);
    expect(jsonBytes('合同')).toBe(8);
    expect(jsonBytes([])).toBe(2);
  });

  it('refuses a byte bound below 1 KiB', async () => {
    failure(await callEndpoint(app, 'syncFeed', { token, query: { ...syncVersions, cursor: '0', maxBytes: 10 } }), 400, 'validation_failed');
  });

  it('the desktop client sends a large body compressed once the server named a coding, and reads compressed answers', async () => {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const codings: (string | null)[] = [];
    const recording = (async (input: string | URL | Request, init?: RequestInit) => {
      codings.push(new Headers(init?.headers).get('content-encoding'));
      return fetch(input, init);
    }) as typeof fetch;
    const client = createContractServerClient(url, { fetch: recording });
    const page = await client.call('syncFeed', { token, query: { ...syncVersions, cursor: '0', limit: 500 } });
    expect(page.order.length).toBeGreaterThan(0);
    const mutations = Array.from({ length: 40 }, (_, i) => ({
      id: `0192f000-0000-7000-8000-0000000a${String(i).padStart(4, '0')}`, seq: i + 1, name: 'contract.update',
      args: { id: 'missing', patch: { name: `a name long enough to make the body worth compressing ${i}` } }, baseVersions: {},
    }));
    const pushed = await client.call('syncPush', { token, body: { ...syncVersions, clientId: '0192f000-0000-7000-8000-00000000beef', mutations } });
    expect(pushed.results).toHaveLength(40);
    expect(codings).toEqual([null, 'br']);
    const health = await call(app, 'GET', '/api/v1/health');
    expect(health.status).toBe(200);
  });
});
