import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { syncProtocolVersion, syncSchemaVersion } from '../../src-shared/api/sync';
import type { TemplateDetail } from '../../src-shared/domain/contract-forms';
import { seedDemoData } from '../../src-server';
import { stoppableServer } from '../support/stoppable-server';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// Issue 6, part 5 against the real contract server: a contract drafted on a plane (server
// stopped) shows a provisional number at once, and the sync after landing confirms it, or
// replaces it with a notice when someone else took it meanwhile; alterations the server refuses
// the server would refuse are refused at once with its message; bad input changes nothing.

const serverDir = tempDir('contract-desk-server-');
const desktop = tempDir('contract-desk-drafting-');
const server = stoppableServer(serverDir.path);
let core: Core;
let template: TemplateDetail;
const events: { event: string; payload: unknown }[] = [];

const startServer = () => server.start();
const stopServer = () => server.stop();
/** A REST client of another user (another laptop), straight to the server. */
const otherClient = (username: string, password: string) => server.rest(username, password);

const values = (extra: Record<string, unknown> = {}) => ({ contractName: 'office chairs', contractType: template.contractTypeId, counterparty: [{ id: 0, name: 'ACME Ltd.' }], ...extra });
/** The values as saved: the party typed in has its counterparty's id, marked new until the server has made it. */
const savedValues = (saved: 'queued' | 'stored', extra: Record<string, unknown> = {}) =>
  values({ counterparty: [{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'ACME Ltd.', ...(saved === 'queued' && { isNew: true }) }], ...extra });
const draft = (name: string, extra: Record<string, unknown> = {}) =>
  call(core, 'contract.create', { name, templateId: template.id, contractTypeId: null, contractNumber: null, formValues: values(extra) });
const detail = (id: string) => call(core, 'contract.detail', { id });
const ledgerCount = async () => (await call(core, 'ledger.contractPage', { pageNum: 1, pageSize: 5 })).count;

/** Syncs now and waits until the contract's number is no longer provisional and nothing is pending. */
async function syncedDetail(id: string) {
  await call(core, 'sync.now', {});
  return waitFor(async () => {
    const found = await detail(id);
    return found.numberProvisional || found.pending ? undefined : found;
  });
}

async function nextServerNumber(username: string, password: string) {
  const { client, token } = await otherClient(username, password);
  return (await client.call('contractNumberAutoPreview', { token, query: { contractTypeID: template.contractTypeId! } })).list[0]!.format;
}

beforeAll(async () => {
  await seedDemoData({ contracts: 30, seed: 13, dataDir: serverDir.path });
  await startServer();
  core = testCore(desktop.path, { syncSoonMs: 20, connectivityProbeMs: 100, syncBackoffMs: 50, catalogueStaleMs: 3_600_000 });
  core.subscribe((event, payload) => events.push({ event, payload }));
  await call(core, 'session.signIn', { serverUrl: server.url(), username: 'alice', password: 'alice123' });
  await settledSync(core);
  const catalogue = await waitFor(async () => {
    const kept = await call(core, 'drafting.catalogue', {});
    return kept.refreshedAt === null ? undefined : kept;
  });
  template = await call(core, 'drafting.template', { id: catalogue.templates.find((t) => t.name.includes('采购'))!.id });
}, 300_000);

// A failed test leaves the server as it found it for the next.
afterEach(async () => {
  if (!server.running()) await startServer();
});

afterAll(async () => {
  await core?.close();
  await stopServer().catch(() => undefined);
  serverDir.cleanup();
  desktop.cleanup();
});

