import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { draftingStore } from '../../src-main/core/contracts/drafting-store';
import { openReplica } from '../../src-main/core/data/replica';
import { clientMigrationsDir } from '../../src-main/paths';
import type { DraftingCatalogue } from '../../src-shared/ipc/drafting';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// The offline drafting catalogue (issue 6): fetched when a session opens (a new replica's once its
// first sync ended), kept in the signed-in
// user's replica across restarts, served offline (templates, party search), fetched again after
// a sync once old, and never shown to another user.

const serverDir = tempDir('contract-desk-server-');
const desktop = tempDir('contract-desk-catalogue-');
let server: RunningServer | null = null;
let port = 0;
let serverUrl = '';
const cores: Core[] = [];

async function startServer() {
  server = await startContractServer({ port, dataDir: serverDir.path });
  serverUrl = server.url;
  port = Number(new URL(server.url).port);
}

function openCore(catalogueStaleMs = 3_600_000) {
  const core = testCore(desktop.path, { syncSoonMs: 20, connectivityProbeMs: 100, syncBackoffMs: 50, catalogueStaleMs });
  cores.push(core);
  return core;
}

const fetched = (core: Core, after: string | null = null) =>
  waitFor(async () => {
    const catalogue = await call(core, 'drafting.catalogue', {});
    return catalogue.refreshedAt !== null && catalogue.refreshedAt !== after ? catalogue : undefined;
  });

async function serverView(username: string, password: string) {
  const client = createContractServerClient(serverUrl);
  const { token } = await client.call('login', { body: { username, password } });
  const templates = await client.call('templateList', { token, query: { pageSize: 100 } });
  const outer = await client.call('counterpartyList', { token, query: { type: 2, pageSize: 100 } });
  return { approved: templates.list.filter((t) => t.status === 4), outer };
}

beforeAll(async () => {
  await seedDemoData({ contracts: 10, seed: 17, dataDir: serverDir.path });
  await startServer();
}, 120_000);

afterAll(async () => {
  for (const core of cores) await core.close();
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
  desktop.cleanup();
});

