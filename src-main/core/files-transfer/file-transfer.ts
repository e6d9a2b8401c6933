import { randomUUID } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { z } from 'zod';
import { acceptedExtensions, fileDownloadPath, uploadMessages } from '../../../src-shared/api/files';
import { maxTemplateDocumentBytes } from '../../../src-shared/contract-document/schema';
import { AppFailure, reason, type Reason } from '../../../src-shared/errors';
import type { FormMessageKey } from '../../../src-shared/form/messages';
import { fileTypes, sniffBytes } from '../../../src-shared/api/file-types';
import { checkUploadFile, fileExtension } from '../../../src-shared/form/upload';
import type { UploadValue } from '../../../src-shared/form/field-config';
import {
  maxUploadBytes,
  maxUploadChunkBytes,
  type fileOpenRequestSchema,
  type uploadBeginRequestSchema,
  type uploadChunkRequestSchema,
} from '../../../src-shared/ipc/files';
import type { Logger } from '../ports';
import type { ActiveSession } from '../session/session-service';
import { ephemeralFileKey, openSealedFile, readSealedFile, sealedFileWriter } from '../vault/sealed-file';
import type { UploadQueue } from './upload-queue';

/**
 * The upload checks' refusals as the server gives them (a reason the renderer shows in the user's
 * language, not the English text after the code's message).
 */
const uploadRefusals: Partial<Record<FormMessageKey, Reason>> = {
  formatNotSupported: reason('fileFormatNotSupported'),
  fileTooLarge: reason('fileTooLarge'),
  wrongFileFormat: reason('fileContentMismatch'),
};

// Uploads through the core (spec 4 "File upload"): the renderer may not call the server, so it
// hands the file over in ordered chunks, written to a temporary file (never held whole in memory).
// An attachment or an archive's PDF is then kept in the replica's queued files and goes to the
// server with the sync, resumably, online or not (upload-queue.ts, issue 30); a template's
// document (an administration write, online only) is sent to the server's multipart route at
// once. The temporary file is sealed with a key that lives only in this process
// (vault/sealed-file.ts), and lives only while its upload does: cancel, sign-out and a restart
// remove it (after a crash nobody holds its key).

export interface FileTransferOptions {
  /** A folder of the core's own; everything in it is temporary. */
  dir: string;
  /** The signed-in session (throws when signed out). */
  session(): ActiveSession;
  /** The session's queued files (throws when signed out). */
  uploads(): UploadQueue;
  /** Opens a file with the system's application for it; hosts without one (the web host) pass none. */
  openFile?: (path: string) => Promise<void>;
  logger: Logger;
}

interface Upload {
  userId: string;
  path: string;
  key: Buffer;
  file: Awaited<ReturnType<typeof sealedFileWriter>>;
  name: string;
  mimeType: string;
  size: number;
  contractId?: string;
  purpose: z.output<typeof uploadBeginRequestSchema>['purpose'];
  received: number;
  nextIndex: number;
  /** The chunk being written: chunks are written one at a time. */
  writing: Promise<void> | null;
  /** Set while the file is sent to the server, so a cancel can stop it. */
  sending: AbortController | null;
}

/** Enough for several upload fields at once; more is a runaway renderer filling the disk. */
const maxOpenUploads = 16;

const serverExtensions = acceptedExtensions.map((extension) => `.${extension}`);

/** What each purpose accepts, as the server does: archives are PDFs, a template's document a DOCX of its own limit. */
const uploadRules = {
  attachment: { accept: serverExtensions, maxSize: maxUploadBytes },
  archive: { accept: ['.pdf'], maxSize: maxUploadBytes },
  template: { accept: ['.docx'], maxSize: maxTemplateDocumentBytes },
} as const;

/** The name a downloaded file is kept under: no directory part, no characters a file system refuses. */
function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').trim();
  return clean && clean !== '.' && clean !== '..' ? clean.slice(-200) : 'file';
}

/** The stored name the server gives (`filename*=UTF-8''…`, docs/api/files.md). */
function dispositionName(disposition: string | null): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (!encoded) return 'file';
  try {
    return decodeURIComponent(encoded);
  } catch {
    return 'file';
  }
}