describe('drafting offline against the contract server', () => {
  it('drafts offline with provisional numbers that the sync after landing confirms', async () => {
    const expected = await nextServerNumber('alice', 'alice123');
    await stopServer();
    const before = await ledgerCount();
    const first = await draft('chairs: on the plane?');
    const second = await draft('desks on the plane');
    expect(first).toMatchObject({ contractNumber: expected, numberProvisional: true });
    expect(second.numberProvisional).toBe(true);
    expect(second.contractNumber).not.toBe(first.contractNumber);
    // In the ledger at once, with the cleaned name and the provisional number.
    expect(await ledgerCount()).toBe(before + 2);
    const page = await call(core, 'ledger.contractPage', { pageNum: 1, pageSize: 10, q: 'on the plane' });
    expect(page.list.map((c) => [c.name, c.contractNumber]).sort()).toEqual([
      ['chairs on the plane', first.contractNumber],
      ['desks on the plane', second.contractNumber],
    ]);
    // Named from the kept catalogue before the server names it; the template's type, as the server does.
    expect(page.list[0]).toMatchObject({ templateName: template.name, contractTypeName: expect.any(String), responsibleUserName: expect.any(String), status: 1 });
    // The page's header shows the very terms of the ledger row.
    const row = page.list.find((c) => c.id === first.id)!;
    const { counterpartName, amount, signDate, responsibleUserName, departmentName, templateName } = row;
    expect(await detail(first.id)).toMatchObject({ counterpartName, amount, signDate, responsibleUserName, departmentName, templateName });
    expect(await detail(first.id)).toMatchObject({
      numberProvisional: true, pending: true, status: 1, templateId: template.id, contractTypeId: template.contractTypeId, contractNumberAuto: true, formValues: savedValues('queued'),
    });

    await startServer();
    expect(await syncedDetail(first.id)).toMatchObject({ contractNumber: first.contractNumber, numberProvisional: false, contractTypeId: template.contractTypeId, version: 1 });
    expect(await syncedDetail(second.id)).toMatchObject({ contractNumber: second.contractNumber, numberProvisional: false });
    expect(await call(core, 'contract.numberNotices', {})).toEqual([]);
    const { client, token } = await otherClient('alice', 'alice123');
    expect(await client.call('contractDetail', { token, params: { id: first.id } })).toMatchObject({ name: 'chairs on the plane', contractNumber: first.contractNumber, formValues: savedValues('stored') });
  });

  it("shows a draft's counterparty, amount and signing date in the ledger before and after the sync, as the server derives them", async () => {
    // A party as the picker gives it: a seeded contract's counterparty.
    const seeded = (await call(core, 'ledger.contractPage', { pageNum: 1, pageSize: 20 })).list.find((c) => c.counterpartName !== null)!;
    const [party] = (await detail(seeded.id)).formValues.counterparty as [{ id: string; name: string }];
    await stopServer();
    const terms = { counterparty: [party], amount: { amount: 8_800_050, unit: 'CNY' }, signDate: '2026-10-30' };
    const drafted = await draft('chairs with terms', terms);
    const ledgerRow = async () => (await call(core, 'ledger.contractPage', { pageNum: 1, pageSize: 5, q: 'chairs with terms' })).list[0];
    const shown = { counterpartName: party.name, amount: { amount: 8_800_050, unit: 'CNY' }, signDate: '2026-10-30' };
    expect(await ledgerRow()).toMatchObject({ ...shown, contractNumber: drafted.contractNumber });
    expect(await detail(drafted.id)).toMatchObject({ ...shown, contractNumber: drafted.contractNumber });
    // An offline save of the form moves the terms with it.
    await call(core, 'contract.saveForm', { id: drafted.id, name: 'chairs with terms', contractTypeId: template.contractTypeId, formValues: { amount: { amount: 100, unit: 'USD' } } });
    expect(await ledgerRow()).toMatchObject({ ...shown, amount: { amount: 100, unit: 'USD' } });
    await startServer();
    await syncedDetail(drafted.id);
    await waitFor(async () => ((await detail(drafted.id)).version >= 2 ? true : undefined));
    expect(await ledgerRow()).toMatchObject({ ...shown, amount: { amount: 100, unit: 'USD' }, version: 2 });
  });

  it('replaces a provisional number another laptop took meanwhile, with a notice until dismissed', async () => {
    await call(core, 'drafting.refresh', {});
    const preview = await nextServerNumber('alice', 'alice123');
    // Bob (another department: Alice never sees his contract) takes that number first.
    const bob = await otherClient('bob', 'bob123');
    const taken = await bob.client.call('createContract', { token: bob.token, body: { templateId: template.id, name: 'bob was first', formValues: values() } });
    expect(taken.contractNumber).toBe(preview);
    await stopServer();
    const drafted = await draft('chairs drafted late');
    expect(drafted).toMatchObject({ contractNumber: preview, numberProvisional: true });
    events.length = 0;
    await startServer();
    const synced = await syncedDetail(drafted.id);
    expect(synced.contractNumber).not.toBe(preview);
    expect(synced.contractNumber).toEqual(expect.any(String));
    const notices = await call(core, 'contract.numberNotices', {});
    expect(notices).toEqual([{ contractId: drafted.id, contractName: 'chairs drafted late', provisional: preview, confirmed: synced.contractNumber, at: expect.any(String) }]);
    // The pull that confirms the number may bring other entities in the same round.
    expect(events).toContainEqual({ event: 'data.changed', payload: { entities: expect.arrayContaining(['contract', 'numberNotice']) } });
    expect(await call(core, 'contract.dismissNumberNotice', { contractId: drafted.id })).toEqual([]);
    expect(await call(core, 'contract.numberNotices', {})).toEqual([]);
  });

  it('saves a drafted form offline and the server keeps the values after sync', async () => {
    const drafted = await draft('lamps');
    await syncedDetail(drafted.id);
    await stopServer();
    await call(core, 'contract.saveForm', { id: drafted.id, name: 'lamps (LED)', contractTypeId: template.contractTypeId, formValues: { remark: 'saved offline' } });
    expect(await detail(drafted.id)).toMatchObject({ name: 'lamps (LED)', pending: true, formValues: savedValues('stored', { remark: 'saved offline' }) });
    await startServer();
    await call(core, 'sync.now', {});
    const saved = await waitFor(async () => {
      const found = await detail(drafted.id);
      return found.pending || found.version < 2 ? undefined : found;
    });
    expect(saved).toMatchObject({ name: 'lamps (LED)', formValues: savedValues('stored', { remark: 'saved offline' }) });
  });

  it('refuses at once an alteration the server would refuse, with its message, and applies an allowed one', async () => {
    const drafted = await draft('approved chairs', { remark: 'before' });
    await syncedDetail(drafted.id);
    const alice = await otherClient('alice', 'alice123');
    const admin = await otherClient('admin', 'admin123');
    await alice.client.call('submitContract', { token: alice.token, params: { id: drafted.id }, body: {} });
    await admin.client.call('approveContract', { token: admin.token, params: { id: drafted.id }, body: {} });
    await call(core, 'sync.now', {});
    await waitFor(async () => ((await detail(drafted.id)).status === 4 ? true : undefined));

    const refused = await core.invoke('contract.alter', { id: drafted.id, formValues: { contractName: 'other chairs' }, reason: 'renamed' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation_failed', issues: [{ path: 'formValues.contractName', message: 'this field cannot be altered' }] } });
    expect((await call(core, 'sync.status', {})).queued).toBe(0);
    expect((await detail(drafted.id)).formValues).toMatchObject({ contractName: 'office chairs' });

    await call(core, 'contract.alter', { id: drafted.id, formValues: { remark: 'after' }, reason: 'price change' });
    await call(core, 'sync.now', {});
    const altered = await waitFor(async () => {
      const found = await detail(drafted.id);
      return found.pending || found.version < 4 ? undefined : found;
    });
    expect(altered.formValues).toMatchObject({ remark: 'after' });
    const alterations = await call(core, 'online.call', { endpoint: 'contractAlterations', params: { id: drafted.id } });
    expect(alterations).toMatchObject({ list: [{ reason: 'price change', changes: [{ fieldId: 'remark', before: 'before', after: 'after' }] }] });
  });

  it("answers a contract's alteration history from the server when online, and the kept copy as of its fetch time offline, with this device's edits", async () => {
    const approved = (await call(core, 'ledger.contractPage', { pageNum: 1, pageSize: 50, status: 4 })).list.find((c) => c.name === 'approved chairs')!;
    const online = await call(core, 'contract.alterations', { id: approved.id });
    expect(online).toMatchObject({
      offline: false,
      fetchedAt: expect.any(String),
      localChanges: [],
      alterations: [{ reason: 'price change', userName: '王爱丽 Alice Wang', changes: [{ fieldId: 'remark', before: 'before', after: 'after' }] }],
    });
    // Another laptop alters it meanwhile; this device is offline and still reads what it fetched, as of then.
    const alice = await otherClient('alice', 'alice123');
    await alice.client.call('alterContract', { token: alice.token, params: { id: approved.id }, body: { formValues: { remark: 'later' }, reason: 'second change' } });
    await stopServer();
    await call(core, 'contract.alter', { id: approved.id, formValues: { remark: 'on the plane' }, reason: 'typed offline' });
    const kept = await call(core, 'contract.alterations', { id: approved.id });
    expect(kept).toMatchObject({ offline: true, fetchedAt: online.fetchedAt, alterations: online.alterations });
    expect(kept.localChanges).toEqual([
      { id: expect.any(String), name: 'contract.alter', state: 'pending', createdAt: expect.any(String), reason: 'typed offline', step: null, changes: { remark: 'on the plane' }, error: null },
    ]);
    // A draft made offline has only this device's edit, and no history fetched yet.
    const drafted = await draft('history of a draft');
    expect(await call(core, 'contract.alterations', { id: drafted.id })).toMatchObject({
      alterations: [], fetchedAt: null, offline: true, localChanges: [{ name: 'contract.create', state: 'pending', reason: null, changes: savedValues('queued') }],
    });
    // Back online: the server's list again, with both alterations.
    await startServer();
    const fresh = await waitFor(async () => {
      const answer = await call(core, 'contract.alterations', { id: approved.id });
      return answer.offline ? undefined : answer;
    });
    expect(fresh.alterations.map((a) => a.reason)).toEqual(['price change', 'second change']);
    expect(Date.parse(fresh.fetchedAt!)).toBeGreaterThanOrEqual(Date.parse(online.fetchedAt!));
  });

  it("refuses at once, with the server's code and message, the contract writes the server would refuse, and queues nothing", async () => {
    // A draft with no template, which the server has too.
    const bare = await call(core, 'contract.create', { name: 'no template', templateId: null, contractTypeId: null, contractNumber: null, formValues: {} });
    const { version } = await syncedDetail(bare.id);
    const before = await call(core, 'sync.status', {});
    const missing = '0192f000-0000-7000-8000-0000000000ab';
    const huge = { notes: 'x'.repeat(900 * 1024) };
    const writes = [
      ['contract.update', { id: 'not-a-uuid', patch: { name: 'x' } }],
      ['contract.update', { id: missing, patch: { name: 'x' } }],
      ['contract.update', { id: bare.id, patch: { formValues: huge } }],
      ['contract.update', { id: bare.id, patch: { formValues: { notes: 'a note' } } }],
      ['contract.alter', { id: missing, formValues: { remark: 'x' }, reason: 'why' }],
      ['contract.alter', { id: 'not-a-uuid', formValues: { remark: 'x' }, reason: 'why' }],
    ] as const;
    const { client, token } = await otherClient('alice', 'alice123');
    const push = async (name: string, args: Record<string, unknown>, seq: number) => {
      const id = typeof args.id === 'string' ? args.id : bare.id;
      const mutation = { id: `0192f000-0000-7000-8000-0000000001${String(seq).padStart(2, '0')}`, seq, name, args, baseVersions: { [`contract:${id}`]: version } };
      const body = { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId: '0192f000-0000-7000-8000-0000000000c1', mutations: [mutation] };
      return (await client.call('syncPush', { token, body })).results[0];
    };
    for (const [seq, [name, args]] of writes.entries()) {
      const server = await push(name, args, seq + 1);
      expect(server?.status).toBe('rejected');
      expect(await core.invoke(name, args)).toEqual({ ok: false, error: server?.status === 'rejected' && server.error });
    }
    // A draft's values are held to the same size.
    const server = await push('contract.create', { id: '0192f000-0000-7000-8000-0000000000ac', name: 'big', templateId: null, contractTypeId: null, contractNumber: null, provisionalNumber: null, formValues: huge }, 99);
    expect(await core.invoke('contract.create', { name: 'big', templateId: null, contractTypeId: null, contractNumber: null, formValues: huge })).toEqual({ ok: false, error: server?.status === 'rejected' && server.error });
    const after = await call(core, 'sync.status', {});
    expect([after.queued, after.problems]).toEqual([before.queued, before.problems]);
  });

  it('answers bad input with a validation error and changes nothing', async () => {
    const before = { count: await ledgerCount(), queued: (await call(core, 'sync.status', {})).queued };
    const bad = [
      await core.invoke('contract.create', { name: 'x'.repeat(201), templateId: template.id, contractTypeId: null, contractNumber: null, formValues: {} }),
      await core.invoke('contract.create', { name: 'x', templateId: template.id, contractTypeId: null, contractNumber: null }),
      await core.invoke('contract.create', { name: 'x', templateId: template.id, contractTypeId: null, contractNumber: null, formValues: {}, colour: 'red' }),
      await core.invoke('contract.alter', { id: 'x', formValues: { remark: 'y' }, reason: '   ' }),
      await core.invoke('contract.saveForm', { id: 'x', name: 5, contractTypeId: null, formValues: {} }),
      await core.invoke('drafting.searchParties', { pageSize: 1000 }),
    ];
    for (const result of bad) expect(result).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    const badValue = await core.invoke('contract.create', { name: 'x', templateId: template.id, contractTypeId: null, contractNumber: null, formValues: values({ bankAccount: '1234' }) });
    expect(badValue).toMatchObject({ ok: false, error: { code: 'validation_failed', issues: [{ path: 'formValues.bankAccount', message: 'please enter 9-24 characters' }] } });
    const emptyName = await core.invoke('contract.create', { name: '::', templateId: template.id, contractTypeId: null, contractNumber: null, formValues: values() });
    expect(emptyName).toMatchObject({ ok: false, error: { code: 'validation_failed', issues: [{ path: 'name', message: 'please enter the contract name' }] } });
    const notEditor = await core.invoke('contract.create', { name: 'x', templateId: template.id, contractTypeId: null, contractNumber: 'MINE-1', formValues: values() });
    expect(notEditor).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await core.invoke('contract.detail', { id: 'no-such-contract' })).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringContaining('no-such-contract') } });
    // A template this device does not hold is the server's to answer (a contract keeps its form: issue 30).
    expect(await core.invoke('drafting.template', { id: '0192f000-0000-7000-8000-0000000000ab' })).toMatchObject({ ok: false, error: { code: 'not_found', reason: { key: 'templateMissing' } } });
    expect(await core.invoke('contract.saveForm', { id: 'no-such-contract', name: 'x', contractTypeId: null, formValues: {} })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await core.invoke('contract.saveForm', { id: '0192f000-0000-7000-8000-0000000000aa', name: 'x', contractTypeId: null, formValues: {} })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await ledgerCount()).toBe(before.count);
    expect((await call(core, 'sync.status', {})).queued).toBe(before.queued);
  });

  it('calls the server for the form while online, checked against the endpoint; answers OFFLINE without it', async () => {
    const preview = await call(core, 'online.call', { endpoint: 'contractNumberAutoPreview', query: { contractTypeID: template.contractTypeId! } });
    expect(preview).toMatchObject({ list: [{ format: expect.any(String) }] });
    const badQuery = await core.invoke('online.call', { endpoint: 'contractNumberCheckDuplicate', query: {} });
    expect(badQuery).toMatchObject({ ok: false, error: { code: 'validation_failed', issues: [{ path: 'query.contractNumber', message: 'please enter the number' }] } });
    expect(await core.invoke('online.call', { endpoint: 'login' })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    await stopServer();
    const offline = await core.invoke('online.call', { endpoint: 'lawFirmList', query: {} });
    expect(offline).toEqual({ ok: false, error: { code: 'offline', message: 'This needs the contract server, which cannot be reached now. It works again once you are back online.' } });
    // Offline the catalogue answers as kept, and the party search works.
    const kept = await call(core, 'drafting.refresh', {});
    expect(kept.templates.length).toBeGreaterThan(0);
    await startServer();
  });
});
