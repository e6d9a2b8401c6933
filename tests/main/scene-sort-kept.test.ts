import ExcelJS from 'exceljs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { createOutbox } from '../../src-main/core/data/outbox';
import { openReplica } from '../../src-main/core/data/replica';
import { replicaFeatures } from '../../src-main/core/features';
import { readScenes } from '../../src-main/core/ledger/scene-store';
import { clientMigrationsDir } from '../../src-main/paths';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { sceneMessages, type LedgerRow, type Scene } from '../../src-shared/domain/ledger';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { clientJournal, migrationsUpTo } from '../support/migrations';
import { tempDir } from '../support/temp';

// A scene keeps its sort (issue 28, journey 3 step 1), through the real core against the real
// server: kept offline, applied at once to the scene's page and its Excel export, refused at once
// where the server would refuse it, and sent exactly once on reconnect; a sort kept on another
// device comes down the feed and orders the page and the export as the server orders its search.
// The client migration that brings the column keeps the replica and its queue as they were.

const serverDir = tempDir('scene-sort-server-');
const desktop = tempDir('scene-sort-core-');
let running: RunningServer;
let serverUrl: string;
let core: Core;
let token: string;

const rest = () => createContractServerClient(serverUrl);
const remoteScene = async (id: string): Promise<Scene> => (await rest().call('ledgerScenes', { token })).find((scene) => scene.id === id)!;
const localScene = async (id: string) => (await call(core, 'scene.list', {})).find((scene) => scene.id === id)!;
const days = (rows: readonly LedgerRow[]) => rows.map((row) => String(row.data.expirationTime));

async function exported(standingBookID: string): Promise<ExcelJS.Worksheet> {
  const exportId = randomUUID();
  const { size } = await call(core, 'ledger.export', { exportId, search: { standingBookID, filterList: [] }, language: 'en' });
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < size; ) {
    const piece = Buffer.from((await call(core, 'ledger.exportRead', { exportId, offset })).data, 'base64');
    chunks.push(piece);
    offset += piece.length;
  }
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  return workbook.worksheets[0]!;
}

/** The export's column under `header`, its first `count` rows. */
function exportedColumn(sheet: ExcelJS.Worksheet, header: string, count: number): unknown[] {
  const column = (sheet.getRow(1).values as unknown[]).indexOf(header);
  expect(column).toBeGreaterThan(0);
  return Array.from({ length: count }, (_, i) => sheet.getRow(i + 2).getCell(column).value);
}

beforeAll(async () => {
  await seedDemoData({ contracts: 40, seed: 5, dataDir: serverDir.path });
  running = await startContractServer({ port: 0, dataDir: serverDir.path });
  serverUrl = running.url;
  token = (await rest().call('login', { body: { username: 'admin', password: 'admin123' } })).token;
  core = testCore(desktop.path, { serverUrl, syncSoonMs: 50, syncBackoffMs: 200 });
  await call(core, 'session.signIn', { serverUrl, username: 'admin', password: 'admin123' });
  await waitFor(async () => ((await call(core, 'scene.list', {})).length >= 2 ? true : undefined));
  await settledSync(core, 60_000);
}, 180_000);

afterAll(async () => {
  await core?.close();
  await running?.close().catch(() => undefined);
  desktop.cleanup();
  serverDir.cleanup();
});

