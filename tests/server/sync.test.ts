import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { cursorPosition, syncProtocolVersion, syncSchemaVersion } from '../../src-shared/api/sync';
import { contracts } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, failure, okData, pullAll, settledFeed, signIn, upsertedRows, contractsOnlyFeed } from './support';

const admin = demoUsers.find((u) => u.role === 'admin')!;
const total = 230;

describeOnDatabases('sync pull', (fixture) => {
  let app: FastifyInstance;
  let token: string;
  let seqOf: Map<string, bigint>;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: total, seed: 9 });
    // This suite counts the contract feed's pages; tasks are covered in sync-tasks.test.ts.
    await contractsOnlyFeed(fixture.db);
    const rows = await fixture.db.select({ id: contracts.id, changeSeq: contracts.changeSeq }).from(contracts);
    seqOf = new Map(rows.map((r) => [r.id, r.changeSeq]));
    app = fixture.server();
    token = (await signIn(app, admin.username, admin.password)).token;
  });

  const pullQuery = (query: Record<string, string | number>) =>
    callEndpoint(app, 'syncPull', { token, query: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, ...query } });

  it('pages through every contract once, in change order, with the cursor, hasMore and remaining right', async () => {
    const { pages, rows } = await pullAll(app, token, 50);
    expect(pages.map((p) => p.changes.length)).toEqual([50, 50, 50, 50, 30]);
    let delivered = 0;
    for (const page of pages) {
      delivered += page.changes.length;
      expect(page.remaining).toBe(total - delivered);
      expect(page.hasMore).toBe(delivered < total);
      // Mid-way "position.start.remaining"; at the end a single position at or above the last change.
      const last = seqOf.get(upsertedRows(page).at(-1)!.id)!;
      if (page.hasMore) expect(page.cursor).toMatch(new RegExp(`^${last}\\.\\d+\\.${page.remaining}$`));
      else expect(BigInt(page.cursor)).toBeGreaterThanOrEqual(last);
    }
    const positions = pages.map((p) => cursorPosition(p.cursor));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const seqs = rows.map((r) => seqOf.get(r.id)!);
    expect(seqs).toEqual([...seqs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(rows.map((r) => r.id)).size).toBe(total);
    expect(rows.map((r) => r.id).sort()).toEqual([...seqOf.keys()].sort());
  });

  it('returns no changes, nothing remaining and a cursor no lower than the given one once caught up', async () => {
    const { cursor } = await pullAll(app, token, 1000);
    const page = okData('syncPull', await pullQuery({ cursor }));
    expect(page).toEqual({ changes: [], cursor: expect.stringMatching(/^\d+$/), hasMore: false, remaining: 0 });
    expect(BigInt(page.cursor)).toBeGreaterThanOrEqual(BigInt(cursor));
  });

  it('resumes from a cursor in the middle without skipping or repeating', async () => {
    const first = okData('syncPull', await pullQuery({ cursor: '0', limit: 100 }));
    const rest = await pullAll(app, token, 70, first.cursor);
    const firstIds = upsertedRows(first).map((r) => r.id);
    const restIds = rest.rows.map((r) => r.id);
    expect(firstIds.filter((id) => restIds.includes(id))).toEqual([]);
    expect([...firstIds, ...restIds].sort()).toEqual([...seqOf.keys()].sort());
  });

  it('delivers edited contracts again, after the cursor, with their new values', async () => {
    const { cursor } = await pullAll(app, token, 1000);
    const edited = [...seqOf.keys()].slice(10, 13);
    await fixture.db.update(contracts).set({ name: 'renamed for the pull test' }).where(inArray(contracts.id, edited));
    const next = await pullAll(app, token, 2, cursor);
    expect(next.rows.map((r) => r.id).sort()).toEqual([...edited].sort());
    expect(next.rows.every((r) => r.name === 'renamed for the pull test')).toBe(true);
    expect(next.pages.map((p) => [p.changes.length, p.hasMore, p.remaining])).toEqual([[2, true, 1], [1, false, 0]]);
    expect(BigInt(next.cursor)).toBeGreaterThan(BigInt(cursor));
  });

  it('counts what remains on the first page only, carries the count in the cursor, and counts again when writes outrun it', async () => {
    const { cursor: start } = await pullAll(app, token, 1000);
    const renamed = [...seqOf.keys()].slice(20, 26);
    const rename = (ids: string[], name: string) => fixture.db.update(contracts).set({ name }).where(inArray(contracts.id, ids));
    await rename(renamed.slice(0, 3), 'first round');
    await settledFeed(fixture.db);
    const first = okData('syncPull', await pullQuery({ cursor: start, limit: 1 }));
    expect([first.changes.length, first.hasMore, first.remaining]).toEqual([1, true, 2]);
    // A count in the cursor is believed, less the page: the server does not count again...
    const carried = first.cursor.replace(/\.2$/, '.40');
    expect(okData('syncPull', await pullQuery({ cursor: carried, limit: 1 })).remaining).toBe(39);
    // ...until it runs out while there is more: changes written during the pull.
    await rename(renamed.slice(3), 'second round');
    await settledFeed(fixture.db);
    const second = okData('syncPull', await pullQuery({ cursor: first.cursor, limit: 1 }));
    const third = okData('syncPull', await pullQuery({ cursor: second.cursor, limit: 1 }));
    expect([second.remaining, third.remaining]).toEqual([1, 3]);
    // A mid-way cursor of protocol 1 ("position.start", no count) is counted afresh.
    const [position, level] = first.cursor.split('.');
    expect(okData('syncPull', await pullQuery({ cursor: `${position}.${level}`, limit: 1 })).remaining).toBe(4);
    const rest = await pullAll(app, token, 1, third.cursor);
    expect(rest.pages.map((p) => p.remaining)).toEqual([2, 1, 0]);
  });

  it('refuses an unsupported protocol or schema version with 400 and a message that says so', async () => {
    const protocol = failure(await pullQuery({ protocolVersion: syncProtocolVersion + 1 }), 400, 'bad_request');
    expect(protocol.message).toMatch(new RegExp(`unsupported sync protocolVersion ${syncProtocolVersion + 1}.*protocolVersion ${syncProtocolVersion}`));
    const schema = failure(await pullQuery({ schemaVersion: 99 }), 400, 'bad_request');
    expect(schema.message).toMatch(/unsupported sync schemaVersion 99/);
    const missing = failure(await callEndpoint(app, 'syncPull', { token, query: { cursor: '0' } }), 400, 'validation_failed');
    expect(missing.message).toMatch(/protocolVersion/);
  });

  it('refuses a malformed or out-of-range cursor and limit with 400 naming the field', async () => {
    for (const [query, field] of [
      [{ cursor: 'abc' }, 'cursor'],
      [{ cursor: '-1' }, 'cursor'],
      [{ cursor: '99999999999999999999' }, 'cursor'],
      [{ cursor: '5.99999999999999999999' }, 'cursor'],
      [{ cursor: '1.2.3.4' }, 'cursor'],
      [{ cursor: '1.2.9007199254740992' }, 'cursor'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 5001 }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
    ] as const) {
      const error = failure(await pullQuery(query), 400, 'validation_failed');
      expect(error.message, JSON.stringify(query)).toContain(`${field}: `);
      expect(error.issues?.[0]?.path).toBe(field);
    }
  });
});
