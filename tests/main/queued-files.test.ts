import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { uploadChunkBytes } from '../../src-main/core/files-transfer/upload-queue';
import type { UploadValue } from '../../src-shared/form/field-config';
import { maxUploadChunkBytes } from '../../src-shared/ipc/files';
import type { FilePurpose } from '../../src-shared/api/files';
import type { ChannelName, ChannelRequest, ChannelResponse } from '../../src-shared/ipc/channels';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { call, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';
import { CoreChild } from './core-child';
import { noFaults, startFaultProxy, type FaultProxy } from './fault-proxy';

// Queued files (issue 30) against the real contract server behind a fault proxy: an attachment
// and an archive's PDF chosen with the server away wait on the device, then reach the server in
// chunks before the edits naming them, resuming after a cut from the last acknowledged byte and
// after a kill -9 of the core, exactly once.

const serverDir = tempDir('queued-files-server-');
const desktop = tempDir('queued-files-core-');
const killed = tempDir('queued-files-killed-');
let server: RunningServer;
let proxy: FaultProxy;
let core: Core;

const pngOf = (bytes: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(bytes - 8)]);
const pdfOf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(bytes - 9)]);
const storedFiles = () => (existsSync(join(serverDir.path, 'files')) ? readdirSync(join(serverDir.path, 'files')) : []);

async function rest() {
  const client = createContractServerClient(server.url);
  const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
  return { client, token };
}

/** A channel call on a core in this process or in a child. */
type Caller = <C extends ChannelName>(channel: C, request: ChannelRequest<C>) => Promise<ChannelResponse<C>>;
const inProcess: Caller = (channel, request) => call(core, channel, request);

/** Hands a file to the core as the upload field does. */
async function choose(ask: Caller, name: string, bytes: Buffer, purpose: FilePurpose = 'attachment', contractId?: string): Promise<UploadValue> {
  const { uploadId } = await ask('files.uploadBegin', { name, size: bytes.length, mimeType: '', purpose, ...(contractId && { contractId }) });
  for (let index = 0, start = 0; start < bytes.length; index += 1, start += maxUploadChunkBytes) {
    await ask('files.uploadChunk', { uploadId, index, data: bytes.subarray(start, start + maxUploadChunkBytes).toString('base64') });
  }
  return ask('files.uploadFinish', { uploadId });
}

const offline = async () => {
  proxy.faults = { ...noFaults, refuse: true };
  proxy.cutAll();
  await waitFor(async () => ((await call(core, 'sync.status', {})).online ? undefined : true));
};

