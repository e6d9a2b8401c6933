import { openAsBlob, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { call, settledSync, testCore } from '../support/core';
import { tempDir } from '../support/temp';

// Background prefetch (issue 14 item 6): a PDF archived by someone else reaches this device's
// bounded cache without anyone opening it, its text is indexed on the worker thread, and it opens
// and is found by a word inside it offline.

const serverDir = tempDir('contract-desk-prefetch-server-');
const desktop = tempDir('contract-desk-prefetch-core-');
const word = 'Platypusclause';
let server: RunningServer;
let core: Core;
let archivedId = '';

async function signedPdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([420, 300]).drawText(`Penalties under the ${word} apply from delivery.`, { x: 30, y: 200, size: 12, font });
  const path = join(serverDir.path, 'signed.pdf');
  writeFileSync(path, await doc.save());
  return path;
}

beforeAll(async () => {
  await seedDemoData({ contracts: 30, seed: 31, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
}, 120_000);

afterAll(async () => {
  await core?.close();
  await server?.close().catch(() => undefined);
  desktop.cleanup();
  serverDir.cleanup();
});

describe('archived PDFs prefetched into the cache', () => {
  it('keeps a PDF archived by another user, indexes it, and opens and finds it offline', { timeout: 120_000 }, async () => {
    core = testCore(desktop.path, { connectivityProbeMs: 300 });
    await call(core, 'session.signIn', { serverUrl: server.url, username: 'admin', password: 'admin123' });
    await settledSync(core);
    const before = await call(core, 'archive.cacheUsage', {});

    // Someone else (another session, on the server directly) archives an approved contract meanwhile.
    const client = createContractServerClient(server.url);
    const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
    const approved = await client.call('contractList', { token, query: { status: 4, pageSize: 1 } });
    archivedId = approved.list[0]!.id;
    const file = await client.uploadFile({ file: await openAsBlob(await signedPdf()), name: 'signed.pdf', mimeType: 'application/pdf', contractId: archivedId, purpose: 'archive', token });
    await client.call('archiveContract', { token, params: { id: archivedId }, body: { fileId: file.id, fileName: 'signed.pdf' } });

    await call(core, 'sync.now', {});
    await expect.poll(async () => (await call(core, 'archive.cacheUsage', {})).files, { timeout: 60_000, interval: 250 }).toBe(before.files + 1);
    await expect.poll(async () => (await call(core, 'archive.get', { contractId: archivedId }))?.indexed, { timeout: 60_000, interval: 250 }).toBe(true);

    await server.close();
    await expect.poll(async () => (await call(core, 'sync.status', {})).online, { timeout: 20_000 }).toBe(false);
    const kept = await call(core, 'archive.get', { contractId: archivedId });
    expect(kept).toMatchObject({ cached: true, fileId: file.id, pages: 1, indexed: true });
    const first = await call(core, 'archive.read', { contractId: archivedId, offset: 0 });
    expect(Buffer.from(first.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const found = await call(core, 'search.fullText', { q: word.toLowerCase() });
    expect(found.list.map((hit) => hit.contractId)).toEqual([archivedId]);
  });
});
