import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import PizZip from 'pizzip';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { envelopeSchema } from '../../src-shared/api/envelope';
import { uploadedFileSchema } from '../../src-shared/api/files';
import { readDocumentBookmarks } from '../../src-shared/contract-document/docx';
import { labelled, sampleDocx } from '../../src-server/contract-document/sample-document';
import { templates } from '../../src-server/db/schema';
import { buildContractServer, demoUsers, seedDatabase } from '../../src-server/index';
import { call, callEndpoint, describeOnDatabases, failure, okData, queryRows, signIn, type CallResult } from './support';

// A template's Word document on the server (issue 29): uploaded as a file of purpose 'template',
// named by a template write, its bookmarks read and kept with the template; bad documents refused
// with a clear message and nothing written.

const password = (username: string) => demoUsers.find((u) => u.username === username)!.password;
const maxBytes = 64 * 1024;

function multipart(filename: string, content: Uint8Array) {
  const boundary = '----template-document-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const goodDocument = sampleDocx([{ segments: [{ text: 'Lease' }], style: 'Title' }, labelled('Rent', 'bm_rent'), labelled('Place', 'bm_place'), { segments: [{ bookmark: 'bm_terms' }] }]);
const fields = [
  { id: 'rent', name: 'rent', type: 'money', bookmarkNames: ['bm_rent'] },
  { id: 'place', name: 'place', type: 'text', bookmarkNames: ['bm_place'] },
  { id: 'terms', name: 'terms', type: 'clause' },
];
const clauses = [
  { labelID: 'terms', name: 'terms', isNullable: false, bookmarkName: 'bm_terms', statementList: [{ id: 1, name: 'one', content: [], fieldList: [], labelItemList: [] }] },
];

describeOnDatabases('template documents', (fixture) => {
  let app: FastifyInstance;
  let dir: string;
  const tokens = { admin: '', alice: '', bob: '' };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'template-documents-'));
    await seedDatabase(fixture.db, { contracts: 10, seed: 3, filesDir: dir });
    app = buildContractServer(fixture.db, { files: { dir, maxBytes } });
    for (const username of ['admin', 'alice', 'bob'] as const) tokens[username] = (await signIn(app, username, password(username))).token;
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function upload(token: string, filename: string, content: Uint8Array): Promise<CallResult> {
    const body = multipart(filename, content);
    const response = await app.inject({ method: 'POST', url: '/api/v1/files', query: { purpose: 'template' }, headers: { ...body.headers, authorization: `Bearer ${token}` }, payload: body.payload });
    return { status: response.statusCode, json: response.json(), headers: response.headers };
  }
  const uploadedId = (result: CallResult) => {
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    return envelopeSchema(uploadedFileSchema).parse(result.json).data.id;
  };
  const fileRows = async () => (await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from uploaded_files`))[0]!.n;
  const storedFiles = async () => (await readdir(dir)).length;

  it('seeds the purchase template with its document, which every member of the organisation may download', async () => {
    const list = okData('templateList', await callEndpoint(app, 'templateList', { token: tokens.bob, query: { q: '采购' } }));
    const purchase = okData('templateDetail', await call(app, 'GET', `/api/v1/templates/${list.list[0]!.id}`, { token: tokens.bob }));
    expect(purchase.document).toMatchObject({ name: '采购合同标准模板.docx' });
    expect(purchase.document!.bookmarks).toEqual(expect.arrayContaining(['bm_contractName', 'bm_amount', 'bm_payment', 'bm_dispute']));
    expect(purchase.fields.find((f) => f.id === 'amount')?.bookmarkNames).toEqual(['bm_amount']);
    const response = await app.inject({ method: 'GET', url: `/api/v1/files/${purchase.document!.fileId}`, headers: { authorization: `Bearer ${tokens.bob}` } });
    expect(response.statusCode).toBe(200);
    expect(readDocumentBookmarks(new Uint8Array(response.rawPayload))).toEqual(purchase.document!.bookmarks);
  });

  it('keeps an uploaded document with a new template, its bookmarks read from the file; null drops it', async () => {
    const fileId = uploadedId(await upload(tokens.alice, 'lease.docx', goodDocument));
    const created = okData('createTemplate', await callEndpoint(app, 'createTemplate', { token: tokens.alice, body: { name: 'lease with document', fields, clauses, document: { fileId } } }));
    expect(created.document).toEqual({ fileId, name: 'lease.docx', size: goodDocument.length, bookmarks: ['bm_rent', 'bm_place', 'bm_terms'] });
    const kept = okData('updateTemplate', await call(app, 'PUT', `/api/v1/templates/${created.id}`, { token: tokens.alice, body: { name: 'lease renamed', fields, clauses } }));
    expect(kept.document?.fileId).toBe(fileId);
    const dropped = okData('updateTemplate', await call(app, 'PUT', `/api/v1/templates/${created.id}`, { token: tokens.alice, body: { name: 'lease renamed', fields, clauses, document: null } }));
    expect(dropped.document).toBeNull();
  });

  it('refuses an upload that is not a DOCX, one over the size limit and one whose bookmark names collide: no row, no file', async () => {
    const [rows, stored] = [await fileRows(), await storedFiles()];
    const notDocx = failure(await upload(tokens.alice, 'contract.docx', new TextEncoder().encode('%PDF-1.7 a PDF named .docx')), 400, 'bad_request');
    expect(notDocx.message).toBeTruthy();
    const zip = new PizZip();
    zip.file('hello.txt', 'not a word document');
    expect(failure(await upload(tokens.alice, 'zip.docx', zip.generate({ type: 'uint8array' })), 400, 'bad_request').reason?.key).toBe('documentNotDocx');
    expect(failure(await upload(tokens.alice, 'lease.pdf', goodDocument), 400, 'bad_request').reason?.key).toBe('fileFormatNotSupported');
    const large = sampleDocx(Array.from({ length: 1 }, () => ({ segments: [{ text: 'x'.repeat(maxBytes * 2) }] })));
    // Stored (not deflated) so the file really is over the limit.
    const big = new PizZip(large).generate({ type: 'uint8array', compression: 'STORE' });
    expect(failure(await upload(tokens.alice, 'big.docx', big), 400, 'bad_request').reason?.key).toBe('fileTooLarge');
    const colliding = sampleDocx([labelled('a', 'Rent'), labelled('b', 'RENT')]);
    const collision = failure(await upload(tokens.alice, 'colliding.docx', colliding), 400, 'bad_request');
    expect(collision.reason?.key).toBe('bookmarksCollide');
    expect(collision.message).toContain('Rent / RENT');
    expect([await fileRows(), await storedFiles()]).toEqual([rows, stored]);
  });

  it('refuses a template write that maps one bookmark twice or names a file that is not a template document: nothing changes', async () => {
    const fileId = uploadedId(await upload(tokens.alice, 'lease.docx', goodDocument));
    const created = okData('createTemplate', await callEndpoint(app, 'createTemplate', { token: tokens.alice, body: { name: 'lease twice', fields, clauses, document: { fileId } } }));
    const twice = [...fields, { id: 'other', name: 'other', type: 'text', bookmarkNames: ['BM_TERMS'] }];
    const refused = failure(await call(app, 'PUT', `/api/v1/templates/${created.id}`, { token: tokens.alice, body: { name: 'changed', fields: twice, clauses } }), 400, 'bad_request');
    expect(refused.reason).toEqual({ key: 'bookmarkClaimedTwice', params: { bookmark: 'BM_TERMS', owners: 'other, terms' } });
    failure(await callEndpoint(app, 'createTemplate', { token: tokens.alice, body: { name: 'lease new', fields: twice, clauses } }), 400, 'bad_request');
    const attachment = await app.inject({
      method: 'POST', url: '/api/v1/files', headers: { ...multipart('lease.docx', goodDocument).headers, authorization: `Bearer ${tokens.alice}` }, payload: multipart('lease.docx', goodDocument).payload,
    });
    const attachmentId = envelopeSchema(uploadedFileSchema).parse(attachment.json()).data.id;
    const missing = failure(await call(app, 'PUT', `/api/v1/templates/${created.id}`, { token: tokens.alice, body: { name: 'changed', fields, clauses, document: { fileId: attachmentId } } }), 400, 'bad_request');
    expect(missing.reason?.key).toBe('documentFileMissing');
    const [row] = await fixture.db.select().from(templates).where(eq(templates.id, created.id));
    expect(row).toMatchObject({ name: 'lease twice', version: created.version, document: created.document });
  });
});
