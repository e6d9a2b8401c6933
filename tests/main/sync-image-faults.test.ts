import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, reachablePostgres, seedInChild, spawnContractServer } from '../../bench/support';
import { imageFilesOf } from '../../src-main/core/sync/image-download';
import { clientMigrationsDir } from '../../src-main/paths';
import { call, quietLogger, settledSync, testCore, waitFor } from '../support/core';
import { noteImageDownloads, replicaRows } from '../support/image-first-sync';
import { tempDir } from '../support/temp';
import { CoreChild, replicaFile } from './core-child';
import { noFaults, startFaultProxy, type FaultProxy } from './fault-proxy';

// A first sync from a replica image under faults (issue 33): the real contract server on
// PostgreSQL in a child process (it builds every user's image as it starts), the core in another,
// killed with SIGKILL during the take-in, and a proxy that cuts the download at random points. Each
// ends with the replica a first sync through the feed gives; a tampered image is refused and the
// feed used; a desktop one replica schema ahead of the image takes the feed.

const contracts = 400;
const postgres = await reachablePostgres();
let env: Record<string, string> = {};
let server: Awaited<ReturnType<typeof spawnContractServer>>;
let proxy: FaultProxy;
let db: pg.Client;
/** The admin's replica after a first sync through the feed alone: what every first sync here must end with. */
let expected: Record<string, unknown[]>;

const admin = { username: 'admin', password: 'admin123' };
const dirs: ReturnType<typeof tempDir>[] = [];
const newDir = () => {
  const dir = tempDir('contract-desk-image-fault-');
  dirs.push(dir);
  return dir.path;
};

