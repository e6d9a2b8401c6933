import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { sceneMessages } from '../../src-shared/domain/ledger';
import { call, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

// Scenes edited offline (issue 14): the real core against the real server through a proxy that
// plays the network. Made, renamed, reordered, made the default and deleted while the server
// cannot be reached, checked at once by the shared rules, then sent on reconnect: the server
// ends with exactly the list the user saw offline. Edits merge per field; a field changed on both sides is a conflict.

const serverDir = tempDir('scenes-offline-server-');
let server: RunningServer;
let proxy: FaultProxy;

beforeAll(async () => {
  await seedDemoData({ contracts: 40, seed: 5, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  proxy = await startFaultProxy(Number(new URL(server.url).port));
});

afterAll(async () => {
  await proxy?.close();
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
});

const shape = (scenes: readonly { id: string; name: string; isDefault: boolean; titleIDs: string[]; filterIDs: string[]; filter: unknown[]; performanceId: string | null }[]) =>
  scenes.map(({ id, name, isDefault, titleIDs, filterIDs, filter, performanceId }) => ({ id, name, isDefault, titleIDs, filterIDs, filter, performanceId }));

describe('scenes edited offline', () => {
  const desktop = tempDir('scenes-offline-core-');
  let core: Core;
  let token: string;
  const rest = () => createContractServerClient(server.url);

  beforeAll(async () => {
    core = testCore(desktop.path);
    await call(core, 'session.signIn', { serverUrl: proxy.url, username: 'alice', password: 'alice123' });
    await waitFor(async () => ((await call(core, 'scene.list', {})).length >= 3 ? true : undefined));
    token = (await rest().call('login', { body: { username: 'alice', password: 'alice123' } })).token;
  });

  afterAll(async () => {
    await core?.close();
    desktop.cleanup();
  });

  async function drained() {
    await call(core, 'sync.now', {});
    return waitFor(async () => {
      const status = await call(core, 'sync.status', {});
      if (status.queued !== 0 || status.phase !== 'idle' || status.error !== null) return undefined;
      const scenes = await call(core, 'scene.list', {});
      return scenes.every((scene) => !scene.pending) ? status : undefined;
    }, 30_000);
  }

  it('pulls the system scenes and the seeded one, exactly as the server lists them', async () => {
    const local = await call(core, 'scene.list', {});
    const remote = await rest().call('ledgerScenes', { token });
    expect(shape(local)).toEqual(shape(remote));
    expect(local.filter((scene) => scene.isSystem)).toHaveLength(2);
    expect(local.filter((scene) => scene.isDefault)).toHaveLength(1);
  });

  it('makes, edits, reorders, defaults and deletes scenes offline, and the server ends with exactly that list', async () => {
    proxy.faults.refuse = true;
    proxy.cutAll();
    const before = await call(core, 'scene.list', {});
    const seeded = before.find((scene) => !scene.isSystem)!;
    const system = before.find((scene) => scene.isSystem)!;

    // Refused at once, as the server would refuse them; nothing is queued.
    expect(await core.invoke('scene.create', { name: '   ' })).toMatchObject({ ok: false, error: { message: expect.stringContaining(sceneMessages.nameEmpty) } });
    expect(await core.invoke('scene.create', { name: ` ${seeded.name} ` })).toMatchObject({ ok: false, error: { message: sceneMessages.nameDuplicated } });
    expect(await core.invoke('scene.create', { name: 'x'.repeat(51) })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await core.invoke('scene.delete', { id: system.id })).toMatchObject({ ok: false, error: { message: sceneMessages.systemUndeletable } });
    expect(await core.invoke('scene.create', { name: 'Bad columns', titleIDs: ['nope'] })).toMatchObject({ ok: false, error: { message: 'unknown ledger field: nope' } });
    expect((await call(core, 'sync.status', {})).queued).toBe(0);

    const q1 = await call(core, 'scene.create', {
      name: '  Q1 receivables ',
      titleIDs: ['contractName', 'receivableAmount'],
      filterIDs: ['taskType', 'expirationTime'],
      filter: [{ id: 'expirationTime', type: 'date', condition: { gte: '2026-01-01', lte: '2026-03-31' } }],
    });
    const overdue = await call(core, 'scene.create', { name: 'Overdue', filterIDs: ['taskState'] });
    await call(core, 'scene.update', { id: overdue.id, patch: { name: 'Overdue tasks', titleIDs: ['taskState', 'expirationTime'] } });
    expect(await core.invoke('scene.update', { id: overdue.id, patch: { name: 'Q1 receivables' } })).toMatchObject({ ok: false, error: { message: sceneMessages.nameDuplicated } });
    const order = [q1.id, ...before.map((scene) => scene.id), overdue.id];
    await call(core, 'scene.reorder', { ids: order });
    await call(core, 'scene.setDefault', { id: q1.id });
    await call(core, 'scene.delete', { id: seeded.id });

    const offline = await call(core, 'scene.list', {});
    expect(offline.map((scene) => scene.name)).toEqual(['Q1 receivables', ...before.filter((s) => s.id !== seeded.id).map((s) => s.name), 'Overdue tasks']);
    expect(offline.filter((scene) => scene.isDefault).map((scene) => scene.id)).toEqual([q1.id]);
    expect(offline.find((scene) => scene.id === overdue.id)).toMatchObject({ titleIDs: ['name', 'taskState', 'expirationTime'], pending: true });
    expect((await call(core, 'sync.status', {})).queued).toBe(6);

    proxy.faults.refuse = false;
    await drained();
    const local = await call(core, 'scene.list', {});
    const remote = await rest().call('ledgerScenes', { token });
    expect(shape(remote)).toEqual(shape(offline));
    expect(shape(local)).toEqual(shape(remote));
    expect((await call(core, 'sync.status', {})).problems).toEqual([]);
  });

  it('keeps the later default: a scene made offline and made the default, then an existing one made the default, ends on the existing one', async () => {
    proxy.faults.refuse = true;
    proxy.cutAll();
    const existing = (await call(core, 'scene.list', {})).find((scene) => !scene.isDefault)!;
    const made = await call(core, 'scene.create', { name: 'Made offline, default for a while' });
    await call(core, 'scene.setDefault', { id: made.id });
    await call(core, 'scene.setDefault', { id: existing.id });
    const offline = await call(core, 'scene.list', {});
    expect(offline.filter((scene) => scene.isDefault).map((scene) => scene.id)).toEqual([existing.id]);

    proxy.faults.refuse = false;
    await drained();
    const local = await call(core, 'scene.list', {});
    const remote = await rest().call('ledgerScenes', { token });
    expect(remote.filter((scene) => scene.isDefault).map((scene) => scene.id)).toEqual([existing.id]);
    expect(shape(local)).toEqual(shape(remote));
    expect(shape(remote)).toEqual(shape(offline));
    expect((await call(core, 'sync.status', {})).problems).toEqual([]);
  });

  it('answers a rename made on both sides as a conflict on the name, and a scene deleted elsewhere leaves the replica', async () => {
    const scenes = await call(core, 'scene.list', {});
    const custom = scenes.filter((scene) => !scene.isSystem);
    const [first, second] = custom;
    // Another device renames one scene and deletes the other while this one is offline.
    const remoteList = await rest().call('ledgerScenes', { token });
    const saved = remoteList
      .filter((scene) => scene.id !== second!.id)
      .map(({ id, name, isDefault, isSystem, performanceId, filterIDs, titleIDs, filter }) => ({
        id, isSystem, performanceId, filterIDs, titleIDs, filter, name: id === first!.id ? 'Renamed elsewhere' : name, isDefault: second!.isDefault ? remoteList[0]!.id === id : isDefault,
      }));
    await rest().call('ledgerScenesSave', { token, body: saved });

    proxy.faults.refuse = true;
    proxy.cutAll();
    await call(core, 'scene.update', { id: first!.id, patch: { name: 'Renamed here, later' } });
    proxy.faults.refuse = false;
    await drained();

    // Both renamed it (per-field merge, sync rule 6): the other device's name stays until the user decides.
    const [problem] = (await call(core, 'sync.status', {})).problems;
    expect(problem).toMatchObject({ name: 'scene.update', state: 'conflict', error: { issues: [{ path: 'name' }] } });
    await call(core, 'sync.keepTheirs', { id: problem!.id });
    const local = await call(core, 'scene.list', {});
    const remote = await rest().call('ledgerScenes', { token });
    expect(remote.find((scene) => scene.id === first!.id)?.name).toBe('Renamed elsewhere');
    expect(remote.some((scene) => scene.id === second!.id)).toBe(false);
    expect(shape(local)).toEqual(shape(remote));
  });
});