describe("a scene's kept sort", () => {
  it('is kept offline, orders the page and the export at once, and reaches the server exactly once', async () => {
    const scene = (await call(core, 'scene.list', {})).find((s) => s.name === 'all performance records')!;
    expect(scene.titleIDs).toContain('expirationTime');
    const before = await remoteScene(scene.id);
    await running.close();
    await waitFor(async () => ((await call(core, 'sync.now', {})).online ? undefined : true));

    // Refused at once, as the server would refuse it: nothing is queued.
    const hidden = await core.invoke('scene.update', { id: scene.id, patch: { sortField: { id: 'signDate', key: 1 } } });
    expect(hidden).toMatchObject({ ok: false, error: { code: 'validation_failed', issues: [{ path: 'sortField.id', message: sceneMessages.sortNotShown }] } });
    expect((await call(core, 'sync.status', {})).queued).toBe(0);

    await call(core, 'scene.update', { id: scene.id, patch: { sortField: { id: 'expirationTime', key: -1 } } });
    expect(await localScene(scene.id)).toMatchObject({ sortField: { id: 'expirationTime', key: -1 }, pending: true });
    const page = await call(core, 'ledger.search', { standingBookID: scene.id, pageNum: 1, pageSize: 50 });
    expect(page.count).toBeGreaterThan(50);
    expect(days(page.list)).toEqual([...days(page.list)].sort().reverse());
    const sheet = await exported(scene.id);
    expect(sheet.rowCount - 1).toBe(page.count);
    expect(exportedColumn(sheet, 'Expiration time', 50)).toEqual(days(page.list));
    expect((await call(core, 'sync.status', {})).queued).toBe(1);

    running = await startContractServer({ port: Number(new URL(serverUrl).port), dataDir: serverDir.path });
    await waitFor(async () => {
      const status = await call(core, 'sync.now', {});
      return status.online && status.queued === 0 && status.phase === 'idle' && !(await localScene(scene.id)).pending ? status : undefined;
    }, 60_000);
    const after = await remoteScene(scene.id);
    expect(after.sortField).toEqual({ id: 'expirationTime', key: -1 });
    // One edit applied once: one new version of the scene.
    expect(after.version).toBe(before.version + 1);
    const remote = await rest().call('ledgerSearch', { token, body: { standingBookID: scene.id, pageNum: 1, pageSize: 50 } });
    expect(remote.list.map((row) => row.id)).toEqual(page.list.map((row) => row.id));

    // Sorted again on another device: the sort sent is not sent again over it, and this one pulls it.
    const resorted = (await rest().call('ledgerScenes', { token })).map(({ id, name, isDefault, isSystem, performanceId, filterIDs, titleIDs, filter, sortField }) => ({
      id, name, isDefault, isSystem, performanceId, filterIDs, titleIDs, filter, sortField: id === scene.id ? { id: 'taskState', key: 1 as const } : sortField,
    }));
    await rest().call('ledgerScenesSave', { token, body: resorted });
    await waitFor(async () => {
      await call(core, 'sync.now', {});
      return (await localScene(scene.id)).sortField?.id === 'taskState' ? true : undefined;
    }, 30_000);
    await settledSync(core, 30_000);
    expect(await remoteScene(scene.id)).toMatchObject({ sortField: { id: 'taskState', key: 1 }, version: before.version + 2 });
  }, 180_000);

  it('kept on another device, comes down the feed and orders the page and the export; edited columns take it with its column', async () => {
    const scenes = await rest().call('ledgerScenes', { token });
    const target = scenes.find((s) => s.name === 'receivables and payables')!;
    const list = scenes.map(({ id, name, isDefault, isSystem, performanceId, filterIDs, titleIDs, filter, sortField }) => ({
      id, name, isDefault, isSystem, performanceId, filterIDs, titleIDs, filter, sortField: id === target.id ? { id: 'expirationTime', key: 1 as const } : sortField,
    }));
    await rest().call('ledgerScenesSave', { token, body: list });
    await call(core, 'sync.now', {});
    await waitFor(async () => ((await localScene(target.id)).sortField?.id === 'expirationTime' ? true : undefined), 30_000);

    const page = await call(core, 'ledger.search', { standingBookID: target.id, pageNum: 1, pageSize: 50 });
    expect(days(page.list)).toEqual([...days(page.list)].sort());
    const remote = await rest().call('ledgerSearch', { token, body: { standingBookID: target.id, pageNum: 1, pageSize: 50 } });
    expect(page.list.map((row) => row.id)).toEqual(remote.list.map((row) => row.id));
    expect(exportedColumn(await exported(target.id), 'Expiration time', 50)).toEqual(days(page.list));

    await call(core, 'scene.update', { id: target.id, patch: { titleIDs: target.titleIDs.filter((id) => id !== 'expirationTime') } });
    expect((await localScene(target.id)).sortField).toBeNull();
    await waitFor(async () => ((await call(core, 'sync.now', {})).queued === 0 && !(await localScene(target.id)).pending ? true : undefined), 30_000);
    expect((await remoteScene(target.id)).sortField).toBeNull();
  }, 180_000);
});

describe('client migration 0039', () => {
  it('gives the pulled scenes no sort and keeps the pull cursor and the queued scene edits', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'r.sqlite');
    const at = '2026-11-20T10:00:00.000Z';
    const old = openReplica(path, migrationsUpTo(dir.path, clientJournal.entries.findIndex((entry) => entry.tag.startsWith('0039_'))));
    old.sqlite
      .prepare(`insert into ledger_scenes (id, name, is_default, is_system, filter_ids, title_ids, filters, sort_order, version, update_time) values ('s-1', 'Due', 1, 0, '[]', '["name","expirationTime"]', '[]', 0, 3, ?)`)
      .run(at);
    old.sqlite.prepare(`insert into replica_meta (key, value) values ('pull_cursor', '42')`).run();
    const { lastInsertRowid } = old.sqlite
      .prepare("insert into outbox (id, name, args, base_versions, created_at, state) values ('0192f000-0000-7000-8000-000000000001', 'scene.update', ?, ?, ?, 'pending')")
      .run(JSON.stringify({ id: 's-1', patch: { name: 'Due soon' } }), JSON.stringify({ 'scene:s-1': 3 }), at);
    old.sqlite.prepare('insert into outbox_touches (row_key, seq) values (?, ?)').run('scene:s-1', lastInsertRowid);
    old.close();

    const replica = openReplica(path, clientMigrationsDir);
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
    expect(outbox.status()).toMatchObject({ queued: 1, problems: [] });
    expect(replica.sqlite.prepare(`select value from replica_meta where key = 'pull_cursor'`).pluck().get()).toBe('42');
    expect(replica.sqlite.prepare(`select sort_field from ledger_scenes where id = 's-1'`).pluck().get()).toBeNull();
    expect(readScenes(replica.db)).toEqual([expect.objectContaining({ id: 's-1', name: 'Due', sortField: null })]);
    // The queued edit still applies over the migrated row, and a sort queued now is shown with it.
    outbox.enqueue('scene.update', { id: 's-1', patch: { sortField: { id: 'expirationTime', key: 1 } } });
    expect(readScenes(replica.db)).toEqual([expect.objectContaining({ name: 'Due soon', sortField: { id: 'expirationTime', key: 1 }, pending: true })]);
    expect(outbox.status().queued).toBe(2);
    expect(outbox.nextBatch(10)[0]!.args).toEqual({ id: 's-1', patch: { name: 'Due soon' } });
    replica.close();
    dir.cleanup();
  });
});
