import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { buildContractServer, openDatabase, seedDemoData, type DatabaseHandle } from '../../src-server';
import { contracts, users } from '../../src-server/db/schema';
import { ensureUserScenes } from '../../src-server/ledger/scenes';
import { defaultSyncHistory } from '../../src-server/sync/pull';
import { syncSnapshots } from '../../src-server/sync/schema';
import { buildSnapshot } from '../../src-server/sync/snapshots';
import { call, settledSync, testCore } from '../support/core';
import { tempDir } from '../support/temp';

// A new replica's first sync from the server's prepared one (src-server/sync/snapshots.ts): the
// core takes the prepared pages, and then the live feed from their last cursor, through its real
// transport. It ends with what a first sync through the live feed brings, edits made after the
// snapshot was written included.

const serverDir = tempDir('contract-desk-prepared-server-');
const desktops = tempDir('contract-desk-prepared-');
let database: DatabaseHandle;
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  await seedDemoData({ contracts: 40, seed: 13, dataDir: serverDir.path });
  database = await openDatabase({ dataDir: serverDir.path });
  app = buildContractServer(database.db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  serverDir.cleanup();
  desktops.cleanup();
});

/** A new core's first sync as admin: its contracts (id, name, version) and what it pulled. */
async function firstSync(name: string): Promise<{ rows: unknown[]; pulled: number }> {
  const core: Core = testCore(`${desktops.path}/${name}`, { syncIntervalMs: 3_600_000 });
  try {
    await call(core, 'session.signIn', { serverUrl: url, username: 'admin', password: 'admin123' });
    await settledSync(core);
    const page = await call(core, 'ledger.contractPage', { pageSize: 50, sort: { field: 'name', order: 'asc' } });
    const { pulled } = await call(core, 'sync.status', {});
    return { rows: page.list.map(({ id, name: contractName, version }) => ({ id, name: contractName, version })), pulled };
  } finally {
    await core.close();
  }
}

describe('a first sync from a prepared one', () => {
  it('brings what the live feed brings, edits made since the snapshot included', async () => {
    const { db } = database;
    const [admin] = await db.select({ id: users.id, role: users.role, departmentId: users.departmentId, organisationId: users.organisationId }).from(users).where(eq(users.username, 'admin'));
    const written = await buildSnapshot(db, admin!, { now: () => new Date(), history: defaultSyncHistory, beforeFirstPull: (viewer) => ensureUserScenes(db, viewer) });
    const [edited] = await db.select({ id: contracts.id }).from(contracts).limit(1);
    await db.update(contracts).set({ name: 'Renamed after the snapshot' }).where(eq(contracts.id, edited!.id));

    const prepared = await firstSync('prepared');
    expect(prepared.rows).toHaveLength(40);
    expect(prepared.rows).toContainEqual(expect.objectContaining({ id: edited!.id, name: 'Renamed after the snapshot' }));
    // The snapshot's changes, then the rename from the live feed.
    expect(prepared.pulled).toBe(written.changes + 1);

    await db.delete(syncSnapshots);
    const live = await firstSync('live');
    expect(live.rows).toEqual(prepared.rows);
  });
});
