import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { isEditableStatus } from '../../src-shared/rules/contract-status';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

// Issue 32, devices: a laptop revoked by an administrator while it holds an unsent edit. At its
// next contact it erases its replica, files and key and says why; the edit never reaches the server
// (a stolen laptop must not write), and signing in again from it is refused.

const serverDir = tempDir('device-revocation-server-');
const deviceDir = tempDir('device-revocation-core-');
let server: RunningServer;
let proxy: FaultProxy;
let core: Core;

beforeAll(async () => {
  await seedDemoData({ contracts: 120, seed: 13, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  proxy = await startFaultProxy(Number(new URL(server.url).port));
  core = testCore(deviceDir.path, { syncSoonMs: 20, syncBackoffMs: 50 });
});

afterAll(async () => {
  await core?.close();
  await proxy?.close();
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
  deviceDir.cleanup();
});

it('a revoked device wipes its replica, files and key at its next contact, sends nothing, says why and cannot sign in again', async () => {
  await call(core, 'session.signIn', { serverUrl: proxy.url, username: 'alice', password: 'alice123' });
  await settledSync(core);
  const page = await call(core, 'ledger.contractPage', { pageNum: 1, pageSize: 50 });
  const target = page.list.find((contract) => isEditableStatus(contract.status))!;
  const replicas = join(deviceDir.path, 'replicas');
  expect(readdirSync(replicas).some((name) => name.endsWith('.sqlite'))).toBe(true);

  // Offline, the device queues an edit.
  proxy.faults.refuse = true;
  proxy.cutAll();
  await call(core, 'contract.update', { id: target.id, patch: { name: 'Renamed on the stolen laptop' } });
  expect((await call(core, 'sync.status', {})).queued).toBe(1);

  // Meanwhile an administrator revokes it.
  const admin = createContractServerClient(server.url);
  const { token } = await admin.call('login', { body: { username: 'admin', password: 'admin123' } });
  const aliceDevices = await admin.call('adminDevices', { token });
  const device = aliceDevices.find((row) => row.username === 'alice')!;
  expect(device.platform).toBe(process.platform);
  await admin.call('deviceRevoke', { token, params: { id: device.id }, body: { reason: 'reported stolen' } });

  // Back online: the next sync is refused, and the device erases what it kept.
  proxy.faults.refuse = false;
  void core.invoke('sync.now', {});
  const info = await waitFor(async () => {
    const session = await call(core, 'session.get', {});
    return session.signedIn ? undefined : session;
  }, 30_000);
  expect(info).toMatchObject({ signedIn: false, problem: { code: 'device_revoked', reason: { key: 'deviceRevoked', params: { reason: 'reported stolen' } } } });
  expect(readdirSync(replicas)).toEqual([]);
  expect(existsSync(join(deviceDir.path, 'session.json'))).toBe(false);

  // The edit never reached the server.
  const aliceClient = createContractServerClient(server.url);
  const alice = await aliceClient.call('login', { body: { username: 'alice', password: 'alice123' } });
  const contracts = await aliceClient.call('contractList', { token: alice.token, query: { pageSize: 100 } });
  expect(contracts.list.find((contract) => contract.id === target.id)?.name).toBe(target.name);

  // Signing in again from it is refused, and leaves nothing behind.
  expect(await core.invoke('session.signIn', { serverUrl: proxy.url, username: 'alice', password: 'alice123' })).toMatchObject({
    ok: false,
    error: { code: 'device_revoked' },
  });
  expect(readdirSync(replicas)).toEqual([]);
}, 120_000);
