import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { replicaPathFor } from '../../src-main/core/session/session-service';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';
import { noFaults, startFaultProxy, type FaultProxy } from './fault-proxy';

// Issue 13: the organisation's credit platform configuration (GET organisation/settings) gates
// the dashboard's risk reminders, not only the credit views. The core keeps it at sign-in and on
// every reconnect, so a device that never opened a credit view knows it offline, and knows a
// change made while it was away once it has been back online.

const serverDir = tempDir('contract-desk-org-settings-server-');
const desktop = tempDir('contract-desk-org-settings-');
let server: RunningServer;
let proxy: FaultProxy;
let core: Core;
let token = '';
let replicaPath = '';

async function setCreditPlatform(creditPlatformEnabled: boolean) {
  const response = await fetch(`${server.url}/api/v1/organisation/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ creditPlatformEnabled }),
  });
  expect(response.ok).toBe(true);
}

/** What the core keeps of the read, looked at in its replica file (no call that could fetch it). */
function kept(): unknown {
  const replica = new Database(replicaPath, { readonly: true, fileMustExist: true });
  try {
    const value = replica.prepare(`select value from cached_reads where kind = 'organisationSettings'`).pluck().get() as string | undefined;
    return value === undefined ? undefined : JSON.parse(value);
  } finally {
    replica.close();
  }
}

async function online(on: boolean) {
  proxy.faults = on ? { ...noFaults } : { ...noFaults, refuse: true };
  if (!on) proxy.cutAll();
  await waitFor(async () => ((await call(core, 'sync.status', {})).online === on ? true : undefined), 10_000);
}

beforeAll(async () => {
  await seedDemoData({ contracts: 5, seed: 13, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  proxy = await startFaultProxy(Number(new URL(server.url).port));
  const login = await fetch(`${server.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin123' }) });
  token = ((await login.json()) as { data: { token: string } }).data.token;
  await setCreditPlatform(true);
  core = testCore(desktop.path, { serverUrl: proxy.url, connectivityProbeMs: 200, connectivityProbeTimeoutMs: 500, syncSoonMs: 50 });
  const session = await call(core, 'session.signIn', { serverUrl: proxy.url, username: 'admin', password: 'admin123' });
  if (!session.signedIn) throw new Error('not signed in');
  replicaPath = replicaPathFor(desktop.path, session.serverUrl, session.user.id);
  await settledSync(core);
}, 120_000);

afterAll(async () => {
  await core?.close();
  await proxy?.close();
  await server?.close();
  desktop.cleanup();
  serverDir.cleanup();
});

describe('the organisation settings kept ahead of any credit view', () => {
  it('are known offline after a sign-in that opened no credit view, and refreshed on reconnect', async () => {
    await waitFor(() => (kept() ? true : undefined), 10_000);
    await online(false);
    expect(await call(core, 'cached.read', { endpoint: 'organisationSettings' })).toMatchObject({ value: { creditPlatformEnabled: true }, offline: true });

    // Changed on the server while this device is away: it knows once it is back, without asking itself.
    await setCreditPlatform(false);
    await online(true);
    await waitFor(() => ((kept() as { creditPlatformEnabled?: boolean } | undefined)?.creditPlatformEnabled === false ? true : undefined), 10_000);
    await online(false);
    expect(await call(core, 'cached.read', { endpoint: 'organisationSettings' })).toMatchObject({ value: { creditPlatformEnabled: false }, offline: true });
    await online(true);
  }, 60_000);
});
