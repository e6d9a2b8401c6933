import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { envelopeSchema } from '../../src-shared/api/envelope';
import { uploadedFileSchema, uploadMessages, type UploadedFile } from '../../src-shared/api/files';
import { contracts, users } from '../../src-server/db/schema';
import { buildContractServer, demoUsers, seedDatabase } from '../../src-server/index';
import { describeOnDatabases, failure, queryRows, signIn, type CallResult } from './support';

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;
const maxBytes = 64 * 1024;
const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x20), Buffer.from('\n%%EOF\n')]);
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

function multipartBody(filename: string, content: Buffer, contentType = 'application/octet-stream') {
  const boundary = '----contract-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describeOnDatabases('file upload and download', (fixture) => {
  let app: FastifyInstance;
  let dir: string;
  let alice: string;
  let bob: string;
  let admin: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 50, seed: 2 });
    dir = await mkdtemp(path.join(tmpdir(), 'contract-files-'));
    app = buildContractServer(fixture.db, { files: { dir, maxBytes } });
    const [aliceRow] = await fixture.db.select().from(users).where(eq(users.username, 'alice'));
    await fixture.db.insert(contracts).values({ id: 'file-contract', name: 'with files', responsibleUserId: aliceRow!.id, departmentId: aliceRow!.departmentId });
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
    bob = (await signIn(app, 'bob', demo('bob').password)).token;
    admin = (await signIn(app, 'admin', demo('admin').password)).token;
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function upload(token: string | undefined, filename: string, content: Buffer, query: Record<string, string> = {}): Promise<CallResult> {
    const body = multipartBody(filename, content);
    const response = await app.inject({
      method: 'POST', url: '/api/v1/files', query,
      headers: { ...body.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: body.payload,
    });
    return { status: response.statusCode, json: response.json(), headers: response.headers };
  }
  const uploaded = (result: CallResult): UploadedFile => {
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    return envelopeSchema(uploadedFileSchema).parse(result.json).data;
  };
  const download = (id: string, token?: string) =>
    app.inject({ method: 'GET', url: `/api/v1/files/${id}`, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const refused = async (id: string, token: string | undefined, status: number, code: 'not_found' | 'unauthorized') => {
    const response = await download(id, token);
    failure({ status: response.statusCode, json: response.json(), headers: response.headers }, status, code);
  };
  const fileCount = async () => (await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from uploaded_files`))[0]!.n;
  const storedNames = async () => (await readdir(dir)).sort();

  it('stores an upload bound to a visible contract under its id and streams it back to those who see the contract', async () => {
    const file = uploaded(await upload(alice, '采购合同 (签字版).pdf', pdf, { contractId: 'file-contract', purpose: 'archive' }));
    expect(file).toMatchObject({ name: '采购合同 (签字版).pdf', size: pdf.length, mimeType: 'application/pdf', contractId: 'file-contract', purpose: 'archive' });
    expect(file.file).toBe(`/api/v1/files/${file.id}`);
    expect(await storedNames()).toEqual([file.id]);
    for (const token of [alice, admin]) {
      const response = await download(file.id, token);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(pdf)).toBe(true);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toContain(encodeURIComponent('采购合同 (签字版).pdf'));
      // The download keeps its own type; the API's hardening headers still apply.
      expect(response.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
    }
    // Bob is in another department and not responsible: he may not see the contract, nor its file.
    await refused(file.id, bob, 404, 'not_found');
  });

  it('keeps unbound files to their uploader', async () => {
    const file = uploaded(await upload(bob, 'photo.png', png));
    expect((await download(file.id, bob)).statusCode).toBe(200);
    await refused(file.id, alice, 404, 'not_found');
    await refused(file.id, undefined, 401, 'unauthorized');
  });

  it('refuses oversize, unsupported, mismatched and non-PDF archive uploads, keeping nothing', async () => {
    const rowsBefore = await fileCount();
    const namesBefore = await storedNames();
    const tooBig = failure(await upload(alice, 'big.pdf', Buffer.concat([pdf, Buffer.alloc(maxBytes)])), 400, 'bad_request');
    expect(tooBig.message).toBe(uploadMessages.tooLarge);
    const exe = failure(await upload(alice, 'tool.exe', Buffer.from('MZ\x90\x00')), 400, 'bad_request');
    expect(exe.message).toBe(uploadMessages.unsupported);
    const noExtension = failure(await upload(alice, 'README', Buffer.from('hello')), 400, 'bad_request');
    expect(noExtension.message).toBe(uploadMessages.unsupported);
    const renamed = failure(await upload(alice, 'invoice.pdf', png), 400, 'bad_request');
    expect(renamed.message).toBe(uploadMessages.mismatch);
    const binaryText = failure(await upload(alice, 'notes.txt', pdf), 400, 'bad_request');
    expect(binaryText.message).toBe(uploadMessages.mismatch);
    const empty = failure(await upload(alice, 'empty.pdf', Buffer.alloc(0)), 400, 'bad_request');
    expect(empty.message).toBe(uploadMessages.mismatch);
    const archive = failure(await upload(alice, 'scan.png', png, { purpose: 'archive' }), 400, 'bad_request');
    expect(archive.message).toBe(uploadMessages.unsupported);
    failure(await upload(alice, 'a.pdf', pdf, { purpose: 'other' }), 400, 'validation_failed');
    failure(await upload(alice, 'a.pdf', pdf, { extra: '1' }), 400, 'validation_failed');
    failure(await upload(bob, 'a.pdf', pdf, { contractId: 'file-contract' }), 404, 'not_found');
    failure(await upload(alice, 'a.pdf', pdf, { contractId: 'no-such-contract' }), 404, 'not_found');
    failure(await upload(undefined, 'a.pdf', pdf), 401, 'unauthorized');
    const garbage = await app.inject({
      method: 'POST', url: '/api/v1/files',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'multipart/form-data; boundary=nothing-here' }, payload: 'not multipart at all',
    });
    expect(garbage.statusCode).toBeGreaterThanOrEqual(400);
    expect(garbage.statusCode).toBeLessThan(500);
    const truncated = multipartBody('cut.pdf', pdf);
    const cut = await app.inject({
      method: 'POST', url: '/api/v1/files', headers: { ...truncated.headers, authorization: `Bearer ${alice}` }, payload: truncated.payload.subarray(0, 300),
    });
    expect(cut.statusCode).toBeGreaterThanOrEqual(400);
    expect(cut.statusCode).toBeLessThan(500);
    const json = await app.inject({ method: 'POST', url: '/api/v1/files', headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' }, payload: '{}' });
    expect(json.statusCode).toBe(400);
    expect(await fileCount()).toBe(rowsBefore);
    expect(await storedNames()).toEqual(namesBefore);
  });

  it('cannot be steered outside the files folder', async () => {
    const file = uploaded(await upload(alice, '../../../etc/evil.txt', Buffer.from('plain text')));
    expect(file.name).toBe('evil.txt');
    expect(await storedNames()).toContain(file.id);
    expect((await readdir(path.dirname(dir))).includes('evil.txt')).toBe(false);
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '%2E%2E', file.id.replace(/-/g, '/'), `${file.id}.part`]) {
      const response = await app.inject({ method: 'GET', url: `/api/v1/files/${id}`, headers: { authorization: `Bearer ${alice}` } });
      expect([400, 404]).toContain(response.statusCode);
      expect(response.json()).toMatchObject({ data: null });
    }
    await refused('01900000-0000-7000-8000-000000000000', alice, 404, 'not_found');
  });
});
