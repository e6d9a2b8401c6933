import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { demoUsers, seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { call, testCore } from '../support/core';
import { tempDir } from '../support/temp';

// 'directory.get': the server's users and departments while it answers, kept in the replica and
// answered from there "as of" their time once it is away; 'offline' when none were ever kept.

const serverDir = tempDir('contract-desk-directory-server-');
const alice = demoUsers.find((u) => u.username === 'alice')!;
let server: RunningServer | null = null;
let serverUrl = '';

beforeAll(async () => {
  await seedDemoData({ contracts: 5, seed: 5, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  serverUrl = server.url;
});

afterAll(async () => {
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
});

describe('the core’s directory', () => {
  const desktop = tempDir('contract-desk-directory-core-');
  let core: Core;
  let times = 0;
  // Each answer of the clock is a later minute, so a kept directory shows its own time.
  const clock = { now: () => new Date(Date.UTC(2026, 10, 23, 9, times++)) };
  afterAll(async () => {
    await core?.close();
    desktop.cleanup();
  });

  it('answers "offline" while none was ever fetched and the server is away', async () => {
    const lonely = tempDir('contract-desk-directory-lonely-');
    const offlineCore = testCore(lonely.path, { serverUrl });
    try {
      await call(offlineCore, 'session.signIn', { serverUrl, username: alice.username, password: alice.password });
      await server!.close();
      server = null;
      const answer = await offlineCore.invoke('directory.get', {});
      expect(answer).toMatchObject({ ok: false, error: { code: 'offline' } });
    } finally {
      await offlineCore.close();
      lonely.cleanup();
      server = await startContractServer({ port: Number(new URL(serverUrl).port), dataDir: serverDir.path });
    }
  });

  it('fetches the organisation’s users and departments while online', { timeout: 60_000 }, async () => {
    core = testCore(desktop.path, { serverUrl, clock });
    await call(core, 'session.signIn', { serverUrl, username: alice.username, password: alice.password });
    const directory = await call(core, 'directory.get', {});
    expect(directory.offline).toBe(false);
    expect(directory.users.find((u) => u.name === alice.displayName)?.department?.name).toBe(alice.department);
    expect(directory.departments.map((d) => d.name)).toContain(alice.department);
    expect(directory.users.length).toBeGreaterThan(demoUsers.length - 1);
  });

  it('answers the kept directory, as of its fetch, once the server is away', async () => {
    const online = await call(core, 'directory.get', {});
    await server!.close();
    server = null;
    const offline = await call(core, 'directory.get', {});
    expect(offline).toEqual({ ...online, offline: true });
  });
});
