import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { okCode } from '../../src-shared/api/envelope';
import {
  fileDownloadPath,
  maxUploadSessionChunkBytes,
  uploadChunkContentType,
  uploadMessages,
  uploadOffsetHeader,
  uploadSessionBeginSchema,
  uploadSessionLifetimeMs,
  uploadSessionsPath,
  type UploadedFile,
  type UploadSession,
} from '../../src-shared/api/files';
import { AppFailure, reason, validationFailure } from '../../src-shared/errors';
import { appendAuditEvents } from '../audit/chain';
import { changedFields } from '../audit/record';
import { restAuditEntry } from '../audit/rest';
import type { SessionUser } from '../auth/service';
import type { ServerDb } from '../db/database';
import { notFound, type OrgViewer } from '../http/feature-helpers';
import type { Headers } from '../http/write-safety';
import { fileUploads, uploadedFiles } from './schema';
import { fileTypes, isAcceptedExtension, sniffBytes } from '../../src-shared/api/file-types';

// Resumable uploads (issue 30, docs/api/files.md): begin names the upload with the client's
// UUID; each chunk must start at the acknowledged offset and is acknowledged only once it is on
// the disk, so a cut request leaves the offset where it was; the last chunk checks the whole
// file's SHA-256 and its content, and the upload becomes the stored file of the same id.
//
// Several server processes may serve one upload (a client retrying after a timeout reaches
// another): a chunk is first received into a file of its own, then claimed by a conditional
// update of the acknowledged offset, and only the claim's winner writes it at its offset. The
// bytes on disk may lag the row after a crash between claim and write; every read of an upload
// repairs the offset down to what the disk holds, so nothing unwritten is ever acknowledged.

type UploadRow = typeof fileUploads.$inferSelect;

export interface UploadRoutesOptions {
  dir: string;
  maxBytes: number;
  /** Whether the viewer may bind files to the contract. */
  visibleContract(viewer: OrgViewer, contractId: string): Promise<boolean>;
}

const partOf = (dir: string, id: string) => path.join(dir, `${id}.upload`);

export function uploadedFileOf(row: typeof uploadedFiles.$inferSelect): UploadedFile {
  return {
    id: row.id, name: row.name, file: fileDownloadPath(row.id), size: row.size, mimeType: row.mimeType, purpose: row.purpose as UploadedFile['purpose'],
    contractId: row.contractId, createTime: row.createTime.toISOString(),
  };
}

const sessionOf = (row: UploadRow): UploadSession => ({ id: row.id, size: row.size, offset: row.received, file: null, expiresAt: row.expiresAt.toISOString() });
const completeSession = (file: typeof uploadedFiles.$inferSelect): UploadSession => ({ id: file.id, size: file.size, offset: file.size, file: uploadedFileOf(file), expiresAt: null });

const sizeOnDisk = (file: string) => stat(file).then((s) => s.size, () => 0);
const removeQuietly = (file: string) => unlink(file).catch(() => undefined);

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

