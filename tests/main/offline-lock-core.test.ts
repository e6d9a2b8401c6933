import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import type { IpcResult } from '../../src-shared/ipc/channels';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

// Issue 32, the offline lock, in the core with a seeded server: an administrator shortens alice's
// laptop to 5 days; the server then stops and the laptop's clock moves past them. At its next
// start no data channel answers until the password opens it: a wrong one waits (and keeps
// waiting across a restart), the right one opens it. The app left open locks again past the
// limit; the server coming back opens it. A session kept by a build before the lock has no
// password to check: past the limit it asks for a sign-in.

const day = 24 * 60 * 60 * 1000;
const serverDir = tempDir('offline-lock-server-');
const deviceDir = tempDir('offline-lock-core-');
let server: RunningServer | null = null;
let port: number;
// Between the core and the server: stopping the server also cuts the connections the core keeps alive to it.
let proxy: FaultProxy;
let core: Core | null = null;
let now = Date.now();
const clock = { now: () => new Date(now) };

const openCore = () => {
  core = testCore(deviceDir.path, { clock, syncSoonMs: 20, syncBackoffMs: 50, connectivityProbeMs: 200, connectivityProbeTimeoutMs: 500, offlineLockCheckMs: 50 });
  return core;
};
const restart = async () => {
  await core?.close();
  return openCore();
};
const storedSession = () => JSON.parse(readFileSync(join(deviceDir.path, 'session.json'), 'utf8')) as { lock?: Record<string, unknown> };
const refusal = (result: IpcResult<unknown>) => (result.ok ? null : result.error);

beforeAll(async () => {
  await seedDemoData({ contracts: 40, seed: 31, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  port = Number(new URL(server.url).port);
  proxy = await startFaultProxy(port);
}, 120_000);

async function stopServer() {
  proxy.faults.refuse = true;
  proxy.cutAll();
  await server?.close();
  server = null;
}

afterAll(async () => {
  await core?.close();
  await proxy?.close();
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
  deviceDir.cleanup();
});

it('past the device\'s days without the server, asks for the password; a wrong one waits, the right one opens it', { timeout: 120_000 }, async () => {
  const serverUrl = proxy.url;
  let desk = openCore();
  await call(desk, 'session.signIn', { serverUrl, username: 'alice', password: 'alice123' });
  await settledSync(desk, 60_000);

  // An administrator shortens this laptop's lock to 5 days; it learns so at its next sign-in.
  const admin = createContractServerClient(server!.url);
  const { token } = await admin.call('login', { body: { username: 'admin', password: 'admin123' } });
  const deviceId = (JSON.parse(readFileSync(join(deviceDir.path, 'device.json'), 'utf8')) as { id: string }).id;
  const laptop = (await admin.call('adminDevices', { token })).find((row) => row.deviceId === deviceId)!;
  await admin.call('deviceOfflineLock', { token, params: { id: laptop.id }, body: { offlineLockDays: 5 } });
  await call(desk, 'session.signIn', { serverUrl, username: 'alice', password: 'alice123' });
  await settledSync(desk, 60_000);
  const kept = storedSession().lock!;
  expect(kept).toMatchObject({ days: 5, failedTries: 0, verifier: { N: 2 ** 15 } });
  expect(JSON.stringify(storedSession())).not.toContain('alice123');

  // The server stops; the laptop is started again 5 days and a minute later.
  await stopServer();
  now += 5 * day + 60_000;
  desk = await restart();
  expect(await call(desk, 'session.get', {})).toMatchObject({ signedIn: true, user: { username: 'alice' }, locked: { days: 5, waitSeconds: 0, canUnlock: true } });
  for (const [channel, request] of [['ledger.contractPage', { pageNum: 1, pageSize: 10 }], ['ledger.contractStatistics', {}], ['sync.now', {}]] as const) {
    expect(refusal(await desk.invoke(channel, request))).toMatchObject({ code: 'offline_locked' });
  }

  // A wrong password waits a second; the right one is not even checked during the wait.
  expect(refusal(await desk.invoke('session.unlock', { password: 'alice12' }))).toMatchObject({ code: 'invalid_credentials', reason: { key: 'unlockWait', params: { seconds: 1 } } });
  expect(refusal(await desk.invoke('session.unlock', { password: 'alice123' }))).toMatchObject({ code: 'rate_limited' });
  now += 1000;
  expect(refusal(await desk.invoke('session.unlock', { password: 'wrong' }))).toMatchObject({ code: 'invalid_credentials', reason: { params: { seconds: 2 } } });
  // Restarting does not reset the wait.
  desk = await restart();
  expect(await call(desk, 'session.get', {})).toMatchObject({ locked: { waitSeconds: 2 } });
  expect(refusal(await desk.invoke('session.unlock', { password: 'alice123' }))).toMatchObject({ code: 'rate_limited', reason: { params: { seconds: 2 } } });
  now += 2000;
  const opened = await call(desk, 'session.unlock', { password: 'alice123' });
  expect(opened).toMatchObject({ signedIn: true });
  expect('locked' in opened).toBe(false);
  expect((await call(desk, 'ledger.contractPage', { pageNum: 1, pageSize: 10 })).list.length).toBeGreaterThan(0);

  // Left open past the limit again, it locks by itself and says so.
  const changes: unknown[] = [];
  desk.subscribe((event, payload) => {
    if (event === 'session.changed') changes.push(payload);
  });
  now += 5 * day + 60_000;
  await waitFor(() => (changes.length > 0 ? true : undefined));
  expect(changes.at(-1)).toMatchObject({ signedIn: true, locked: { days: 5 } });
  expect(refusal(await desk.invoke('ledger.contractStatistics', {}))).toMatchObject({ code: 'offline_locked' });

  // The server comes back: the session's next answered call opens it.
  server = await startContractServer({ port, dataDir: serverDir.path });
  proxy.faults.refuse = false;
  await waitFor(async () => {
    const session = await call(desk, 'session.get', {});
    return session.signedIn && !session.locked ? session : undefined;
  }, 30_000);
  expect((await call(desk, 'ledger.contractStatistics', {})).total).toBeGreaterThan(0);
  expect(Date.parse(String(storedSession().lock!.lastContactAt))).toBe(now);
});

it('a session kept by a build before the lock asks for a sign-in past the limit (it has no password to check)', { timeout: 60_000 }, async () => {
  await core?.close();
  core = null;
  const { lock: _lock, ...older } = storedSession();
  writeFileSync(join(deviceDir.path, 'session.json'), JSON.stringify(older));
  await stopServer();
  // Its first start with this build counts from now; past 30 days it needs the server.
  let desk = openCore();
  expect(await call(desk, 'session.get', {})).toMatchObject({ signedIn: true });
  expect(storedSession().lock).toMatchObject({ verifier: null, days: 30 });
  now += 30 * day + 60_000;
  desk = await restart();
  expect(await call(desk, 'session.get', {})).toMatchObject({ signedIn: false, problem: { code: 'offline_locked', reason: { key: 'offlineLockSignIn' } } });
  expect(refusal(await desk.invoke('ledger.contractStatistics', {}))).toMatchObject({ code: 'not_signed_in' });
});