describe('drafting catalogue', () => {
  let alices: DraftingCatalogue;

  it('is fetched when the session opens (a first one once its first sync ended): approved templates with fields and clauses, types, numbering, parties', async () => {
    const core = openCore();
    let lastPulled: number | null = null;
    core.subscribe((event, payload) => {
      if (event === 'sync.statusChanged' && 'phase' in payload && payload.phase === 'pulling' && payload.pulled > 0) lastPulled = Date.now();
    });
    await call(core, 'session.signIn', { serverUrl, username: 'alice', password: 'alice123' });
    alices = await fetched(core);
    // The first sync had the link and the server to itself: the fetch began after its last page.
    expect(lastPulled).not.toBeNull();
    expect(Date.parse(alices.refreshedAt!)).toBeGreaterThanOrEqual(lastPulled!);
    const truth = await serverView('alice', 'alice123');
    expect(alices.templates.map((t) => t.id).sort()).toEqual(truth.approved.map((t) => t.id).sort());
    const purchase = alices.templates.find((t) => t.name.includes('采购'))!;
    const detail = await call(core, 'drafting.template', { id: purchase.id });
    expect(detail.fields.map((f) => f.id)).toContain('contractName');
    expect(detail.clauses.map((c) => c.labelID)).toEqual(['payment', 'dispute']);
    expect(alices.contractTypes.length).toBeGreaterThan(3);
    // The seeded types are one level: none only groups others.
    expect(alices.contractTypes.every((t) => !t.disabled)).toBe(true);
    expect(alices.numberingPreview.length).toBeGreaterThan(0);
    expect(alices.isNumberEditor).toBe(false);

    const outer = await call(core, 'drafting.searchParties', { partyType: 2, pageNum: 1, pageSize: 100 });
    expect(outer.count).toBe(truth.outer.count);
    const name = truth.outer.list[0]!.name;
    const found = await call(core, 'drafting.searchParties', { keyword: name.slice(2, 6), partyType: 2, pageSize: 100 });
    expect(found.list.map((p) => p.name)).toContain(name);
    expect(found.list.every((p) => p.partyType === 2 && p.name.includes(name.slice(2, 6)))).toBe(true);
    const pageTwo = await call(core, 'drafting.searchParties', { partyType: 2, pageNum: 2, pageSize: 3 });
    expect(pageTwo.list).toEqual(outer.list.slice(3, 6));
    expect(await call(core, 'drafting.searchParties', { keyword: '%_' })).toEqual({ list: [], count: 0 });
    await settledSync(core);
  });

  it('survives a restart and serves drafting offline', async () => {
    await cores.pop()!.close();
    await server!.close();
    server = null;
    const core = openCore();
    expect(await call(core, 'drafting.catalogue', {})).toEqual(alices);
    const template = await call(core, 'drafting.template', { id: alices.templates[0]!.id });
    expect(template.id).toBe(alices.templates[0]!.id);
    expect((await call(core, 'drafting.searchParties', { partyType: 1 })).count).toBeGreaterThan(0);
    // Offline a refresh answers the kept catalogue.
    expect(await call(core, 'drafting.refresh', {})).toEqual(alices);
    await startServer();
  });

  it('is fetched again after a sync once older than its limit, and not before', async () => {
    await call(cores[cores.length - 1]!, 'sync.now', {});
    expect((await call(cores[cores.length - 1]!, 'drafting.catalogue', {})).refreshedAt).toBe(alices.refreshedAt);
    await cores.pop()!.close();
    // The kept templates have the server's versions: the refresh lists them and fetches none again.
    const requests = vi.spyOn(globalThis, 'fetch');
    try {
      const eager = openCore(1);
      await call(eager, 'sync.now', {});
      const refreshed = await fetched(eager, alices.refreshedAt);
      expect(refreshed.templates).toEqual(alices.templates);
      alices = refreshed;
      const urls = requests.mock.calls.map(([input]) => String(input instanceof Request ? input.url : input));
      expect(urls.some((url) => /\/api\/v1\/templates\?/.test(url))).toBe(true);
      expect(urls.filter((url) => /\/api\/v1\/templates\/[^/?]+$/.test(url) && !url.endsWith('/catalogue_version'))).toEqual([]);
    } finally {
      requests.mockRestore();
    }
    await cores.pop()!.close();
  });

  it('has a template an approver approved at the drafter\'s next sync, long before the catalogue is stale', async () => {
    // Spied before the core opens: its contract-server client takes fetch when it is made.
    const requests = vi.spyOn(globalThis, 'fetch');
    const urlOf = (input: unknown) => String(input instanceof Request ? input.url : input);
    /** Syncs, and waits until the round's check of the catalogue's version was answered. */
    async function syncAndCheck(core: Core) {
      const before = requests.mock.calls.length;
      await call(core, 'sync.now', {});
      const asked = await waitFor(() => {
        const i = requests.mock.calls.findIndex(([input], at) => at >= before && urlOf(input).includes('/templates/catalogue_version'));
        return i < 0 ? undefined : (requests.mock.results[i]!.value as Promise<Response>);
      });
      await asked;
      // A fetch the answer starts is under way within a tick.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return requests.mock.calls.slice(before).map(([input]) => urlOf(input));
    }
    try {
      const core = openCore();
      await settledSync(core);
      const kept = await call(core, 'drafting.catalogue', {});
      const client = createContractServerClient(serverUrl);
      const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
      const body = { name: 'NDA 2027', fields: [{ id: 'contractName', name: '合同名称', type: 'text' as const, required: true }], clauses: [] };
      const created = await client.call('createTemplate', { token, body });
      await client.call('submitTemplate', { token, params: { id: created.id }, body: {} });
      // Submitted is not approved: the round finds the catalogue's version unmoved and fetches nothing.
      expect((await syncAndCheck(core)).filter((url) => /\/api\/v1\/templates\?/.test(url))).toEqual([]);
      expect(await call(core, 'drafting.catalogue', {})).toEqual(kept);
      await client.call('approveTemplate', { token, params: { id: created.id }, body: { comment: 'fine' } });
      await syncAndCheck(core);
      const refreshed = await fetched(core, kept.refreshedAt);
      expect(refreshed.templates.map((t) => t.id)).toContain(created.id);
      expect((await call(core, 'drafting.template', { id: created.id })).fields).toEqual(body.fields);
      alices = refreshed;
      await cores.pop()!.close();
    } finally {
      requests.mockRestore();
    }
  });

  it('belongs to the signed-in user: another user never sees it, and it is back when its user signs in again', async () => {
    const core = openCore();
    await call(core, 'session.signOut', {});
    expect(await core.invoke('drafting.catalogue', {})).toMatchObject({ ok: false, error: { code: 'not_signed_in' } });
    await call(core, 'session.signIn', { serverUrl, username: 'carol', password: 'carol123' });
    const carols = await fetched(core);
    expect(carols.isNumberEditor).toBe(true);
    expect(carols.refreshedAt).not.toBe(alices.refreshedAt);
    await call(core, 'session.signOut', {});
    await call(core, 'session.signIn', { serverUrl, username: 'alice', password: 'alice123' });
    expect(await call(core, 'drafting.catalogue', {})).toEqual(alices);
  });

  it('keeps each user apart even within one replica file', () => {
    const replica = openReplica(join(desktop.path, 'shared.sqlite'), clientMigrationsDir);
    const template = { id: 't1', name: 'T', templateNumber: null, contractTypeId: null, status: 4 as const, fields: [], clauses: [], createTime: 'x', updateTime: 'x', version: 1 };
    draftingStore(replica, 'u1').save({
      refreshedAt: '2026-11-21T00:00:00.000Z', templates: [template], contractTypes: [], numberingPreview: [], isNumberEditor: true,
      counterparties: [{ id: 'p1', name: 'ACME', partyType: 2, creditCode: null }],
    });
    const other = draftingStore(replica, 'u2');
    expect(other.catalogue()).toEqual({ refreshedAt: null, templates: [], contractTypes: [], numberingPreview: [], isNumberEditor: false });
    expect(other.template('t1')).toBeNull();
    expect(other.searchParties({ keyword: '', pageNum: 1, pageSize: 20 })).toEqual({ list: [], count: 0 });
    expect(draftingStore(replica, 'u1').template('t1')).toEqual(template);
    replica.close();
  });
});
