import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { envelopeSchema } from '../../src-shared/api/envelope';
import { uploadChunkContentType, uploadOffsetHeader, uploadSessionLifetimeMs, uploadSessionSchema, uploadSessionsPath, type UploadSession } from '../../src-shared/api/files';
import { fileUploads } from '../../src-server/files/schema';
import { runMaintenance } from '../../src-server/maintenance';
import { buildContractServer, demoUsers, seedDatabase } from '../../src-server/index';
import { describeOnDatabases, queryRows, signIn } from './support';

// Resumable uploads (issue 30; server migration 0041, file_uploads): chunks at acknowledged
// offsets, the whole file's SHA-256 checked at the end, the client's id kept as the stored file's,
// and uploads nobody continues removed once expired.

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;
const chunk = 64 * 1024;
const pdfOf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(bytes - 9)]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describeOnDatabases('resumable uploads', (fixture) => {
  let app: FastifyInstance;
  let dir: string;
  let alice: string;
  let bob: string;
  let clock: Date;

  beforeAll(async () => {
    clock = new Date();
    await seedDatabase(fixture.db, { contracts: 5, seed: 30 });
    dir = await mkdtemp(path.join(tmpdir(), 'contract-uploads-'));
    app = buildContractServer(fixture.db, { files: { dir, maxBytes: 1024 * 1024 }, now: () => clock });
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
    bob = (await signIn(app, 'bob', demo('bob').password)).token;
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const answer = (response: { statusCode: number; json(): unknown }): UploadSession => {
    expect(response.statusCode, JSON.stringify(response.json())).toBe(200);
    return envelopeSchema(uploadSessionSchema).parse(response.json()).data;
  };
  const begin = (token: string, body: Record<string, unknown>) => app.inject({ method: 'POST', url: uploadSessionsPath, headers: auth(token), payload: body });
  const sendChunk = (token: string, id: string, offset: number, bytes: Buffer) =>
    app.inject({ method: 'PATCH', url: `${uploadSessionsPath}/${id}`, headers: { ...auth(token), 'content-type': uploadChunkContentType, [uploadOffsetHeader]: String(offset) }, payload: bytes });
  const standing = (token: string, id: string) => app.inject({ method: 'GET', url: `${uploadSessionsPath}/${id}`, headers: auth(token) });
  const uploadsLeft = async () => (await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from file_uploads`))[0]!.n;

  it('takes chunks at the acknowledged offset only, and the finished upload is the stored file of the same id', async () => {
    const bytes = pdfOf(3 * chunk + 100);
    const id = randomUUID();
    const body = { id, name: 'signed.pdf', size: bytes.length, sha256: sha256(bytes), purpose: 'archive' };
    expect(answer(await begin(alice, body))).toMatchObject({ id, offset: 0, file: null });

    expect(answer(await sendChunk(alice, id, 0, bytes.subarray(0, chunk))).offset).toBe(chunk);
    // A chunk sent again (its answer was lost) or one ahead of the offset changes nothing.
    const repeated = await sendChunk(alice, id, 0, bytes.subarray(0, chunk));
    expect(repeated.statusCode).toBe(409);
    expect(repeated.json()).toMatchObject({ code: 'conflict', reason: { key: 'uploadOffsetMoved', params: { offset: chunk } } });
    expect((await sendChunk(alice, id, 2 * chunk, bytes.subarray(2 * chunk, 3 * chunk))).statusCode).toBe(409);
    // Begun again (a restarted client), it answers where it stands.
    expect(answer(await begin(alice, body)).offset).toBe(chunk);
    // Another user neither sees nor continues it.
    expect((await standing(bob, id)).statusCode).toBe(404);
    expect((await sendChunk(bob, id, chunk, bytes.subarray(chunk, 2 * chunk))).statusCode).toBe(404);

    expect(answer(await sendChunk(alice, id, chunk, bytes.subarray(chunk, 3 * chunk))).offset).toBe(3 * chunk);
    const done = answer(await sendChunk(alice, id, 3 * chunk, bytes.subarray(3 * chunk)));
    expect(done).toMatchObject({ offset: bytes.length, expiresAt: null, file: { id, name: 'signed.pdf', size: bytes.length, purpose: 'archive', file: `/api/v1/files/${id}` } });
    expect(await uploadsLeft()).toBe(0);
    expect((await readFile(path.join(dir, id))).equals(bytes)).toBe(true);
    const download = await app.inject({ method: 'GET', url: `/api/v1/files/${id}`, headers: auth(alice) });
    expect(download.rawPayload.equals(bytes)).toBe(true);
    // Exactly once: begun again after it finished (the answer was lost), it is the stored file.
    expect(answer(await begin(alice, body)).file?.id).toBe(id);
    expect((await begin(alice, { ...body, sha256: sha256(Buffer.from('other')) })).statusCode).toBe(409);
  });

  it('refuses a file whose bytes do not have the digest it began with, keeping nothing of it', async () => {
    const bytes = pdfOf(chunk + 10);
    const id = randomUUID();
    answer(await begin(alice, { id, name: 'scan.pdf', size: bytes.length, sha256: sha256(pdfOf(chunk + 10)), purpose: 'attachment' }));
    answer(await sendChunk(alice, id, 0, bytes.subarray(0, chunk)));
    const last = await sendChunk(alice, id, chunk, bytes.subarray(chunk));
    expect(last.statusCode).toBe(400);
    expect(last.json()).toMatchObject({ code: 'bad_request', reason: { key: 'uploadChecksumMismatch' } });
    expect((await standing(alice, id)).statusCode).toBe(404);
    expect((await readdir(dir)).filter((name) => name.startsWith(id))).toEqual([]);
  });

  it('refuses at begin what the multipart route refuses: format, archive not a PDF, size; and content at the end', async () => {
    const refusedAt = async (body: Record<string, unknown>, key: string) => expect((await begin(alice, { id: randomUUID(), sha256: sha256(Buffer.from('x')), ...body })).json()).toMatchObject({ reason: { key } });
    await refusedAt({ name: 'tool.exe', size: 10, purpose: 'attachment' }, 'fileFormatNotSupported');
    await refusedAt({ name: 'scan.png', size: 10, purpose: 'archive' }, 'fileFormatNotSupported');
    await refusedAt({ name: 'big.pdf', size: 1024 * 1024 + 1, purpose: 'attachment' }, 'fileTooLarge');
    const notPng = Buffer.from('plain text, not an image');
    const id = randomUUID();
    answer(await begin(alice, { id, name: 'photo.png', size: notPng.length, sha256: sha256(notPng), purpose: 'attachment' }));
    expect((await sendChunk(alice, id, 0, notPng)).json()).toMatchObject({ reason: { key: 'fileContentMismatch' } });
    // A chunk past the file's end is refused whole.
    const other = randomUUID();
    answer(await begin(alice, { id: other, name: 'a.txt', size: 4, sha256: sha256(Buffer.from('abcd')), purpose: 'attachment' }));
    expect((await sendChunk(alice, other, 0, Buffer.from('abcdef'))).statusCode).toBe(400);
    expect(answer(await standing(alice, other)).offset).toBe(0);
  });

  it('abandons an upload on DELETE, keeping a finished file', async () => {
    const bytes = Buffer.from('short text file');
    const id = randomUUID();
    answer(await begin(alice, { id, name: 'note.txt', size: bytes.length, sha256: sha256(bytes), purpose: 'attachment' }));
    answer(await app.inject({ method: 'DELETE', url: `${uploadSessionsPath}/${id}`, headers: auth(alice) }));
    expect((await standing(alice, id)).statusCode).toBe(404);
    const finished = randomUUID();
    answer(await begin(alice, { id: finished, name: 'note.txt', size: bytes.length, sha256: sha256(bytes), purpose: 'attachment' }));
    answer(await sendChunk(alice, finished, 0, bytes));
    expect(answer(await app.inject({ method: 'DELETE', url: `${uploadSessionsPath}/${finished}`, headers: auth(alice) })).file?.id).toBe(finished);
  });
  it('acknowledges only what the disk holds, and removes uploads nobody continued once they expired', async () => {
    const bytes = pdfOf(2 * chunk);
    const id = randomUUID();
    answer(await begin(alice, { id, name: 'left.pdf', size: bytes.length, sha256: sha256(bytes), purpose: 'attachment' }));
    answer(await sendChunk(alice, id, 0, bytes.subarray(0, chunk)));
    // A crash between a chunk's claim and its write: the row is ahead of the disk, and is set back.
    await fixture.db.update(fileUploads).set({ received: 2 * chunk - 1 }).where(eq(fileUploads.id, id));
    expect(answer(await standing(alice, id)).offset).toBe(chunk);

    const kept = randomUUID();
    answer(await begin(alice, { id: kept, name: 'kept.pdf', size: bytes.length, sha256: sha256(bytes), purpose: 'attachment' }));
    // Sign-ins last less than an upload: signed in again after each wait.
    clock = new Date(clock.getTime() + uploadSessionLifetimeMs / 2);
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
    answer(await sendChunk(alice, kept, 0, bytes.subarray(0, chunk)));
    clock = new Date(clock.getTime() + uploadSessionLifetimeMs / 2 + 1000);
    alice = (await signIn(app, 'alice', demo('alice').password)).token;
    await runMaintenance(fixture.db, () => undefined, clock, dir);
    // The one continued half way through its life is kept; the other is gone, bytes and all.
    expect((await standing(alice, kept)).statusCode).toBe(200);
    expect((await standing(alice, id)).statusCode).toBe(404);
    expect((await readdir(dir)).filter((name) => name.startsWith(id))).toEqual([]);
    expect(await uploadsLeft()).toBe(1);
  });

});
