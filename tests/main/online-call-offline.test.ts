import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitFor } from '../support/core';
import { noFaults, openProxiedCore, type ProxiedCore } from '../support/proxied-core';

// Issue 15, item 7: a server-only write is refused at once with 'offline' while the server is
// away, even when the network drops its packets silently (no refusal, no reset: a plain call
// would hang for the client's whole timeout). The core reads its sync's online flag, which a
// short health check sets; the server is asked again when it comes back.

let stage: ProxiedCore;

async function serverProjects(): Promise<string[]> {
  const response = await fetch(`${stage.server.url}/api/v1/project/list?pageSize=100`, { headers: { authorization: `Bearer ${stage.token}` } });
  return ((await response.json()) as { data: { list: { name: string }[] } }).data.list.map((project) => project.name);
}

beforeAll(async () => {
  stage = await openProxiedCore('online-call', 15);
}, 120_000);

afterAll(() => stage?.close());

describe('online.call while the network drops packets silently', () => {
  it("refuses a write with 'offline' well under a second, writes nothing, and writes again once the server is back", async () => {
    const { core, proxy } = stage;
    await call(core, 'online.call', { endpoint: 'projectCreate', body: { name: 'Before the outage' } });
    expect(await serverProjects()).toContain('Before the outage');

    proxy.faults = { ...noFaults, silent: true };
    await stage.online(false);

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
