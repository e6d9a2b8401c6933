import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performanceSchema } from '../../src-shared/domain/performance';
import { definitionMessages } from '../../src-shared/rules/performance-definitions';
import { call } from '../support/core';
import { noFaults, openProxiedCore, type ProxiedCore } from '../support/proxied-core';

// Performance definitions and the credit platform switch through the app's path (issue 28 items
// 1 and 10): the core's online.call writes them while the server can be reached, refuses at once
// what the server's rules would refuse, and refuses every one of them at once with 'offline' while
// the server is away (the network dropping packets silently), writing nothing; the list is then
// the kept copy as of its time.

let stage: ProxiedCore;

async function rest<T>(path: string): Promise<T> {
  const response = await fetch(`${stage.server.url}/api/v1/${path}`, { headers: { authorization: `Bearer ${stage.token}` } });
  return ((await response.json()) as { data: T }).data;
}
const serverPerformances = async () => (await rest<{ performanceList: { id: string; name: string; version: number }[] }>('performances/list')).performanceList;

const columns = [
  { id: 'name', name: 'performance content', type: 'text', isRequired: true },
  { id: 'expirationTime', name: 'performance date', type: 'date', isRequired: true },
  { id: 'payableAmount', name: 'payable amount', type: 'money', isRequired: true },
  { id: 'method', name: 'Payment method', type: 'select', config: { options: [{ id: 'wire', name: 'Wire' }] } },
];

beforeAll(async () => {
  stage = await openProxiedCore('definitions', 28);
}, 120_000);

afterAll(() => stage?.close());

describe('performance definitions and the credit switch through online.call', () => {
  let created: { id: string; version: number };

  it('creates and edits a definition on the server, and reads the list through cached.read', async () => {
    const { core } = stage;
    created = performanceSchema.parse(await call(core, 'online.call', { endpoint: 'performanceCreate', body: { name: 'Supplier payment', type: 'payment', columns } }));
    const edited = await call(core, 'online.call', {
      endpoint: 'performanceUpdate',
      params: { id: created.id },
      body: { name: 'Supplier payments', version: created.version },
    });
    expect(edited).toMatchObject({ name: 'Supplier payments', version: created.version + 1 });
    expect((await serverPerformances()).find((performance) => performance.id === created.id)?.name).toBe('Supplier payments');
    const listed = await call(core, 'cached.read', { endpoint: 'performanceList' });
    expect(listed.offline).toBe(false);
    expect(JSON.stringify(listed.value)).toContain('Supplier payments');
  });

  it("refuses at once, with the rule's message, a definition the server would refuse", async () => {
    const refused = await stage.core.invoke('online.call', {
      endpoint: 'performanceCreate',
      body: { name: 'No options', type: 'payment', columns: [...columns.slice(0, 3), { id: 'method', name: 'Payment method', type: 'multiselect' }] },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation_failed', issues: [expect.objectContaining({ message: definitionMessages.optionsRequired })] } });
    expect((await serverPerformances()).map((performance) => performance.name)).not.toContain('No options');
  });

  it("refuses every write at once with 'offline' while the server is away, and the list is the kept copy as of its time", async () => {
    const { core, proxy } = stage;
    const before = await serverPerformances();
    const settings = await rest<{ creditPlatformEnabled: boolean }>('organisation/settings');
    proxy.faults = { ...noFaults, silent: true };
    await stage.online(false);

    const writes = [
      { endpoint: 'performanceCreate', body: { name: 'During the outage', type: 'payment', columns } },
      { endpoint: 'performanceUpdate', params: { id: created.id }, body: { name: 'Renamed offline', version: created.version + 1 } },
      { endpoint: 'performanceDelete', params: { id: created.id } },
      { endpoint: 'organisationSettingsUpdate', body: { creditPlatformEnabled: !settings.creditPlatformEnabled } },
    ];
    for (const write of writes) {
      const started = performance.now();
      const refused = await core.invoke('online.call', write);
      expect(refused, write.endpoint).toMatchObject({ ok: false, error: { code: 'offline' } });
      expect(performance.now() - started).toBeLessThan(300);
    }
    const kept = await call(core, 'cached.read', { endpoint: 'performanceList' });
    expect(kept.offline).toBe(true);
    expect(JSON.stringify(kept.value)).toContain('Supplier payments');

    proxy.faults = { ...noFaults };
    await stage.online(true);
    expect(await serverPerformances()).toEqual(before);
    expect(await rest('organisation/settings')).toEqual(settings);
  }, 60_000);
});