/** The admin's image row as the server built it, kept to be put back after a test takes it away. */
let image: Record<string, unknown>;
const imageOf = async () => (await db.query(`select * from sync_images where user_id = (select id from users where username = 'admin')`)).rows[0] as Record<string, unknown> | undefined;
async function putImageBack() {
  await db.query(`delete from sync_images where user_id = $1`, [image.user_id]);
  const columns = Object.keys(image);
  await db.query(`insert into sync_images (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(image));
}

/** A first sync in a core child through the proxy; the replica's rows once its full-text index is built. */
async function syncedRows(core: CoreChild): Promise<Record<string, unknown[]>> {
  const status = await core.drained(120_000);
  expect(status.firstSync).toBe(false);
  await waitFor(async () => ((await core.call('search.fullText', { q: 'HT' })).indexing === null ? true : undefined), 60_000);
  return replicaRows(replicaFile(core.dataDir));
}

describe.skipIf(!postgres)('a first sync from a replica image, under faults', () => {
  beforeAll(async () => {
    env = { DATABASE_URL: await freshDatabase(postgres!, 'contract_desk_image_fault') };
    await seedInChild(contracts, env);
    server = await spawnContractServer(env);
    proxy = await startFaultProxy(Number(new URL(server.url).port));
    db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    image = await waitFor(imageOf, 900_000);
    // The feed's replica, the image set aside meanwhile.
    await db.query(`delete from sync_images`);
    const core = new CoreChild(newDir(), proxy.url, 50);
    await core.call('session.signIn', { serverUrl: proxy.url, ...admin });
    expected = await syncedRows(core);
    await core.stop();
    await putImageBack();
  }, 1_200_000);

  afterAll(async () => {
    await db?.end();
    await proxy?.close();
    await server?.stop();
    for (const dir of dirs) dir.cleanup();
  });

  it('a download cut at random points resumes where it was cut and ends with the feed replica', async () => {
    const dir = newDir();
    const bytes = Number((image.body as Buffer).length);
    // Every connection is cut after a few thousand bytes, somewhere new each time.
    const cutAt = () => 8_000 + Math.floor(Math.random() * Math.min(20_000, bytes / 3));
    // Pages of 10: the first page fits within any cut.
    const core = new CoreChild(dir, proxy.url, 10);
    await core.call('session.signIn', { serverUrl: proxy.url, ...admin });
    const files = () => imageFilesOf(replicaFile(dir));
    try {
      proxy.faults = { ...noFaults, cutAfterBytes: cutAt() };
      // The compressed bytes on disk grow from one cut connection to the next: resumed, not begun again.
      const sizes: number[] = [];
      await waitFor(() => {
        const kept = existsSync(files().compressed) ? statSync(files().compressed).size : 0;
        if (kept > (sizes.at(-1) ?? 0)) {
          sizes.push(kept);
          proxy.faults = { ...noFaults, cutAfterBytes: cutAt() };
        }
        return sizes.length >= 2 ? true : undefined;
      }, 300_000);
    } finally {
      proxy.faults = { ...noFaults };
    }
    // The backoff the cuts built up is waited out by a sync asked for now.
    await core.call('sync.now', {});
    expect(await syncedRows(core)).toEqual(expected);
    expect(existsSync(files().compressed)).toBe(false);
    await core.stop();
  }, 600_000);

  it('kill -9 during the take-in: the replica is as before it, and the restart takes the image in', async () => {
    let landedInside = false;
    for (let attempt = 0; attempt < 5 && !landedInside; attempt += 1) {
      const dir = newDir();
      const core = new CoreChild(dir, proxy.url, 50);
      await core.call('session.signIn', { serverUrl: proxy.url, ...admin });
      // The unpacked image is there from the unpacking until the take-in ends; the replica's journal
      // (the first sync's is truncated, not deleted, at each commit) grows once the take-in's
      // transaction writes: watched closely, and killed then.
      const journal = `${replicaFile(dir)}-journal`;
      const writing = () => existsSync(join(dir, 'replicas')) && existsSync(imageFilesOf(replicaFile(dir)).unpacked) && existsSync(journal) && statSync(journal).size > 0;
      const deadline = Date.now() + 300_000;
      while (!writing() && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      await core.kill9();
      // Killed inside the take-in's transaction: its journal is left behind, to be rolled back.
      landedInside = existsSync(journal) && statSync(journal).size > 0;
      const restarted = new CoreChild(dir, proxy.url, 50);
      expect(await syncedRows(restarted)).toEqual(expected);
      await restarted.stop();
    }
    expect(landedInside).toBe(true);
  }, 1_200_000);

  it('a tampered image is refused and the feed brings the first sync', async () => {
    // One byte of the stored image changed; its name (the SHA-256) kept.
    await db.query(`update sync_images set body = overlay(body placing '\\x00'::bytea from 200 for 1) where user_id = $1`, [image.user_id]);
    try {
      const dir = newDir();
      const core = new CoreChild(dir, proxy.url, 50);
      await core.call('session.signIn', { serverUrl: proxy.url, ...admin });
      expect(await syncedRows(core)).toEqual(expected);
      expect(existsSync(imageFilesOf(replicaFile(dir)).compressed)).toBe(false);
      await core.stop();
    } finally {
      await putImageBack();
    }
  }, 300_000);

  it('a server without replica images (an older one: the image route unknown) gets the feed-driven first sync', async () => {
    const downloads: string[] = [];
    const older: typeof fetch = (input, init) => {
      const target = new URL(String(input instanceof Request ? input.url : input));
      // What the older server answers for a path it does not have.
      if (target.pathname.startsWith('/api/v1/sync/image')) {
        const body = { code: 'not_found', message: `GET ${target.pathname}: not found`, data: null };
        return Promise.resolve(new Response(JSON.stringify(body), { status: 404, headers: { 'content-type': 'application/json' } }));
      }
      return noteImageDownloads(downloads)(input, init);
    };
    const dir = newDir();
    const core = testCore(dir, { syncIntervalMs: 3_600_000, pullPageSize: 50, logger: quietLogger, fetch: older });
    try {
      await call(core, 'session.signIn', { serverUrl: proxy.url, ...admin });
      const status = await settledSync(core, 120_000);
      expect(status.error).toBeNull();
      await waitFor(async () => ((await call(core, 'search.fullText', { q: 'HT' })).indexing === null ? true : undefined), 60_000);
      expect(downloads).toEqual([]);
    } finally {
      await core.close();
    }
    expect(replicaRows(replicaFile(dir))).toEqual(expected);
  }, 300_000);

  it('a desktop one replica schema ahead of the image takes the feed', async () => {
    // This build's migrations and one more, as the next build of the desktop would have.
    const migrations = join(newDir(), 'migrations');
    cpSync(clientMigrationsDir, migrations, { recursive: true });
    writeFileSync(join(migrations, '9999_next.sql'), 'CREATE TABLE `next_release` (`id` text PRIMARY KEY NOT NULL);\n');
    const journal = JSON.parse(readFileSync(join(migrations, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };
    const last = journal.entries.at(-1)!;
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: '9999_next' });
    writeFileSync(join(migrations, 'meta', '_journal.json'), JSON.stringify(journal));

    const downloads: string[] = [];
    const core = testCore(newDir(), {
      migrationsDir: migrations,
      syncIntervalMs: 3_600_000,
      pullPageSize: 50,
      logger: quietLogger,
      fetch: noteImageDownloads(downloads),
    });
    try {
      await call(core, 'session.signIn', { serverUrl: proxy.url, ...admin });
      const status = await settledSync(core, 120_000);
      expect(status.error).toBeNull();
      expect(downloads).toEqual([]);
      expect((await call(core, 'ledger.contractStatistics', {})).total).toBe(contracts);
    } finally {
      await core.close();
    }
  }, 300_000);
});
