import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import type { TemplateDetail } from '../../src-shared/domain/contract-forms';
import { seedDemoData } from '../../src-server';
import { stoppableServer } from '../support/stoppable-server';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// Issue 29 against the real contract server: a party typed in ('new party') on a laptop offline
// becomes one counterparty when the draft reaches the server, with the id the laptop gave it, so
// the contract, the ledger, REST and the counterparty search all name it; the approval trail
// (every step with who, the comment, when taken and when applied) reaches the replica through the
// feed, a step taken offline with the laptop's time; related-contract candidates are searched on
// the server online and in the replica offline; the party search carries each party's details.

const serverDir = tempDir('contract-desk-server-');
const aliceDir = tempDir('contract-desk-alice-');
const adminDir = tempDir('contract-desk-admin-');
const server = stoppableServer(serverDir.path);
let alice: Core;
let admin: Core;
let template: TemplateDetail;

const startServer = () => server.start();
const stopServer = () => server.stop();
const rest = (username: string, password: string) => server.rest(username, password);

const draft = (core: Core, name: string, counterparty: unknown[]) =>
  call(core, 'contract.create', { name, templateId: template.id, contractTypeId: null, contractNumber: null, formValues: { contractName: name, contractType: template.contractTypeId, counterparty } });
const detail = (core: Core, id: string) => call(core, 'contract.detail', { id });
const drained = (core: Core) => waitFor(async () => ((await call(core, 'sync.status', {})).queued === 0 ? true : undefined));

beforeAll(async () => {
  await seedDemoData({ contracts: 30, seed: 29, dataDir: serverDir.path });
  await startServer();
  alice = testCore(aliceDir.path, { syncSoonMs: 20, connectivityProbeMs: 100, syncBackoffMs: 50, catalogueStaleMs: 3_600_000 });
  admin = testCore(adminDir.path, { syncSoonMs: 20, connectivityProbeMs: 100, syncBackoffMs: 50, catalogueStaleMs: 3_600_000 });
  await call(alice, 'session.signIn', { serverUrl: server.url(), username: 'alice', password: 'alice123' });
  await call(admin, 'session.signIn', { serverUrl: server.url(), username: 'admin', password: 'admin123' });
  await settledSync(alice);
  await settledSync(admin);
  const catalogue = await waitFor(async () => {
    const kept = await call(alice, 'drafting.catalogue', {});
    return kept.refreshedAt === null ? undefined : kept;
  });
  template = await call(alice, 'drafting.template', { id: catalogue.templates.find((t) => t.name.includes('采购'))!.id });
}, 300_000);

afterEach(async () => {
  if (!server.running()) await startServer();
});

afterAll(async () => {
  await alice?.close();
  await admin?.close();
  await stopServer().catch(() => undefined);
  for (const dir of [serverDir, aliceDir, adminDir]) dir.cleanup();
});