export function createFileTransfer(options: FileTransferOptions) {
  const uploadsDir = join(options.dir, 'uploads');
  const openedDir = join(options.dir, 'opened');
  const uploads = new Map<string, Upload>();
  // A file another application still holds open (Windows) cannot go yet: the next start removes it.
  const removeAll = () =>
    rm(options.dir, { recursive: true, force: true }).catch((error: unknown) => options.logger.warn(`could not remove ${options.dir}`, String(error)));
  // Whatever a previous run left (a crash mid-upload) is abandoned.
  try {
    rmSync(options.dir, { recursive: true, force: true });
  } catch (error) {
    options.logger.warn(`could not remove ${options.dir}`, String(error));
  }

  function ownUpload(uploadId: string): Upload {
    const upload = uploads.get(uploadId);
    if (!upload || upload.userId !== options.session().user.id) throw new AppFailure('not_found', `no upload ${uploadId} is in progress`);
    return upload;
  }

  async function discard(uploadId: string, upload: Upload): Promise<void> {
    uploads.delete(uploadId);
    upload.sending?.abort();
    await upload.writing?.catch(() => undefined);
    await upload.file.close();
    await rm(upload.path, { force: true });
  }

  /** Sends with the session's token, signing in again once with the refresh token on 401. */
  async function withToken<T>(session: ActiveSession, send: (token: string) => Promise<T>): Promise<T> {
    try {
      try {
        return await send(session.token());
      } catch (cause) {
        if (!(cause instanceof AppFailure) || cause.error.code !== 'unauthorized') throw cause;
        await session.refreshTokens();
        return await send(session.token());
      }
    } catch (cause) {
      if (cause instanceof AppFailure && cause.error.code === 'server_unreachable') throw new AppFailure('offline');
      throw cause;
    }
  }

  /** A queued file not sent yet opens from its kept copy (offline too), in clear only while opened. */
  async function openKept(id: string, kept: { path: string; name: string }): Promise<Record<string, never>> {
    const folder = join(openedDir, id);
    await mkdir(folder, { recursive: true });
    const path = join(folder, safeFileName(kept.name));
    await writeFile(path, await readSealedFile(kept.path, options.session().fileKey), { mode: 0o600 });
    await options.openFile!(path);
    return {};
  }

  return {
    /** Checks the file with the form's own rules and the spec's messages before any byte moves. */
    async begin(request: z.output<typeof uploadBeginRequestSchema>): Promise<{ uploadId: string }> {
      const session = options.session();
      const checked = checkUploadFile({ name: request.name, size: request.size, type: request.mimeType }, uploadRules[request.purpose]);
      if (!checked.ok) throw new AppFailure('bad_request', checked.message.text, undefined, uploadRefusals[checked.message.key]);
      if (uploads.size >= maxOpenUploads) throw new AppFailure('rate_limited', `at most ${maxOpenUploads} uploads can run at once`);
      const uploadId = randomUUID();
      const path = join(uploadsDir, `${uploadId}.part`);
      await mkdir(uploadsDir, { recursive: true });
      const key = ephemeralFileKey();
      uploads.set(uploadId, {
        userId: session.user.id,
        path,
        key,
        file: await sealedFileWriter(path, key),
        name: request.name,
        mimeType: request.mimeType,
        size: request.size,
        contractId: request.contractId,
        purpose: request.purpose,
        received: 0,
        nextIndex: 0,
        writing: null,
        sending: null,
      });
      return { uploadId };
    },

    /** Appends chunk `index`; a chunk out of order, a repeat or one past the size changes nothing. */
    async chunk({ uploadId, index, data }: z.output<typeof uploadChunkRequestSchema>): Promise<{ received: number }> {
      const upload = ownUpload(uploadId);
      if (upload.sending) throw new AppFailure('conflict', 'the upload is already being sent');
      if (upload.writing) throw new AppFailure('conflict', 'the previous chunk is still being written: send chunks one at a time');
      if (index < upload.nextIndex) throw new AppFailure('conflict', `chunk ${index} was already received`);
      if (index > upload.nextIndex) throw new AppFailure('bad_request', `chunk ${index} is out of order: chunk ${upload.nextIndex} comes next`);
      const bytes = Buffer.from(data, 'base64');
      if (bytes.length > maxUploadChunkBytes) throw new AppFailure('bad_request', `a chunk holds at most ${maxUploadChunkBytes} bytes`);
      if (upload.received + bytes.length > upload.size) {
        throw new AppFailure('bad_request', `chunk ${index} goes past the file's size of ${upload.size} bytes`);
      }
      upload.writing = upload.file.append(bytes);
      try {
        await upload.writing;
      } finally {
        upload.writing = null;
      }
      upload.received += bytes.length;
      upload.nextIndex += 1;
      return { received: upload.received };
    },

    /**
     * Keeps an attachment or archive PDF in the queued files (it goes with the sync), or sends a
     * template's document to the server now; forgets the temporary file either way.
     */
    async finish({ uploadId }: { uploadId: string }): Promise<UploadValue> {
      const upload = ownUpload(uploadId);
      if (upload.sending) throw new AppFailure('conflict', 'the upload is already being sent');
      if (upload.writing) throw new AppFailure('conflict', 'a chunk is still being written');
      if (upload.received !== upload.size) {
        throw new AppFailure('bad_request', `the upload has ${upload.received} of its ${upload.size} bytes: send the remaining chunks first`);
      }
      const session = options.session();
      const sending = new AbortController();
      upload.sending = sending;
      try {
        await upload.file.finish();
        if (upload.purpose !== 'template') {
          const { purpose } = upload;
          const file = await openSealedFile(upload.path, upload.key);
          try {
            // The server sniffs the content too: what it would refuse is refused now, offline too.
            const type = fileTypes[fileExtension(upload.name).slice(1) as keyof typeof fileTypes];
            if (upload.size === 0 || !type?.matches(await file.read(0, sniffBytes))) {
              throw new AppFailure('bad_request', uploadMessages.mismatch, undefined, reason('fileContentMismatch'));
            }
            return await options.uploads().keep({ name: upload.name, size: upload.size, purpose, contractId: upload.contractId }, (offset, length) => file.read(offset, length));
          } finally {
            await file.close();
          }
        }
        const file = new Blob([new Uint8Array(await readSealedFile(upload.path, upload.key))]);
        const stored = await withToken(session, (token) =>
          session.client.uploadFile({
            file,
            name: upload.name,
            mimeType: upload.mimeType,
            contractId: upload.contractId,
            purpose: upload.purpose,
            token,
            signal: sending.signal,
          }),
        );
        return { id: stored.id, name: stored.name, file: stored.file };
      } finally {
        upload.sending = null;
        await discard(uploadId, upload);
      }
    },

    /** Stops an upload and removes its temporary file; an upload already gone is fine. */
    async cancel({ uploadId }: { uploadId: string }): Promise<Record<string, never>> {
      const upload = uploads.get(uploadId);
      if (upload && upload.userId === options.session().user.id) await discard(uploadId, upload);
      return {};
    },

    /**
     * Opens a stored file with the system's application: the download needs the session's token,
     * so the core fetches it to a temporary file first.
     */
    async open({ id }: z.output<typeof fileOpenRequestSchema>): Promise<Record<string, never>> {
      if (!options.openFile) throw new AppFailure('bad_request', 'files can be opened in the desktop app only');
      const kept = options.uploads().kept(id);
      if (kept) return openKept(id, kept);
      const session = options.session();
      const response = await withToken(session, (token) => session.client.downloadFile(id, token));
      if (!response.body) throw new AppFailure('server_error', `the contract server sent no bytes for ${fileDownloadPath(id)}`);
      const name = safeFileName(dispositionName(response.headers.get('content-disposition')));
      // Only the formats the server accepts are handed to the system (never a program).
      if (!serverExtensions.includes(fileExtension(name))) {
        await response.body.cancel();
        throw new AppFailure('bad_request', uploadMessages.unsupported, undefined, reason('fileFormatNotSupported'));
      }
      const folder = join(openedDir, id);
      await mkdir(folder, { recursive: true });
      const path = join(folder, name);
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(path, { mode: 0o600 }));
      await options.openFile(path);
      return {};
    },

    /** Sign-out and shutdown: every upload is abandoned and every temporary file removed. */
    async clear(): Promise<void> {
      await Promise.all([...uploads].map(([uploadId, upload]) => discard(uploadId, upload)));
      await removeAll();
    },
  };
}
export type FileTransfer = ReturnType<typeof createFileTransfer>;
