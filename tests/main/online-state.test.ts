import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { call, settledSync, testCore } from '../support/core';
import { noFaults, openProxiedCore, type ProxiedCore } from '../support/proxied-core';
import { tempDir } from '../support/temp';

// The top bar's online state follows the server within 2 s (issue 30): with the core's own
// health-check timing (no test overrides), a server that goes away, refusing connections or
// dropping packets silently, shows offline within 2 s, and one that comes back shows online
// within 2 s, between syncs.

let stage: ProxiedCore;
let core: Core;
const desktop = tempDir('contract-desk-online-state-');

beforeAll(async () => {
  stage = await openProxiedCore('online-state', 30);
  core = testCore(desktop.path, { serverUrl: stage.proxy.url, syncIntervalMs: 3_600_000 });
  await call(core, 'session.signIn', { serverUrl: stage.proxy.url, username: 'admin', password: 'admin123' });
  await settledSync(core);
}, 120_000);

afterAll(async () => {
  await core?.close();
  await stage?.close();
  desktop.cleanup();
});

/** How long until the core's status says `online`, polled every 50 ms for up to 10 s. */
async function secondsUntil(online: boolean): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 10_000) {
    if ((await call(core, 'sync.status', {})).online === online) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Infinity;
}

describe('the online state between syncs', () => {
  it('turns offline within 2 s of a refusing server and online within 2 s of its return', async () => {
    // A stopped server: its connections closed, new ones refused.
    stage.proxy.faults = { ...noFaults, refuse: true };
    stage.proxy.cutAll();
    expect(await secondsUntil(false)).toBeLessThan(2);
    stage.proxy.faults = { ...noFaults };
    expect(await secondsUntil(true)).toBeLessThan(2);
  }, 60_000);

  it('turns offline within 2 s of a network that drops packets silently', async () => {
    stage.proxy.faults = { ...noFaults, silent: true };
    expect(await secondsUntil(false)).toBeLessThan(2);
    stage.proxy.faults = { ...noFaults };
    expect(await secondsUntil(true)).toBeLessThan(2);
  }, 60_000);
});