beforeAll(async () => {
  await seedDemoData({ contracts: 30, seed: 30, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  proxy = await startFaultProxy(Number(new URL(server.url).port));
  core = testCore(desktop.path, { syncSoonMs: 20, connectivityProbeMs: 100, syncBackoffMs: 50, syncIntervalMs: 3_600_000 });
  await call(core, 'session.signIn', { serverUrl: proxy.url, username: 'admin', password: 'admin123' });
  await waitFor(async () => ((await call(core, 'sync.status', {})).lastSyncAt === null ? undefined : true), 60_000);
}, 120_000);

afterAll(async () => {
  await core?.close();
  await proxy?.close();
  await server?.close().catch(() => undefined);
  desktop.cleanup();
  killed.cleanup();
  serverDir.cleanup();
});

describe('files queued on the device', () => {
  it('keeps an attachment chosen offline, then sends it before its draft, resuming a cut from the last acknowledged byte', async () => {
    await offline();
    const bytes = pngOf(5 * uploadChunkBytes + 1234);
    const attachment = await choose(inProcess, 'signed scan.png', bytes);
    expect(attachment).toEqual({ id: expect.any(String), name: 'signed scan.png', file: `/api/v1/files/${attachment.id}` });
    const drafted = await call(core, 'contract.create', { name: 'Scan offline', templateId: null, contractTypeId: null, contractNumber: null, formValues: { attachment } });
    expect(await call(core, 'files.queue', {})).toMatchObject({ files: [{ id: attachment.id, name: 'signed scan.png', size: bytes.length, sent: 0, state: 'waiting' }], usedBytes: bytes.length });

    // The link comes back and is cut part way through the third chunk.
    proxy.faults = { ...noFaults, cutAfterBytes: Math.round(2.5 * uploadChunkBytes) };
    const before = proxy.traffic().up;
    const cut = await call(core, 'sync.now', {});
    expect(cut.error?.code).toBe('server_unreachable');
    const waiting = (await call(core, 'files.queue', {})).files[0]!;
    expect(waiting.sent).toBe(2 * uploadChunkBytes);
    expect(await call(core, 'contract.detail', { id: drafted.id })).toMatchObject({ pending: true });

    proxy.faults = { ...noFaults };
    const done = await call(core, 'sync.now', {});
    expect(done.error).toBeNull();
    expect(done.queued).toBe(0);
    expect((await call(core, 'files.queue', {})).files).toEqual([]);
    // What went up: the file once, the cut chunk's part once more, and the requests around them.
    expect(proxy.traffic().up - before).toBeLessThan(bytes.length + uploadChunkBytes + 64 * 1024);

    const { client, token } = await rest();
    expect((await client.call('contractDetail', { token, params: { id: drafted.id } })).formValues.attachment).toEqual(attachment);
    expect(Buffer.from(await (await client.downloadFile(attachment.id, token)).arrayBuffer()).equals(bytes)).toBe(true);
    expect(storedFiles().filter((name) => name.startsWith(attachment.id))).toEqual([attachment.id]);
  }, 120_000);

  it('removes a queued file everywhere when a later edit removed it before it went, and refuses what the server would at once', async () => {
    await offline();
    const attachment = await choose(inProcess, 'draft.png', pngOf(10_000));
    const drafted = await call(core, 'contract.create', { name: 'Attached then removed', templateId: null, contractTypeId: null, contractNumber: null, formValues: { attachment } });
    await call(core, 'contract.update', { id: drafted.id, patch: { formValues: { attachment: null } } });
    const refused = await core.invoke('files.uploadBegin', { name: 'tool.exe', size: 10, mimeType: '', purpose: 'attachment' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_request' } });

    proxy.faults = { ...noFaults };
    await waitFor(async () => ((await call(core, 'sync.status', {})).queued === 0 ? true : undefined), 30_000);
    await call(core, 'sync.now', {});
    expect((await call(core, 'files.queue', {})).files).toEqual([]);
    const { client, token } = await rest();
    await expect(client.downloadFile(attachment.id, token)).rejects.toMatchObject({ error: { code: 'not_found' } });
    expect(storedFiles().filter((name) => name.startsWith(attachment.id))).toEqual([]);
    expect((await client.call('contractDetail', { token, params: { id: drafted.id } })).formValues.attachment).toBeNull();
  }, 120_000);

  it('archives offline: archive pending until the server applies it; a refusal comes back as a problem, the PDF kept', async () => {
    const { client, token } = await rest();
    const approved = (await client.call('contractList', { token, query: { status: 4, pageSize: 2 } })).list;
    const [first, second] = approved.map((row) => row.id) as [string, string];
    await offline();
    const pdf = pdfOf(3 * uploadChunkBytes);
    const signed = await choose(inProcess, 'signed.pdf', pdf, 'archive', first);
    const archived = await call(core, 'archive.confirm', { contractId: first, fileId: signed.id, fileName: 'signed.pdf' });
    expect(archived).toMatchObject({ contractId: first, fileId: signed.id, cached: true });
    expect(await call(core, 'contract.detail', { id: first })).toMatchObject({ status: 4, archivePending: true });
    expect((await call(core, 'archive.get', { contractId: first }))?.fileId).toBe(signed.id);
    // Meanwhile someone archives the second contract online: this device's archive of it is refused at apply time.
    const other = await choose(inProcess, 'other.pdf', pdfOf(20_000), 'archive', second);
    await call(core, 'archive.confirm', { contractId: second, fileId: other.id, fileName: 'other.pdf' });
    const theirs = await client.uploadFile({ file: new Blob([new Uint8Array(pdfOf(5000))]), name: 'theirs.pdf', mimeType: 'application/pdf', contractId: second, purpose: 'archive', token });
    await client.call('archiveContract', { token, params: { id: second }, body: { fileId: theirs.id, fileName: 'theirs.pdf' } });
    // A non-PDF is refused for an archive at once.
    expect(await core.invoke('files.uploadBegin', { name: 'scan.png', size: 10, mimeType: 'image/png', purpose: 'archive' })).toMatchObject({ ok: false });

    proxy.faults = { ...noFaults };
    const status = await waitFor(async () => {
      const current = await call(core, 'sync.status', {});
      return current.queued === 0 && current.phase === 'idle' ? current : undefined;
    }, 60_000);
    expect(status.problems).toEqual([expect.objectContaining({ name: 'contract.archive', state: 'rejected', error: expect.objectContaining({ reason: expect.objectContaining({ key: 'transitionRefused' }) }) })]);
    expect(await client.call('contractDetail', { token, params: { id: first } })).toMatchObject({ status: 5, archiveFileId: signed.id });
    expect(Buffer.from(await (await client.downloadFile(signed.id, token)).arrayBuffer()).equals(pdf)).toBe(true);
    await waitFor(async () => ((await call(core, 'contract.detail', { id: first })).status === 5 ? true : undefined));
    expect(await call(core, 'contract.detail', { id: first })).toMatchObject({ archivePending: false });
    // The refused archive's PDF stays: on the server, and on this device in the archive cache.
    expect((await call(core, 'archive.get', { contractId: second }))?.fileId).toBe(other.id);
  }, 120_000);
});

describe('a kill -9 of the core in the middle of an upload', () => {
  it('resumes after the restart where the server stands, and the server holds the file once', async () => {
    const child = new CoreChild(killed.path, proxy.url);
    try {
      await child.call('session.signIn', { serverUrl: proxy.url, username: 'admin', password: 'admin123' });
      await child.drained();
      proxy.faults = { ...noFaults, refuse: true };
      proxy.cutAll();
      const bytes = pngOf(8 * uploadChunkBytes);
      const attachment = await choose((channel, request) => child.call(channel, request), 'killed.png', bytes);
      const drafted = await child.call('contract.create', { name: 'Killed mid-upload', templateId: null, contractTypeId: null, contractNumber: null, formValues: { attachment } });
      // A slow link, so the core is killed with part of the file acknowledged.
      proxy.faults = { ...noFaults, delayMs: 40 };
      await waitFor(async () => {
        const queued = (await child.call('files.queue', {})).files[0];
        return queued && queued.sent >= 2 * uploadChunkBytes ? true : undefined;
      }, 60_000);
      await child.kill9();

      proxy.faults = { ...noFaults };
      const restarted = new CoreChild(killed.path, proxy.url);
      try {
        await restarted.drained();
        await waitFor(async () => ((await restarted.call('files.queue', {})).files.length === 0 ? true : undefined), 60_000);
        const { client, token } = await rest();
        expect((await client.call('contractDetail', { token, params: { id: drafted.id } })).formValues.attachment).toEqual(attachment);
        expect(Buffer.from(await (await client.downloadFile(attachment.id, token)).arrayBuffer()).equals(bytes)).toBe(true);
        expect(storedFiles().filter((name) => name.startsWith(attachment.id))).toEqual([attachment.id]);
        const listed = await client.call('contractList', { token, query: { pageSize: 5, q: 'Killed mid-upload' } });
        expect(listed.count).toBe(1);
      } finally {
        await restarted.stop();
      }
    } finally {
      await child.kill9().catch(() => undefined);
    }
  }, 180_000);
});
