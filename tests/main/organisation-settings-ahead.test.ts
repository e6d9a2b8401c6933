import { openKeptReplica } from '../support/replica-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicaPathFor } from '../../src-main/core/session/session-service';
import { call, waitFor } from '../support/core';
import { noFaults, openProxiedCore, type ProxiedCore } from '../support/proxied-core';

// Issue 13: the organisation's credit platform configuration (GET organisation/settings) gates
// the dashboard's risk reminders, not only the credit views. The core keeps it at sign-in and on
// every reconnect, so a device that never opened a credit view knows it offline, and knows a
// change made while it was away once it has been back online.

let stage: ProxiedCore;
let replicaPath = '';

async function setCreditPlatform(creditPlatformEnabled: boolean, server = stage.server, token = stage.token) {
  const response = await fetch(`${server.url}/api/v1/organisation/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ creditPlatformEnabled }),
  });
  expect(response.ok).toBe(true);
}

/** What the core keeps of the read, looked at in its replica file (no call that could fetch it). */
function kept(): unknown {
  const replica = openKeptReplica(replicaPath, { readonly: true });
  try {
    const value = replica.prepare(`select value from cached_reads where kind = 'organisationSettings'`).pluck().get() as string | undefined;
    return value === undefined ? undefined : JSON.parse(value);
  } finally {
    replica.close();
  }
}

async function online(on: boolean) {
  stage.proxy.faults = on ? { ...noFaults } : { ...noFaults, refuse: true };
  if (!on) stage.proxy.cutAll();
  await stage.online(on);
}

beforeAll(async () => {
  stage = await openProxiedCore('org-settings', 13, (server, token) => setCreditPlatform(true, server, token));
  replicaPath = replicaPathFor(stage.desktopDir, stage.proxy.url, stage.userId);
}, 120_000);

afterAll(() => stage?.close());

describe('the organisation settings kept ahead of any credit view', () => {
  it('are known offline after a sign-in that opened no credit view, and refreshed on reconnect', async () => {
    await waitFor(() => (kept() ? true : undefined), 10_000);
    await online(false);
    expect(await call(stage.core, 'cached.read', { endpoint: 'organisationSettings' })).toMatchObject({ value: { creditPlatformEnabled: true }, offline: true });

    // Changed on the server while this device is away: it knows once it is back, without asking itself.
    await setCreditPlatform(false);
    await online(true);
    await waitFor(() => ((kept() as { creditPlatformEnabled?: boolean } | undefined)?.creditPlatformEnabled === false ? true : undefined), 10_000);
    await online(false);
    expect(await call(stage.core, 'cached.read', { endpoint: 'organisationSettings' })).toMatchObject({ value: { creditPlatformEnabled: false }, offline: true });
    await online(true);
  }, 60_000);
});
