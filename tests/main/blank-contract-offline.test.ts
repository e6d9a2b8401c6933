import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import type { UploadValue } from '../../src-shared/form/field-config';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// Issue 29 against the real contract server: a blank contract (no template: the built-in form)
// drafted offline with every basic field is numbered by its type's rule at once, syncs, and the
// server's REST answers and the ledger show its counterparty, amount and number.

const serverDir = tempDir('contract-desk-server-');
const desktop = tempDir('contract-desk-blank-');
let server: RunningServer | null = null;
let port = 0;
let serverUrl = '';
let core: Core;

async function startServer() {
  server = await startContractServer({ port, dataDir: serverDir.path });
  serverUrl = server.url;
  port = Number(new URL(server.url).port);
}

async function rest(username: string, password: string) {
  const client = createContractServerClient(serverUrl);
  const { token } = await client.call('login', { body: { username, password } });
  return { client, token };
}

beforeAll(async () => {
  await seedDemoData({ contracts: 30, seed: 29, dataDir: serverDir.path });
  await startServer();
  core = testCore(desktop.path, { syncSoonMs: 20, connectivityProbeMs: 100, syncBackoffMs: 50, catalogueStaleMs: 3_600_000 });
  await call(core, 'session.signIn', { serverUrl, username: 'alice', password: 'alice123' });
  await settledSync(core);
  await waitFor(async () => ((await call(core, 'drafting.catalogue', {})).refreshedAt === null ? undefined : true));
}, 120_000);

afterAll(async () => {
  await core?.close();
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
  desktop.cleanup();
});

describe('a blank contract drafted offline', () => {
  it('is numbered by its type’s rule, syncs, and REST and the ledger show its counterparty, amount and number', async () => {
    const catalogue = await call(core, 'drafting.catalogue', {});
    // A type whose standard template is not used: the blank form chooses it itself.
    const type = catalogue.contractTypes.find((candidate) => candidate.name === '服务合同')!;
    const other = catalogue.contractTypes.find((candidate) => candidate.name === '采购合同')!;
    const { client, token } = await rest('alice', 'alice123');
    const preview = async (contractTypeID: string) => (await client.call('contractNumberAutoPreview', { token, query: { contractTypeID } })).list[0]!.format;
    const expected = await preview(type.id);
    expect(expected).not.toBe(await preview(other.id));
    // A counterparty as the picker gives it, and an attachment uploaded while online.
    const seeded = (await call(core, 'ledger.contractPage', { pageNum: 1, pageSize: 20 })).list.find((c) => c.counterpartName !== null)!;
    const [party] = (await call(core, 'contract.detail', { id: seeded.id })).formValues.counterparty as [{ id: string; name: string }];
    const bytes = Buffer.from('%PDF-1.4 blank contract scan');
    const { uploadId } = await call(core, 'files.uploadBegin', { name: 'scan.pdf', size: bytes.length, mimeType: 'application/pdf', purpose: 'attachment' });
    await call(core, 'files.uploadChunk', { uploadId, index: 0, data: bytes.toString('base64') });
    const attachment: UploadValue = await call(core, 'files.uploadFinish', { uploadId });
    const directory = await call(core, 'directory.get', {});
    const person = directory.users.find((user) => user.department !== null)!;

    await server!.close();
    server = null;
    const formValues = {
      contractType: type.id,
      counterparty: [party],
      amount: { amount: 1_234_500, unit: 'USD' },
      signDate: '2026-11-20',
      period: ['2026/12/01', '2027/11/30'],
      // As the single-choice people and department pickers keep them.
      responsiblePerson: { id: person.id, name: person.name },
      department: person.department!,
      attachment,
    };
    const drafted = await call(core, 'contract.create', { name: 'Blank service contract', templateId: null, contractTypeId: null, contractNumber: null, formValues });
    expect(drafted).toMatchObject({ contractNumber: expected, numberProvisional: true });
    const shown = { counterpartName: party.name, amount: { amount: 1_234_500, unit: 'USD' }, signDate: '2026-11-20' };
    const ledgerRow = async () => (await call(core, 'ledger.contractPage', { pageNum: 1, pageSize: 5, q: 'Blank service contract' })).list[0];
    expect(await ledgerRow()).toMatchObject({ ...shown, contractTypeName: type.name, contractNumber: expected, templateName: null });
    expect(await call(core, 'contract.detail', { id: drafted.id })).toMatchObject({ ...shown, contractTypeId: type.id, contractNumber: expected, pending: true, formValues });

    // Bad input on the blank form is refused at once, as the server would, and nothing is queued.
    const refused = await core.invoke('contract.create', { name: 'bad blank', templateId: null, contractTypeId: null, contractNumber: null, formValues: { amount: 'lots' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation_failed', issues: [{ path: 'formValues.amount' }] } });
    const unknownType = await core.invoke('contract.create', { name: 'bad blank', templateId: null, contractTypeId: null, contractNumber: null, formValues: { contractType: 'no-such-type' } });
    expect(unknownType).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await call(core, 'ledger.contractPage', { pageNum: 1, pageSize: 5, q: 'bad blank' })).count).toBe(0);

    await startServer();
    await call(core, 'sync.now', {});
    const synced = await waitFor(async () => {
      const found = await call(core, 'contract.detail', { id: drafted.id });
      return found.pending || found.numberProvisional ? undefined : found;
    });
    expect(synced).toMatchObject({ ...shown, contractTypeId: type.id, contractNumber: expected, contractNumberAuto: true });
    expect(await ledgerRow()).toMatchObject({ ...shown, contractTypeName: type.name, contractNumber: expected });
    const again = await rest('alice', 'alice123');
    expect(await again.client.call('contractDetail', { token: again.token, params: { id: drafted.id } })).toMatchObject({
      templateId: null, contractTypeId: type.id, contractNumber: expected, formValues,
    });
    const listed = await again.client.call('contractList', { token: again.token, query: { pageNum: 1, pageSize: 5, q: 'Blank service contract' } });
    expect(listed.list).toEqual([expect.objectContaining({ id: drafted.id, counterpartName: party.name, amount: { amount: 1_234_500, unit: 'USD' }, contractNumber: expected, contractTypeName: type.name })]);
  }, 120_000);
});
