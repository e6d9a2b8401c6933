import type { AddressInfo } from 'node:net';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { replicaPathFor } from '../../src-main/core/session/session-service';
import { buildContractServer, openDatabase, seedDemoData, type DatabaseHandle } from '../../src-server';
import { contracts, users } from '../../src-server/db/schema';
import { performanceTasks } from '../../src-server/performance/schema';
import { ensureUserScenes } from '../../src-server/ledger/scenes';
import { defaultSyncHistory } from '../../src-server/sync/pull';
import { syncImages } from '../../src-server/sync/schema';
import { buildSnapshot } from '../../src-server/sync/snapshots';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { noteImageDownloads, replicaRows } from '../support/image-first-sync';
import { tempDir } from '../support/temp';

// The first sync from the server's replica image (src-server/sync/images.ts, the core's
// replica-image builder and the replica writer's take-in), differential against the feed: for
// users of different reach (the administrator, who sees every contract, and two staff members of
// different departments), a replica first synced from the image equals one first synced through
// the feed, table by table and row by row (the full-text index built after it included), and
// both equal a replica first synced after the same later changes on the server.

const serverDir = tempDir('contract-desk-image-server-');
const desktops = tempDir('contract-desk-image-');
let database: DatabaseHandle;
let app: FastifyInstance;
let url: string;
const imageDownloads: string[] = [];

const accounts = [
  { username: 'admin', password: 'admin123' },
  { username: 'alice', password: 'alice123' },
  { username: 'carol', password: 'carol123' },
];

beforeAll(async () => {
  await seedDemoData({ contracts: 40, seed: 21, dataDir: serverDir.path });
  database = await openDatabase({ dataDir: serverDir.path });
  app = buildContractServer(database.db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 900_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  serverDir.cleanup();
  desktops.cleanup();
});

/** A new desktop's first sync as `account`, its full-text index built: the core, and its replica's path. */
async function firstSync(name: string, account: (typeof accounts)[number], warnings: string[] = []): Promise<{ core: Core; path: string }> {
  const core = testCore(`${desktops.path}/${name}`, {
    syncIntervalMs: 3_600_000,
    // Pages of 10 changes: the image comes after a first page that does not hold everything.
    pullPageSize: 10,
    fetch: noteImageDownloads(imageDownloads),
    logger: { info: () => undefined, error: () => undefined, warn: (message: string, ...details: unknown[]) => warnings.push([message, ...details.map((d) => JSON.stringify(d))].join(" ")) },
  });
  const session = await call(core, 'session.signIn', { serverUrl: url, ...account });
  await settledSync(core);
  await waitFor(async () => ((await call(core, 'search.fullText', { q: 'HT' })).indexing === null ? true : undefined));
  if (!session.signedIn) throw new Error('not signed in');
  return { core, path: replicaPathFor(`${desktops.path}/${name}`, url, session.user.id) };
}

async function viewer(username: string) {
  const [row] = await database.db.select({ id: users.id, role: users.role, departmentId: users.departmentId, organisationId: users.organisationId }).from(users).where(eq(users.username, username));
  return row!;
}

describe('a first sync from a replica image', () => {
  it.each(accounts)('gives $username the replica the feed gives, before and after later changes', async (account) => {
    const { db } = database;
    const user = await viewer(account.username);
    const built = await buildSnapshot(db, user, { now: () => new Date(), history: defaultSyncHistory, beforeFirstPull: (v) => ensureUserScenes(db, v), images: {} });
    expect(built.image).not.toBeNull();

    const warnings: string[] = [];
    const downloadsBefore = imageDownloads.length;
    const fromImage = await firstSync(`${account.username}-image`, account, warnings);
    expect(warnings).toEqual([]);
    expect(imageDownloads.length).toBe(downloadsBefore + 1);

    const [image] = await db.select().from(syncImages).where(eq(syncImages.userId, user.id));
    await db.delete(syncImages).where(eq(syncImages.userId, user.id));
    const fromFeed = await firstSync(`${account.username}-feed`, account);
    expect(imageDownloads.length).toBe(downloadsBefore + 1);
    expect(replicaRows(fromImage.path)).toEqual(replicaRows(fromFeed.path));
    await db.insert(syncImages).values(image!);

    // The same later changes reach both: renamed contracts, a finished task, a removed task.
    const changed = await db.select({ id: contracts.id }).from(contracts).orderBy(contracts.id).limit(5);
    await db
      .update(contracts)
      .set({ name: sql`${contracts.name} || ' (changed later)'`, version: sql`${contracts.version} + 1` })
      .where(inArray(contracts.id, changed.map(({ id }) => id)));
    const tasks = await db.select({ id: performanceTasks.id }).from(performanceTasks).orderBy(performanceTasks.id).limit(2);
    await db.update(performanceTasks).set({ name: 'Renamed later', version: sql`${performanceTasks.version} + 1` }).where(eq(performanceTasks.id, tasks[0]!.id));
    for (const { core } of [fromImage, fromFeed]) {
      await call(core, 'sync.now', {});
      await waitFor(async () => ((await call(core, 'search.fullText', { q: 'HT' })).indexing === null ? true : undefined));
    }
    // The server's view now: a replica first synced through the feed after the changes.
    await db.delete(syncImages).where(eq(syncImages.userId, user.id));
    const late = await firstSync(`${account.username}-late`, account);
    const now = replicaRows(late.path);
    expect(replicaRows(fromImage.path)).toEqual(now);
    expect(replicaRows(fromFeed.path)).toEqual(now);
    for (const { core } of [fromImage, fromFeed, late]) await core.close();
  }, 600_000);
});