describe('parties, related contracts and the approval trail against the contract server', () => {
  it('makes a new party typed in offline one counterparty at sync, named by the contract everywhere, exactly once', async () => {
    await stopServer();
    const first = await draft(alice, 'newco chairs', [{ id: 0, name: '  Newco Trading  ' }]);
    const [party] = (await detail(alice, first.id)).formValues.counterparty as [{ id: string; name: string; isNew?: true }];
    expect(party).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Newco Trading', isNew: true });
    // Shown at once, and found by the pickers offline.
    expect(await detail(alice, first.id)).toMatchObject({ counterpartName: 'Newco Trading' });
    expect((await call(alice, 'drafting.searchParties', { keyword: 'Newco', partyType: 2 })).list.map((p) => p.id)).toEqual([party.id]);
    // Saved again offline and named by a second draft: still the one party.
    await call(alice, 'contract.saveForm', { id: first.id, name: 'newco chairs', contractTypeId: template.contractTypeId, formValues: { counterparty: [party] } });
    expect((await detail(alice, first.id)).formValues.counterparty).toEqual([party]);
    const second = await draft(alice, 'newco desks', [party]);

    await startServer();
    await call(alice, 'sync.now', {});
    await drained(alice);
    expect((await call(alice, 'sync.status', {})).problems).toEqual([]);
    const { client, token } = await rest('alice', 'alice123');
    const made = await client.call('counterpartyList', { token, query: { type: 2, q: 'Newco', pageNum: 1, pageSize: 20 } });
    expect(made.list.map((row) => [row.id, row.name])).toEqual([[party.id, 'Newco Trading']]);
    for (const id of [first.id, second.id]) {
      expect((await client.call('contractDetail', { token, params: { id } })).formValues.counterparty).toEqual([{ id: party.id, name: 'Newco Trading' }]);
    }
    const listed = await client.call('contractList', { token, query: { q: 'newco', pageNum: 1, pageSize: 10 } });
    expect(listed.list.map((c) => c.counterpartName)).toEqual(['Newco Trading', 'Newco Trading']);
    // The replica holds the server's rows: the ledger names it, and the cooperation pairs the two by the counterparty's id.
    await waitFor(async () => ((await detail(alice, second.id)).pending ? undefined : true));
    expect((await call(alice, 'ledger.contractPage', { pageNum: 1, pageSize: 10, q: 'newco' })).list.map((c) => c.counterpartName)).toEqual(['Newco Trading', 'Newco Trading']);
    expect((await call(alice, 'contract.cooperation', { id: first.id })).map((row) => row.contractID)).toEqual([second.id]);
    // Found by the search while online, with what the server knows of it.
    const found = (await call(alice, 'drafting.searchParties', { keyword: 'Newco', partyType: 2 })).list;
    expect(found).toMatchObject([{ id: party.id, name: 'Newco Trading', fieldDetailMap: { rating: 0, riskCount: 0 } }]);
  });

  it("takes a party marked new that is already the organisation's counterparty as that counterparty: nothing is made twice", async () => {
    const { client, token } = await rest('alice', 'alice123');
    const existing = (await client.call('counterpartyList', { token, query: { type: 2, pageNum: 1, pageSize: 1 } })).list[0]!;
    // Its own organisation's counterparty named as new is that counterparty: nothing is made twice.
    const named = await draft(alice, 'same party again', [{ id: existing.id, name: existing.name, isNew: true }]);
    await drained(alice);
    expect((await call(alice, 'sync.status', {})).problems).toEqual([]);
    expect((await client.call('contractDetail', { token, params: { id: named.id } })).formValues.counterparty).toEqual([{ id: existing.id, name: existing.name }]);
    expect((await client.call('counterpartyList', { token, query: { type: 2, q: existing.name, pageNum: 1, pageSize: 20 } })).list.filter((row) => row.name === existing.name)).toHaveLength(1);
  });

  it('keeps every approval step with who, the comment, the time taken on the laptop and the time applied, through the feed', async () => {
    const drafted = await draft(alice, 'trail chairs', [{ id: 0, name: 'Trail Supplies' }]);
    await drained(alice);
    await stopServer();
    await call(alice, 'contract.approvalStep', { id: drafted.id, action: 'submit', comment: 'drafted on the train' });
    const offline = await call(alice, 'contract.alterations', { id: drafted.id });
    expect(offline.localChanges.filter((c) => c.name === 'contract.approvalStep')).toMatchObject([{ state: 'pending', step: { action: 'submit', comment: 'drafted on the train' } }]);
    const queuedAt = offline.localChanges.find((c) => c.name === 'contract.approvalStep')!.createdAt;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await startServer();
    await call(alice, 'sync.now', {});
    await drained(alice);

    // A round already running (or backed off while the server was down) may predate alice's push: ask again until it is seen.
    await waitFor(async () => (await call(admin, 'sync.now', {}), (await detail(admin, drafted.id)).status === 2 ? true : undefined), 60_000);
    await call(admin, 'contract.approvalStep', { id: drafted.id, action: 'approve', comment: 'terms are fine' });
    await drained(admin);
    await waitFor(async () => (await call(alice, 'sync.now', {}), (await detail(alice, drafted.id)).status === 4 ? true : undefined), 60_000);

    const history = await call(alice, 'contract.alterations', { id: drafted.id });
    expect(history.approvalTrail).toMatchObject([
      { action: 'submit', fromStatus: 1, toStatus: 2, userName: expect.any(String), comment: 'drafted on the train' },
      { action: 'approve', fromStatus: 2, toStatus: 4, comment: 'terms are fine' },
    ]);
    const [submitted, approved] = history.approvalTrail;
    // Taken when the laptop queued it; applied once the server was back.
    expect(Math.abs(Date.parse(submitted!.takenAt) - Date.parse(queuedAt))).toBeLessThan(1000);
    expect(Date.parse(submitted!.appliedAt)).toBeGreaterThan(Date.parse(queuedAt) + 40);
    expect(approved!.userName).not.toBe(submitted!.userName);
    // The trail is the replica's: offline it is there too.
    await stopServer();
    expect((await call(alice, 'contract.alterations', { id: drafted.id })).approvalTrail).toEqual(history.approvalTrail);
  });

  it('searches related-contract candidates by name or number on the server, and in the replica offline', async () => {
    const [seeded] = (await call(alice, 'ledger.contractPage', { pageNum: 1, pageSize: 5 })).list;
    // The server is back (the test before stopped it): the core finds it again at its next probe.
    const online = await waitFor(async () => {
      const answer = await call(alice, 'drafting.relatedCandidates', { q: seeded!.contractNumber! });
      return answer.offline ? undefined : answer;
    });
    expect(online).toMatchObject({ offline: false, list: [{ id: seeded!.id, name: seeded!.name, contractNumber: seeded!.contractNumber }] });
    expect((await call(alice, 'drafting.relatedCandidates', { q: 'trail chairs' })).list.map((c) => c.name)).toEqual(['trail chairs']);
    await stopServer();
    const { lastSyncAt } = await call(alice, 'sync.status', {});
    expect(await call(alice, 'drafting.relatedCandidates', { q: seeded!.contractNumber! })).toEqual({ offline: true, asOf: lastSyncAt, list: [{ id: seeded!.id, name: seeded!.name, contractNumber: seeded!.contractNumber }] });
    const drafted = await draft(alice, 'offline related pick', [{ id: 0, name: 'Pick Ltd' }]);
    expect((await call(alice, 'drafting.relatedCandidates', { q: 'related pick' })).list.map((c) => c.id)).toEqual([drafted.id]);
  });
});