async function headOf(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(sniffBytes);
    const { bytesRead } = await handle.read(head, 0, sniffBytes, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '');

/** The upload's bytes and row go (an abandoned, expired or refused upload). */
async function removeUpload(db: ServerDb, dir: string, id: string): Promise<void> {
  await db.delete(fileUploads).where(eq(fileUploads.id, id));
  await removeQuietly(partOf(dir, id));
}

/** Removes the uploads nobody continued before they expired (the server's housekeeping). */
export async function removeExpiredUploads(db: ServerDb, dir: string, now: Date): Promise<number> {
  const expired = await db.delete(fileUploads).where(lt(fileUploads.expiresAt, now)).returning({ id: fileUploads.id });
  for (const { id } of expired) await removeQuietly(partOf(dir, id));
  return expired.length;
}

/** Who asked, for the audit event of a completion or a cancel. */
interface Asker {
  user: SessionUser;
  headers: Headers;
}

export function registerUploadRoutes(scope: FastifyInstance, db: ServerDb, now: () => Date, signedIn: (request: FastifyRequest) => Promise<SessionUser>, options: UploadRoutesOptions): void {
  const expiry = () => new Date(now().getTime() + uploadSessionLifetimeMs);

  /** The viewer's upload of this id; a stored file of theirs with it; or not found (another's, expired, never begun). */
  async function find(viewer: OrgViewer, id: string): Promise<{ row: UploadRow } | { file: typeof uploadedFiles.$inferSelect } | null> {
    const [file] = await db.select().from(uploadedFiles).where(eq(uploadedFiles.id, id));
    if (file) return file.uploadedBy === viewer.id && file.organisationId === viewer.organisationId ? { file } : null;
    const [row] = await db.select().from(fileUploads).where(eq(fileUploads.id, id));
    if (!row || row.uploadedBy !== viewer.id || row.organisationId !== viewer.organisationId) return null;
    if (row.expiresAt < now()) {
      await removeUpload(db, options.dir, id);
      return null;
    }
    // What the disk holds is what counts (a crash between a chunk's claim and its write).
    const held = await sizeOnDisk(partOf(options.dir, id));
    if (held < row.received) {
      const [repaired] = await db.update(fileUploads).set({ received: held }).where(and(eq(fileUploads.id, id), eq(fileUploads.received, row.received))).returning();
      return repaired ? { row: repaired } : find(viewer, id);
    }
    return { row };
  }

  /**
   * The last byte is in: the whole file must have the digest the client gave and the content its
   * extension promises; then it becomes the stored file of the same id. Runs again after a crash
   * part way (the stored row written, or the bytes renamed, already).
   */
  async function complete(row: UploadRow, asker: Asker): Promise<UploadSession> {
    const part = partOf(options.dir, row.id);
    const target = path.join(options.dir, row.id);
    const source = (await sizeOnDisk(part)) === row.size ? part : target;
    const refuse = async (failure: AppFailure) => {
      await removeUpload(db, options.dir, row.id);
      throw failure;
    };
    if ((await sha256Of(source)) !== row.sha256) {
      return refuse(new AppFailure('bad_request', 'the uploaded bytes do not have the SHA-256 the upload began with', undefined, reason('uploadChecksumMismatch')));
    }
    const extension = row.extension as keyof typeof fileTypes;
    if (!fileTypes[extension].matches(await headOf(source))) return refuse(new AppFailure('bad_request', uploadMessages.mismatch, undefined, reason('fileContentMismatch')));
    if (source === part) await rename(part, target);
    const stored = {
      id: row.id, organisationId: row.organisationId, contractId: row.contractId, uploadedBy: row.uploadedBy, name: row.name, extension: row.extension,
      mimeType: fileTypes[extension].mimeType, size: row.size, sha256: row.sha256, purpose: row.purpose, createTime: now(),
    };
    await db.transaction(async (tx) => {
      // A completion run again after a crash finds the file stored already, and its event recorded.
      const [inserted] = await tx.insert(uploadedFiles).values(stored).onConflictDoNothing().returning();
      await tx.delete(fileUploads).where(eq(fileUploads.id, row.id));
      if (inserted) {
        await appendAuditEvents(tx, [restAuditEntry(asker.user, asker.headers, stored.createTime, { entity: 'file', entityId: row.id, action: 'fileUploadComplete', changes: changedFields(undefined, inserted) })]);
      }
    });
    const [file] = await db.select().from(uploadedFiles).where(eq(uploadedFiles.id, row.id));
    return completeSession(file!);
  }

  /** Where the upload stands, completing one whose last byte is in (a crash before it was checked). */
  async function standing(found: NonNullable<Awaited<ReturnType<typeof find>>>, asker: Asker): Promise<UploadSession> {
    if ('file' in found) return completeSession(found.file);
    return found.row.received === found.row.size ? complete(found.row, asker) : sessionOf(found.row);
  }

  const idOf = (request: FastifyRequest) => {
    const parsed = uploadSessionBeginSchema.shape.id.safeParse((request.params as { id?: unknown }).id);
    if (!parsed.success) throw validationFailure(parsed.error);
    return parsed.data;
  };
  const send = (data: UploadSession) => ({ code: okCode, message: 'ok', data });

  // A chunk's body is read as a stream here: never held whole, and its size is checked as it comes.
  scope.addContentTypeParser(uploadChunkContentType, (_request, payload, done) => done(null, payload));

  scope.post(uploadSessionsPath, async (request) => {
    const viewer = await signedIn(request);
    const parsed = uploadSessionBeginSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationFailure(parsed.error);
    const begin = parsed.data;
    const extension = extensionOf(begin.name);
    if (!isAcceptedExtension(extension) || (begin.purpose === 'archive' && extension !== 'pdf')) {
      throw new AppFailure('bad_request', uploadMessages.unsupported, undefined, reason('fileFormatNotSupported'));
    }
    if (begin.size > options.maxBytes) throw new AppFailure('bad_request', uploadMessages.tooLarge, undefined, reason('fileTooLarge'));
    if (begin.contractId !== undefined && !(await options.visibleContract(viewer, begin.contractId))) throw notFound('contract');
    const found = await find(viewer, begin.id);
    if (found) {
      const kept = 'file' in found ? found.file : found.row;
      // The same id for another file is a client's mistake, never a resumption.
      if (kept.size !== begin.size || kept.sha256 !== begin.sha256) throw new AppFailure('conflict', `upload ${begin.id} was begun for another file`);
      if ('row' in found) await db.update(fileUploads).set({ expiresAt: expiry() }).where(eq(fileUploads.id, begin.id));
      return send(await standing(found, { user: viewer, headers: request.headers }));
    }
    await mkdir(options.dir, { recursive: true });
    await writeFile(partOf(options.dir, begin.id), new Uint8Array(0), { flag: 'a', mode: 0o600 });
    const [row] = await db
      .insert(fileUploads)
      .values({
        id: begin.id, organisationId: viewer.organisationId, contractId: begin.contractId ?? null, uploadedBy: viewer.id, name: begin.name, extension,
        size: begin.size, sha256: begin.sha256, purpose: begin.purpose, received: 0, createTime: now(), expiresAt: expiry(),
      })
      .onConflictDoNothing()
      .returning();
    // Another request begun the same id meanwhile (or another user holds it): as found now.
    if (!row) {
      const again = await find(viewer, begin.id);
      if (!again) throw new AppFailure('conflict', `upload ${begin.id} was begun by someone else`);
      return send(await standing(again, { user: viewer, headers: request.headers }));
    }
    return send(sessionOf(row));
  });

  scope.get(`${uploadSessionsPath}/:id`, async (request) => {
    const viewer = await signedIn(request);
    const found = await find(viewer, idOf(request));
    if (!found) throw notFound('upload');
    return send(await standing(found, { user: viewer, headers: request.headers }));
  });

  scope.patch(`${uploadSessionsPath}/:id`, async (request) => {
    const viewer = await signedIn(request);
    const id = idOf(request);
    const body = request.body as Readable | undefined;
    const drain = () => body?.resume();
    if (!body || typeof body.pipe !== 'function') throw new AppFailure('bad_request', `a chunk is sent as ${uploadChunkContentType}`);
    const offset = Number(request.headers[uploadOffsetHeader]);
    if (!Number.isSafeInteger(offset) || offset < 0) {
      drain();
      throw new AppFailure('bad_request', `a chunk names the offset it starts at in the ${uploadOffsetHeader} header`);
    }
    const found = await find(viewer, id);
    if (!found) {
      drain();
      throw notFound('upload');
    }
    if ('file' in found || found.row.received !== offset) {
      drain();
      const at = 'file' in found ? found.file.size : found.row.received;
      throw new AppFailure('conflict', `the upload has ${at} bytes: a chunk must start there, not at ${offset}`, undefined, reason('uploadOffsetMoved', { offset: at }));
    }
    const { row } = found;
    const room = Math.min(maxUploadSessionChunkBytes, row.size - offset);
    // The chunk arrives whole in a file of its own: a cut request acknowledges nothing.
    const chunk = path.join(options.dir, `${id}.${randomUUID()}.chunk`);
    let length = 0;
    try {
      await pipeline(
        body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const piece of source) {
            length += piece.length;
            if (length > room) throw new AppFailure('bad_request', `a chunk at ${offset} holds at most ${room} bytes`);
            yield piece;
          }
        },
        createWriteStream(chunk, { mode: 0o600 }),
      );
      if (length === 0) throw new AppFailure('bad_request', 'a chunk holds at least one byte');
      const [claimed] = await db
        .update(fileUploads)
        .set({ received: offset + length, expiresAt: expiry() })
        .where(and(eq(fileUploads.id, id), eq(fileUploads.received, offset), sql`${fileUploads.expiresAt} >= ${now()}`))
        .returning();
      if (!claimed) throw new AppFailure('conflict', `another request wrote at ${offset} first`, undefined, reason('uploadOffsetMoved', { offset }));
      const handle = await open(partOf(options.dir, id), 'r+');
      try {
        const bytes = await readFile(chunk);
        await handle.truncate(offset);
        await handle.write(bytes, 0, bytes.length, offset);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return send(claimed.received === claimed.size ? await complete(claimed, { user: viewer, headers: request.headers }) : sessionOf(claimed));
    } catch (error) {
      if (error instanceof AppFailure) throw error;
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && /^E[A-Z]+$/.test(code) && code !== 'ECONNRESET') throw error;
      throw new AppFailure('bad_request', `the chunk was cut short: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await removeQuietly(chunk);
    }
  });

  scope.delete(`${uploadSessionsPath}/:id`, async (request) => {
    const viewer = await signedIn(request);
    const id = idOf(request);
    const found = await find(viewer, id);
    if (!found) throw notFound('upload');
    // A stored file stays: what reached the server whole is bound where it is named.
    if ('file' in found) return send(completeSession(found.file));
    await db.transaction(async (tx) => {
      const [dropped] = await tx.delete(fileUploads).where(eq(fileUploads.id, id)).returning();
      if (dropped) await appendAuditEvents(tx, [restAuditEntry(viewer, request.headers, now(), { entity: 'upload', entityId: id, action: 'fileUploadCancel', changes: changedFields(dropped, undefined) })]);
    });
    await removeQuietly(partOf(options.dir, id));
    return send({ ...sessionOf(found.row), offset: 0, expiresAt: null });
  });
}
