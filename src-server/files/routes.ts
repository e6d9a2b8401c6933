import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { okCode } from '../../src-shared/api/envelope';
import { fileUploadPath, uploadMessages, uploadQuerySchema, uploadSessionsPath } from '../../src-shared/api/files';
import { readDocumentBookmarks } from '../../src-shared/contract-document/docx';
import { AppFailure, reason, validationFailure } from '../../src-shared/errors';
import { appendAuditEvents } from '../audit/chain';
import { changedFields } from '../audit/record';
import { restAuditEntry } from '../audit/rest';
import { authenticate } from '../auth/service';
import { visibleTo } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { defaultDataDir } from '../db/database';
import { contracts } from '../db/schema';
import { notFound, type OrgViewer } from '../http/feature-helpers';
import { uploadedFiles } from './schema';
import { fileTypes, isAcceptedExtension, sniffBytes } from '../../src-shared/api/file-types';
import { registerUploadRoutes, uploadedFileOf } from './uploads';

// Uploads are streamed to `<dir>/<id>.part` (never held in memory), checked, then renamed to
// `<dir>/<id>`: the stored name is the row's UUID, so no client-given name reaches the file system.
// These routes lie outside the endpoint map, so they record their audit events themselves.

/**
 * Every write route here, with the audit event it records (issue 32, item 4; none when refused):
 * tests/server/audit.test.ts fails on a write route that is neither in the endpoint map nor here.
 */
export const fileWriteRoutes: Readonly<Record<string, string>> = {
  [`POST ${fileUploadPath}`]: 'fileUpload: the stored file',
  [`POST ${uploadSessionsPath}`]: 'none when it begins an upload (nothing is stored yet); fileUploadComplete when it finds one whose last byte is in',
  [`PATCH ${uploadSessionsPath}/:id`]: 'fileUploadComplete with the chunk that completes the file',
  [`DELETE ${uploadSessionsPath}/:id`]: 'fileUploadCancel when it drops an unfinished upload',
};

export interface FileStoreOptions {
  /** The folder files are kept in. */
  dir: string;
  /** The largest accepted upload in bytes. */
  maxBytes: number;
}

export const defaultMaxUploadBytes = 20 * 1024 * 1024;

/** CONTRACT_SERVER_FILES_DIR and CONTRACT_SERVER_MAX_UPLOAD_BYTES override the defaults; explicit options win. */
export function resolveFileStoreOptions(options: Partial<FileStoreOptions> = {}, dataDir = defaultDataDir): FileStoreOptions {
  const envMax = Number(process.env.CONTRACT_SERVER_MAX_UPLOAD_BYTES);
  return {
    dir: path.resolve(options.dir ?? (process.env.CONTRACT_SERVER_FILES_DIR || path.join(dataDir, 'files'))),
    maxBytes: options.maxBytes ?? (Number.isSafeInteger(envMax) && envMax > 0 ? envMax : defaultMaxUploadBytes),
  };
}

/** The client's file name without any directory part or control characters, for display only. */
function displayName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(-255);
  return clean || 'file';
}

function parseQuery<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationFailure(result.error);
  return result.data;
}

/** Counts, hashes and keeps the first bytes of what passes through. */
function inspector() {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      if (headLength < sniffBytes) {
        head.push(chunk.subarray(0, sniffBytes - headLength));
        headLength += Math.min(chunk.length, sniffBytes - headLength);
      }
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ size, sha256: hash.digest('hex'), head: Buffer.concat(head) }) };
}

/**
 * A broken multipart body (cut short, no parts, a wrong boundary) is the client's fault: 400.
 * File-system errors (codes like ENOSPC) stay server errors.
 */
function asClientError(error: unknown): unknown {
  if (error instanceof AppFailure) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return error;
  return new AppFailure('bad_request', `the upload is malformed: ${error instanceof Error ? error.message : String(error)}`);
}

async function removeQuietly(file: string): Promise<void> {
  await unlink(file).catch(() => undefined);
}

