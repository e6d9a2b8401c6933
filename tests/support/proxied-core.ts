import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { noFaults, startFaultProxy, type FaultProxy } from '../main/fault-proxy';
import { call, settledSync, testCore, waitFor } from './core';
import { tempDir } from './temp';

// A core signed in as admin to a seeded server through the fault proxy, settled, with a short
// health check: what the tests that take the network away under a running core start from.

export interface ProxiedCore {
  server: RunningServer;
  proxy: FaultProxy;
  core: Core;
  /** An admin token for REST calls straight to the server (past the proxy). */
  token: string;
  /** The signed-in user's id. */
  userId: string;
  /** The desktop data folder. */
  desktopDir: string;
  /** Waits until the core's sync says it is online (`on`) or offline. */
  online(on: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function openProxiedCore(name: string, seed: number, prepare?: (server: RunningServer, token: string) => Promise<void>): Promise<ProxiedCore> {
  const serverDir = tempDir(`contract-desk-${name}-server-`);
  const desktop = tempDir(`contract-desk-${name}-`);
  await seedDemoData({ contracts: 5, seed, dataDir: serverDir.path });
  const server = await startContractServer({ port: 0, dataDir: serverDir.path });
  const proxy = await startFaultProxy(Number(new URL(server.url).port));
  const login = await fetch(`${server.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin123' }) });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  await prepare?.(server, token);
  const core = testCore(desktop.path, { serverUrl: proxy.url, connectivityProbeMs: 200, connectivityProbeTimeoutMs: 500, syncSoonMs: 50 });
  const session = await call(core, 'session.signIn', { serverUrl: proxy.url, username: 'admin', password: 'admin123' });
  if (!session.signedIn) throw new Error('not signed in');
  await settledSync(core);
  return {
    server,
    proxy,
    core,
    token,
    userId: session.user.id,
    desktopDir: desktop.path,
    async online(on) {
      await waitFor(async () => ((await call(core, 'sync.status', {})).online === on ? true : undefined), 10_000);
    },
    async close() {
      await core.close();
      await proxy.close();
      await server.close();
      desktop.cleanup();
      serverDir.cleanup();
    },
  };
}

export { noFaults };
