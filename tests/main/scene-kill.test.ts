import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { tempDir } from '../support/temp';
import { waitFor } from '../support/core';
import { CoreChild, pendingIn } from './core-child';
import { noFaults, startFaultProxy, type FaultProxy } from './fault-proxy';

// Scene edits queued offline (issue 14), then a kill -9 of the core while they drain: after a
// restart the server holds each edit exactly once — every scene made once, renamed, the deleted
// one gone, the default where the user put it.

const serverDir = tempDir('scene-kill-server-');
const coreDir = tempDir('scene-kill-core-');
const cores: CoreChild[] = [];
let server: RunningServer;
let proxy: FaultProxy;

async function serverScenes() {
  const client = createContractServerClient(server.url);
  const { token } = await client.call('login', { body: { username: 'alice', password: 'alice123' } });
  return client.call('ledgerScenes', { token });
}

beforeAll(async () => {
  await seedDemoData({ contracts: 20, seed: 14, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  proxy = await startFaultProxy(Number(new URL(server.url).port));
}, 120_000);

afterAll(async () => {
  for (const core of cores) await core.kill9();
  await proxy?.close();
  await server?.close().catch(() => undefined);
  coreDir.cleanup();
  serverDir.cleanup();
});

describe('scene edits and a kill -9 of the core', () => {
  it('loses and duplicates nothing while the edits drain', async () => {
    const core = new CoreChild(coreDir.path, proxy.url);
    cores.push(core);
    await core.call('session.signIn', { serverUrl: proxy.url, username: 'alice', password: 'alice123' });
    await core.drained();
    const before = await core.call('scene.list', {});

    proxy.faults = { ...noFaults, refuse: true };
    proxy.cutAll();
    await waitFor(async () => ((await core.call('sync.status', {})).online ? undefined : true));
    const made: string[] = [];
    for (let i = 0; i < 12; i += 1) made.push((await core.call('scene.create', { name: `Scene ${i}`, titleIDs: ['taskType', 'expirationTime'] })).id);
    await core.call('scene.update', { id: made[3]!, patch: { name: 'Renamed three' } });
    await core.call('scene.delete', { id: made[5]! });
    await core.call('scene.setDefault', { id: made[7]! });
    const queued = pendingIn(core.dataDir);
    expect(queued).toBeGreaterThanOrEqual(11);
    // Names and defaults (the offline list may order edited scenes differently until the pull).
    const byName = (scenes: readonly { name: string; isDefault: boolean }[]) => scenes.map((scene) => [scene.name, scene.isDefault]).sort();
    const expected = byName(await core.call('scene.list', {}));

    // Back online, slowly: the kill lands while the server takes the edits, before their answers are back.
    proxy.faults = { ...noFaults, delayMs: 300 };
    await waitFor(() => (core.status?.phase === 'pushing' ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 450));
    await core.kill9();
    proxy.faults = { ...noFaults };
    expect(pendingIn(core.dataDir)).toBeGreaterThan(0);

    const restarted = new CoreChild(core.dataDir, proxy.url);
    cores.push(restarted);
    await restarted.call('sync.now', {});
    expect((await restarted.drained()).problems).toEqual([]);
    const onServer = await serverScenes();
    expect(byName(onServer)).toEqual(expected);
    expect(onServer).toHaveLength(before.length + 11);
    // And the replica, after the pull, lists exactly the server's scenes in the server's order.
    expect((await restarted.call('scene.list', {})).map((scene) => [scene.name, scene.isDefault])).toEqual(onServer.map((scene) => [scene.name, scene.isDefault]));
    await restarted.stop();
  }, 180_000);
});
