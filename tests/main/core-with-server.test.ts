import { readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { syncProtocolVersion, syncSchemaVersion } from '../../src-shared/api/sync';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import type { Core } from '../../src-main/core/core';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// The real core against a running contract server on PGlite: sign-in, the first pull, offline
// reads after the server stops, and a restart with no server at all.

const serverDir = tempDir('contract-desk-server-');
let server: RunningServer;
let serverUrl: string;
const contracts = 240;

async function serverStatistics(username: string, password: string) {
  const client = createContractServerClient(serverUrl);
  const { token } = await client.call('login', { body: { username, password } });
  return client.call('contractStatistics', { token });
}

/** How many changes a first sync brings the user: contracts, their performance tasks and the user's reminder settings. */
async function feedSize(username: string, password: string) {
  const client = createContractServerClient(serverUrl);
  const { token } = await client.call('login', { body: { username, password } });
  const page = await client.call('syncPull', { token, query: { cursor: '0', limit: 1, protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion } });
  return page.changes.length + page.remaining;
}

beforeAll(async () => {
  await seedDemoData({ contracts, seed: 7, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  serverUrl = server.url;
});

afterAll(async () => {
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
});

describe('core against the contract server', () => {
  const desktop = tempDir('contract-desk-core-');
  let core: Core;
  afterAll(async () => {
    await core?.close();
    desktop.cleanup();
  });

  it('reports a wrong password and an unreachable server as plain errors, signed out', async () => {
    core = testCore(desktop.path, { pullPageSize: 50 });
    const wrong = await core.invoke('session.signIn', { serverUrl, username: 'admin', password: 'nope' });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'invalid_credentials' } });
    const unreachable = await core.invoke('session.signIn', { serverUrl: 'http://127.0.0.1:1', username: 'admin', password: 'admin123' });
    expect(unreachable).toMatchObject({ ok: false, error: { code: 'server_unreachable' } });
    const badUrl = await core.invoke('session.signIn', { serverUrl: 'ftp://x', username: 'admin', password: 'admin123' });
    expect(badUrl).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await call(core, 'session.get', {})).toMatchObject({ signedIn: false });
    expect(await core.invoke('ledger.contractStatistics', {})).toMatchObject({ ok: false, error: { code: 'not_signed_in' } });
  });

  it('signs in, pulls every visible contract in pages, and answers the ledger from the replica', async () => {
    const events: string[] = [];
    core.subscribe((event) => events.push(event));
    const session = await call(core, 'session.signIn', { serverUrl, username: 'admin', password: 'admin123' });
    expect(session).toMatchObject({ signedIn: true, user: { username: 'admin', role: 'admin' } });
    const status = await settledSync(core);
    expect(status).toMatchObject({ phase: 'idle', online: true, pulled: await feedSize('admin', 'admin123'), remaining: 0, error: null });
    expect(status.pulled).toBeGreaterThan(contracts);

    const statistics = await call(core, 'ledger.contractStatistics', {});
    expect(statistics).toEqual(await serverStatistics('admin', 'admin123'));
    expect(statistics.total).toBe(contracts);

    const page = await call(core, 'ledger.contractPage', { status: 4, pageNum: 1, pageSize: 20 });
    expect(page.count).toBe(statistics.approved);
    expect(page.list.every((c) => c.status === 4)).toBe(true);
    const times = page.list.map((c) => c.updateTime);
    expect(times).toEqual([...times].sort().reverse());
    expect(events).toContain('data.changed');
    expect(events).toContain('session.changed');
    expect(await call(core, 'settings.get', {})).toMatchObject({ serverUrl });
  });

  it('keeps answering from the replica when the server stops, and shows offline', async () => {
    const before = await call(core, 'ledger.contractStatistics', {});
    await server.close();
    const status = await call(core, 'sync.now', {});
    expect(status).toMatchObject({ online: false, phase: 'offline', error: { code: 'server_unreachable' } });
    expect(await call(core, 'ledger.contractStatistics', {})).toEqual(before);
    expect((await call(core, 'ledger.contractPage', { pageSize: 50 })).list).toHaveLength(50);
  });

  it('restores the session after a restart with no server, and pulls again once it is back', async () => {
    const before = await call(core, 'ledger.contractStatistics', {});
    await core.close();
    core = testCore(desktop.path);
    expect(await call(core, 'session.get', {})).toMatchObject({ signedIn: true, user: { username: 'admin' } });
    expect(await call(core, 'ledger.contractStatistics', {})).toEqual(before);

    server = await startContractServer({ port: Number(new URL(serverUrl).port), dataDir: serverDir.path });
    const status = await waitFor(async () => {
      const s = await call(core, 'sync.now', {});
      return s.online ? s : undefined;
    });
    expect(status).toMatchObject({ phase: 'idle', online: true, pulled: 0 });
  });

  it('shows why a stored session cannot open when its replica is damaged, and recovers on sign-in', async () => {
    await core.close();
    const replicas = join(desktop.path, 'replicas');
    const [file] = readdirSync(replicas).filter((f) => f.endsWith('.sqlite'));
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(join(replicas, file + suffix))) writeFileSync(join(replicas, file + suffix), suffix ? '' : 'garbage '.repeat(1000));
    }
    core = testCore(desktop.path);
    expect(await call(core, 'session.get', {})).toMatchObject({ signedIn: false, problem: { code: 'replica_corrupt' } });
    await call(core, 'session.signIn', { serverUrl, username: 'admin', password: 'admin123' });
    await settledSync(core);
    expect((await call(core, 'ledger.contractStatistics', {})).total).toBe(contracts);
    expect(readdirSync(replicas).some((f) => f.includes('.corrupt-'))).toBe(true);
  });

  it('signs out: the ledger is closed and nothing of the session is kept', async () => {
    await call(core, 'session.signOut', {});
    expect(await core.invoke('ledger.contractPage', {})).toMatchObject({ ok: false, error: { code: 'not_signed_in' } });
    expect(existsSync(join(desktop.path, 'session.json'))).toBe(false);
  });
});

describe('one replica per user', () => {
  it('a staff member sees only what the server lets them see, in a replica of their own', async () => {
    const desktop = tempDir('contract-desk-core-');
    const core = testCore(desktop.path);
    await call(core, 'session.signIn', { serverUrl, username: 'bob', password: 'bob123' });
    await settledSync(core);
    const mine = await call(core, 'ledger.contractStatistics', {});
    expect(mine).toEqual(await serverStatistics('bob', 'bob123'));
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.total).toBeLessThan(contracts);
    const page = await call(core, 'ledger.contractPage', { pageSize: 50 });
    expect(page.list.every((c) => c.departmentName === page.list[0]!.departmentName || c.responsibleUserName?.includes('Bob'))).toBe(true);
    await core.close();
    desktop.cleanup();
  });
});