export function registerFileRoutes(app: FastifyInstance, db: ServerDb, now: () => Date, options: FileStoreOptions): void {
  const signedIn = (request: FastifyRequest) => authenticate(db, request.headers.authorization, now());

  async function visibleContract(viewer: OrgViewer, contractId: string): Promise<boolean> {
    const [row] = await db.select({ id: contracts.id }).from(contracts).where(and(eq(contracts.id, contractId), visibleTo(viewer)));
    return row !== undefined;
  }

  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: options.maxBytes, files: 1, fields: 5, parts: 6, fieldSize: 1024 } });

    scope.post(fileUploadPath, async (request, reply) => {
      const viewer = await signedIn(request);
      const query = parseQuery(uploadQuerySchema, request.query);
      if (query.contractId !== undefined && !(await visibleContract(viewer, query.contractId))) throw notFound('contract');
      if (!request.isMultipart()) throw new AppFailure('bad_request', 'expected a multipart/form-data body with one file');
      const part = await request.file({ throwFileSizeLimit: false }).catch((error: unknown) => {
        throw asClientError(error);
      });
      if (!part) throw new AppFailure('bad_request', 'no file in the upload');

      const name = displayName(part.filename);
      const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
      if (!isAcceptedExtension(extension) || (query.purpose === 'archive' && extension !== 'pdf') || (query.purpose === 'template' && extension !== 'docx')) {
        part.file.resume();
        throw new AppFailure('bad_request', uploadMessages.unsupported, undefined, reason('fileFormatNotSupported'));
      }

      await mkdir(options.dir, { recursive: true });
      const id = uuidv7();
      const target = path.join(options.dir, id);
      const temporary = `${target}.part`;
      const inspect = inspector();
      try {
        await pipeline(part.file, inspect.stream, createWriteStream(temporary, { flags: 'wx' }));
        if (part.file.truncated) throw new AppFailure('bad_request', uploadMessages.tooLarge, undefined, reason('fileTooLarge'));
        const { size, sha256, head } = inspect.result();
        if (size === 0 || !fileTypes[extension].matches(head)) throw new AppFailure('bad_request', uploadMessages.mismatch, undefined, reason('fileContentMismatch'));
        // A template's document must be a Word document whose bookmarks can be mapped (its size checked first).
        if (query.purpose === 'template') readDocumentBookmarks(new Uint8Array(await readFile(temporary)));
        await rename(temporary, target);
        const createTime = now();
        const row = {
          id, organisationId: viewer.organisationId, contractId: query.contractId ?? null, uploadedBy: viewer.id, name, extension,
          mimeType: fileTypes[extension].mimeType, size, sha256, purpose: query.purpose, createTime,
        };
        await db.transaction(async (tx) => {
          await tx.insert(uploadedFiles).values(row);
          await appendAuditEvents(tx, [restAuditEntry(viewer, request.headers, createTime, { entity: 'file', entityId: id, action: 'fileUpload', changes: changedFields(undefined, row) })]);
        });
        return reply.send({ code: okCode, message: 'ok', data: uploadedFileOf(row) });
      } catch (error) {
        await removeQuietly(temporary);
        await removeQuietly(target);
        throw asClientError(error);
      }
    });

    registerUploadRoutes(scope, db, now, signedIn, { ...options, visibleContract });

    scope.get(`${fileUploadPath}/:id`, async (request, reply) => {
      const viewer = await signedIn(request);
      const { id } = parseQuery(z.object({ id: z.string().uuid() }).strict(), request.params);
      const [file] = await db.select().from(uploadedFiles).where(and(eq(uploadedFiles.id, id), eq(uploadedFiles.organisationId, viewer.organisationId)));
      // A file of a contract follows the contract's visibility; a template's document is the
      // organisation's (every drafter fills it); another unbound file is its uploader's.
      const allowed =
        file && (file.contractId !== null ? await visibleContract(viewer, file.contractId) : file.purpose === 'template' || file.uploadedBy === viewer.id);
      if (!file || !allowed) throw notFound('file');
      const stored = path.join(options.dir, file.id);
      const size = await stat(stored).then((s) => s.size, () => undefined);
      if (size === undefined) throw notFound('file');
      return reply
        .header('content-type', file.mimeType)
        .header('content-length', String(size))
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .send(createReadStream(stored));
    });
  });
}
