import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { preparedFeedPages, syncFeedStreamPath, syncPullResponseSchema, type SyncPullResponse } from '../../src-shared/api/sync';
import { packedPullResponseSchema, unpackPullResponse } from '../../src-shared/sync/feed-codec';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { contracts, departments, users } from '../../src-server/db/schema';
import { ensureUserScenes } from '../../src-server/ledger/scenes';
import { defaultSyncHistory } from '../../src-server/sync/pull';
import { syncSnapshots } from '../../src-server/sync/schema';
import { buildSnapshot, prepareSnapshots, type SnapshotUpkeepOptions } from '../../src-server/sync/snapshots';
import { bodyDecoders, callEndpoint, describeOnDatabases, okData, settledFeed, signIn, syncUrl, syncVersions } from './support';

// Prepared first syncs (architecture, sync rule 10; src-server/sync/snapshots.ts): a pull from
// cursor 0 gets the pages the live stream would have sent when the snapshot was written, and
// then pulls on from their last cursor like any replica; the snapshot is served only while that
// cursor would be accepted, and only to a request whose bounds hold its pages.

const admin = demoUsers.find((u) => u.username === 'admin')!;
const alice = demoUsers.find((u) => u.username === 'alice')!;

describeOnDatabases('prepared first syncs', (fixture) => {
  let app: FastifyInstance;
  let token: string;
  const warnings: string[] = [];
  const options: SnapshotUpkeepOptions = {
    now: () => new Date(),
    history: defaultSyncHistory,
    beforeFirstPull: (viewer) => ensureUserScenes(fixture.db, viewer),
    warn: (message) => warnings.push(message),
  };
  const viewerNamed = async (username: string) => {
    const [row] = await fixture.db.select({ id: users.id, role: users.role, departmentId: users.departmentId, organisationId: users.organisationId }).from(users).where(eq(users.username, username));
    return row!;
  };

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 60, seed: 7 });
    // What a first pull writes (every user's system scenes) is written and settled first: on
    // PostgreSQL the feed serves a change only once every older transaction of the cluster has
    // ended, so scenes written by a pull while a parallel test file holds one open would come after
    // the snapshot (in its tail, and as a move of every user's feed), not in it.
    const everyone = await fixture.db.select({ id: users.id, role: users.role, departmentId: users.departmentId, organisationId: users.organisationId }).from(users);
    for (const user of everyone) await ensureUserScenes(fixture.db, user);
    await settledFeed(fixture.db);
    app = fixture.server();
    token = (await signIn(app, admin.username, admin.password)).token;
  });

  const shape = { cursor: '0', limit: preparedFeedPages.limit, maxBytes: preparedFeedPages.maxBytes, firstLimit: preparedFeedPages.firstLimit, ...syncVersions };
  /** The stream's pages from cursor 0, and whether they came prepared (the feed's end says hasMore: false; a snapshot's never does). */
  const firstSync = async (query: Record<string, string | number> = shape, acceptEncoding = 'br, gzip', bearer = token) => {
    const answer = await app.inject({ method: 'GET', url: syncUrl(syncFeedStreamPath, query), headers: { authorization: `Bearer ${bearer}`, 'accept-encoding': acceptEncoding } });
    expect(answer.statusCode).toBe(200);
    const coding = answer.headers['content-encoding'] as keyof typeof bodyDecoders;
    const text = (await bodyDecoders[coding](answer.rawPayload)).toString();
    const pages = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => syncPullResponseSchema.parse(unpackPullResponse(packedPullResponseSchema.parse(JSON.parse(line)))));
    return { pages, prepared: pages.at(-1)!.hasMore };
  };
  const changesOf = (pages: SyncPullResponse[]) => pages.flatMap((page) => page.changes);

  it('sends a first sync the pages the live feed sent when it was written, then the live feed from their last cursor', async () => {
    const live = await firstSync();
    expect(live.prepared).toBe(false);
    const written = await buildSnapshot(fixture.db, await viewerNamed(admin.username), options);
    expect(written.changes).toBe(changesOf(live.pages).length);

    const prepared = await firstSync();
    expect(prepared.prepared).toBe(true);
    expect(changesOf(prepared.pages)).toEqual(changesOf(live.pages));
    expect(prepared.pages.map((page) => page.cursor)).toEqual(live.pages.map((page) => page.cursor));
    expect(prepared.pages.at(-1)!.remaining).toBe(1);

    // Written since: the live feed from the snapshot's last cursor brings it, and nothing else.
    const [edited] = await fixture.db.select({ id: contracts.id }).from(contracts).limit(1);
    await fixture.db.update(contracts).set({ name: 'Renamed after the snapshot' }).where(eq(contracts.id, edited!.id));
    await settledFeed(fixture.db);
    const tail = okData('syncPull', await callEndpoint(app, 'syncPull', { token, query: { ...syncVersions, cursor: prepared.pages.at(-1)!.cursor, limit: 1000 } }));
    expect(tail.hasMore).toBe(false);
    expect(tail.changes).toEqual([expect.objectContaining({ entity: 'contract', op: 'upsert', row: expect.objectContaining({ id: edited!.id, name: 'Renamed after the snapshot' }) })]);
  });

  it('answers live a request whose bounds do not hold its pages, or that does not take brotli', async () => {
    const prepared = await firstSync();
    expect(prepared.prepared).toBe(true);
    expect((await firstSync({ ...shape, limit: 1000 })).prepared).toBe(false);
    expect((await firstSync({ ...shape, maxBytes: 1024 * 1024 })).prepared).toBe(false);
    expect((await firstSync({ ...shape, firstLimit: 100 })).prepared).toBe(false);
    expect((await firstSync(shape, 'gzip')).prepared).toBe(false);
    // Only a pull from nothing: its own last cursor gets the live feed's end.
    expect((await firstSync({ ...shape, cursor: prepared.pages.at(-1)!.cursor }, 'br')).prepared).toBe(false);
  });

  it('is not served once its last cursor would be refused (rights changed, tombstones pruned), and the upkeep writes it again', async () => {
    const aliceToken = (await signIn(app, alice.username, alice.password)).token;
    const viewer = await viewerNamed(alice.username);
    await buildSnapshot(fixture.db, viewer, options);
    expect((await firstSync(shape, 'br', aliceToken)).prepared).toBe(true);

    // Another department: the snapshot holds the old one's contracts.
    const [other] = await fixture.db.select({ id: departments.id }).from(departments).where(sql`${departments.id} <> ${viewer.departmentId}`).limit(1);
    await fixture.db.update(users).set({ departmentId: other!.id }).where(eq(users.id, viewer.id));
    const moved = await firstSync(shape, 'br', aliceToken);
    expect(moved.prepared).toBe(false);

    // Every user without a current snapshot gets one: those who had none, and alice.
    const before = await fixture.db.select({ userId: syncSnapshots.userId }).from(syncSnapshots);
    const allUsers = await fixture.db.select({ id: users.id }).from(users);
    expect(await prepareSnapshots(fixture.db, options)).toBe(allUsers.length - before.length + 1);
    expect(warnings).toEqual([]);
    const again = await firstSync(shape, 'br', aliceToken);
    expect(again.prepared).toBe(true);
    expect(changesOf(again.pages)).toEqual(changesOf(moved.pages));
    // Nothing is due until a snapshot grows old, and an old one only once the feed moved on.
    expect(await prepareSnapshots(fixture.db, options)).toBe(0);
    const later = { ...options, now: () => new Date(Date.now() + 7 * 60 * 60 * 1000) };
    // The admin's was written before the first test's rename; the others after the last change.
    expect(await prepareSnapshots(fixture.db, later)).toBe(1);
    expect(await prepareSnapshots(fixture.db, later)).toBe(0);
    await fixture.db.update(contracts).set({ name: 'Renamed much later' }).where(sql`${contracts.id} = (select min(id) from contracts)`);
    await settledFeed(fixture.db);
    expect(await prepareSnapshots(fixture.db, { ...options, now: () => new Date(Date.now() + 14 * 60 * 60 * 1000) })).toBe(allUsers.length);

    // Tombstones pruned above the snapshot's level: its cursor would get must_resync.
    await fixture.db.execute(sql`update sync_horizon set pruned_through = (select max(level) + 1 from sync_snapshots)`);
    expect((await firstSync()).prepared).toBe(false);
    expect(await prepareSnapshots(fixture.db, options)).toBe(allUsers.length);
    expect((await firstSync()).prepared).toBe(true);
  });

  afterAll(async () => {
    await app?.close();
  });
});
