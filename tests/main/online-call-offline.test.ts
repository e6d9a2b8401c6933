import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';
import { noFaults, startFaultProxy, type FaultProxy } from './fault-proxy';

// Issue 15, item 7: a server-only write is refused at once with 'offline' while the server is
// away, even when the network drops its packets silently (no refusal, no reset: a plain call
// would hang for the client's whole timeout). The core reads its sync's online flag, which a
// short health check sets; the server is asked again when it comes back.

const serverDir = tempDir('contract-desk-online-call-server-');
const desktop = tempDir('contract-desk-online-call-');
let server: RunningServer;
let proxy: FaultProxy;
let core: Core;
let token = '';

async function serverProjects(): Promise<string[]> {
  const response = await fetch(`${server.url}/api/v1/project/list?pageSize=100`, { headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as { data: { list: { name: string }[] } }).data.list.map((project) => project.name);
}

beforeAll(async () => {
  await seedDemoData({ contracts: 5, seed: 15, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  proxy = await startFaultProxy(Number(new URL(server.url).port));
  const login = await fetch(`${server.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin123' }) });
  token = ((await login.json()) as { data: { token: string } }).data.token;
  core = testCore(desktop.path, { serverUrl: proxy.url, connectivityProbeMs: 200, connectivityProbeTimeoutMs: 500, syncSoonMs: 50 });
  await call(core, 'session.signIn', { serverUrl: proxy.url, username: 'admin', password: 'admin123' });
  await settledSync(core);
}, 120_000);

afterAll(async () => {
  await core?.close();
  await proxy?.close();
  await server?.close();
  desktop.cleanup();
  serverDir.cleanup();
});

describe('online.call while the network drops packets silently', () => {
  it("refuses a write with 'offline' well under a second, writes nothing, and writes again once the server is back", async () => {
    await call(core, 'online.call', { endpoint: 'projectCreate', body: { name: 'Before the outage' } });
    expect(await serverProjects()).toContain('Before the outage');

    proxy.faults = { ...noFaults, silent: true };
    await waitFor(async () => ((await call(core, 'sync.status', {})).online ? undefined : true), 10_000);

    const started = performance.now();
    const refused = await core.invoke('online.call', { endpoint: 'projectCreate', body: { name: 'During the outage' } });
    const elapsed = performance.now() - started;
    expect(refused).toMatchObject({ ok: false, error: { code: 'offline' } });
    expect(elapsed).toBeLessThan(300);
    expect(await serverProjects()).not.toContain('During the outage');

    proxy.faults = { ...noFaults };
    // A refusal asks for a fresh health check: the returning server is noticed without waiting for the next interval.
    await waitFor(async () => {
      const result = await core.invoke('online.call', { endpoint: 'projectCreate', body: { name: 'After the outage' } });
      return result.ok ? true : undefined;
    }, 10_000);
    expect(await serverProjects()).toContain('After the outage');
  }, 60_000);
});
