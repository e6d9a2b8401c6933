import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { fileDownloadPath, type UploadSession } from '../../../src-shared/api/files';
import { AppFailure, appErrorSchema, reason, toAppError, type AppError } from '../../../src-shared/errors';
import type { UploadValue } from '../../../src-shared/form/field-config';
import type { QueuedFiles } from '../../../src-shared/ipc/files';
import { outbox, queuedFiles } from '../data/schema';
import type { ReplicaTx } from '../data/replica-features';
import type { EventHub } from '../events';
import type { Clock, Logger } from '../ports';
import type { ActiveSession } from '../session/session-service';
import { openSealedFile, sealedFileWriter } from '../vault/sealed-file';

// Files kept on this device until the server has them (issue 30; architecture, "What lives where,
// offline": queued files). A file chosen in an upload field or the archive dialog is sealed
// beside the replica under a new UUID, which is also the id the server will store it under, so
// the form value or archive step naming it is final from the start. Before the sync engine
// pushes edits, each file still wanted goes to the server's resumable upload in chunks at the
// offset the server acknowledges: a cut resumes there, a crash (kill -9) too, exactly once.

type QueuedRow = typeof queuedFiles.$inferSelect;
type Purpose = QueuedRow['purpose'];

/** A chunk a second or two long on a 2 Mbit/s link: the round trip between chunks costs little, a cut costs at most this. */
export const uploadChunkBytes = 512 * 1024;
const megabyte = 1024 * 1024;

export interface UploadQueueOptions {
  session: ActiveSession;
  hub: EventHub;
  clock: Clock;
  logger: Logger;
  /** The device's bound for kept files (the archive cache setting), which queued files count against. */
  limitBytes(): number;
  /**
   * Whether what this device shows still names the file (a contract's form values as shown):
   * edits that name it there are judged by it, so a file removed by a later edit is not wanted.
   */
  shownRowsName(db: ReplicaTx, fileId: string): boolean;
  /** The mutations whose files live on in the rows they show (judged by `shownRowsName`). */
  formEdits: readonly string[];
  chunkBytes?: number;
}

const toQueuedFile = (row: QueuedRow) => ({
  id: row.id,
  name: row.name,
  size: row.size,
  sent: row.sent,
  purpose: row.purpose,
  contractId: row.contractId,
  state: row.state,
  error: row.error === null ? null : appErrorSchema.catch({ code: 'bad_request', message: row.error }).parse(JSON.parse(row.error)),
});

/** Errors after which the file can never go as it is: the server refused it. */
const refusals = new Set(['bad_request', 'validation_failed', 'conflict', 'forbidden']);

export function createUploadQueue(options: UploadQueueOptions) {
  const { session, hub, clock, logger } = options;
  const { db } = session.replica;
  const chunkBytes = options.chunkBytes ?? uploadChunkBytes;
  const dir = `${session.replica.path}.files`;
  const fileOf = (id: string) => join(dir, id);
  /** Files kept before this run that no edit ever named were left by a form never saved. */
  const runStartedAt = clock.now().toISOString();
  const stop = new AbortController();
  let sending: Promise<void> | null = null;

  function list(): QueuedFiles {
    const rows = db.select().from(queuedFiles).orderBy(asc(queuedFiles.keptAt)).all();
    return { files: rows.map(toQueuedFile), usedBytes: rows.reduce((sum, row) => sum + row.size, 0), limitBytes: options.limitBytes() };
  }
  const changed = () => hub.emit('files.queueChanged', list());

  /**
   * Whether an edit kept here wants the file, as the replica holds it now; 'named' when edits named
   * it but none wants it any more (a later edit removed it); 'unnamed' when no edit ever did yet.
   */
  function wanted(id: string): 'wanted' | 'named' | 'unnamed' {
    const pattern = `%${id}%`;
    const naming = db.select({ name: outbox.name, state: outbox.state }).from(outbox).where(sql`${outbox.args} like ${pattern}`).all();
    const wants = naming.some((row) => row.state === 'rejected' || row.state === 'conflict' || !options.formEdits.includes(row.name)) || options.shownRowsName(db, id);
    return wants ? 'wanted' : naming.length > 0 ? 'named' : 'unnamed';
  }

  /** Sends with the session's token, signing in again once with the refresh token on 401. */
  async function withToken<T>(send: (token: string) => Promise<T>): Promise<T> {
    try {
      return await send(session.token());
    } catch (cause) {
      if (!(cause instanceof AppFailure) || cause.error.code !== 'unauthorized') throw cause;
      await session.refreshTokens();
      return send(session.token());
    }
  }

  async function forget(id: string): Promise<void> {
    db.delete(queuedFiles).where(eq(queuedFiles.id, id)).run();
    await rm(fileOf(id), { force: true });
    changed();
  }

  /** A file no edit wants any more: what the server received of it goes too. */
  async function removeEverywhere(row: QueuedRow): Promise<void> {
    await withToken((token) => session.client.abandonUpload(row.id, token)).catch((cause: unknown) => {
      if (toAppError(cause).code !== 'not_found') throw cause;
    });
    await forget(row.id);
  }

  function refused(row: QueuedRow, error: AppError): void {
    logger.warn(`the contract server refused the queued file ${row.id}`, error);
    db.update(queuedFiles).set({ state: 'refused', error: JSON.stringify(error) }).where(eq(queuedFiles.id, row.id)).run();
    changed();
  }

  /** Begins (or finds) the server's upload; a contract the server does not have yet (a draft made here) is bound later. */
  async function begin(row: QueuedRow): Promise<UploadSession> {
    const request = { id: row.id, name: row.name, size: row.size, sha256: row.sha256, purpose: row.purpose };
    if (row.contractId === null) return withToken((token) => session.client.beginUpload(request, token));
    try {
      return await withToken((token) => session.client.beginUpload({ ...request, contractId: row.contractId! }, token));
    } catch (cause) {
      if (toAppError(cause).code !== 'not_found') throw cause;
      return withToken((token) => session.client.beginUpload(request, token));
    }
  }

  /** Sends the file from the offset the server acknowledges; resolves once the server holds it whole. */
  async function upload(row: QueuedRow): Promise<void> {
    let standing = await begin(row);
    const file = await openSealedFile(fileOf(row.id), session.fileKey);
    try {
      while (standing.file === null) {
        if (stop.signal.aborted) throw new AppFailure('server_unreachable', 'the upload stopped with the session');
        const offset = standing.offset;
        if (offset !== row.sent) {
          db.update(queuedFiles).set({ sent: offset }).where(eq(queuedFiles.id, row.id)).run();
          row = { ...row, sent: offset };
          changed();
        }
        const bytes = new Uint8Array(await file.read(offset, chunkBytes));
        try {
          standing = await withToken((token) => session.client.sendUploadChunk(row.id, offset, bytes, token, stop.signal));
        } catch (cause) {
          // Another request moved the offset (an answer lost on the way): go on from where the server stands.
          if (toAppError(cause).reason?.key !== 'uploadOffsetMoved') throw cause;
          standing = await withToken((token) => session.client.uploadStanding(row.id, token));
        }
      }
    } finally {
      await file.close();
    }
  }

  async function sendOne(row: QueuedRow): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await upload(row);
        await forget(row.id);
        return;
      } catch (cause) {
        const error = toAppError(cause);
        // Bytes changed on the way: the server dropped them all; sent once more from the start.
        if (error.reason?.key === 'uploadChecksumMismatch' && attempt === 1) continue;
        if (refusals.has(error.code)) return refused(row, error);
        throw cause;
      }
    }
  }

  async function sendWanted(): Promise<void> {
    const rows = db.select().from(queuedFiles).where(eq(queuedFiles.state, 'waiting')).orderBy(asc(queuedFiles.keptAt)).all();
    for (const row of rows) {
      if (stop.signal.aborted) return;
      const want = wanted(row.id);
      if (want !== 'unnamed' && !row.claimed) db.update(queuedFiles).set({ claimed: true }).where(eq(queuedFiles.id, row.id)).run();
      if (want === 'wanted') await sendOne(row);
      else if (want === 'named' || row.claimed || row.keptAt < runStartedAt) {
        // Removed by a later edit before it went (or left by a form never saved): gone everywhere.
        await removeEverywhere(row);
      }
    }
    // A refused file stays while a problem names it; once the user settled that, it goes.
    for (const row of db.select().from(queuedFiles).where(eq(queuedFiles.state, 'refused')).all()) {
      if (wanted(row.id) !== 'wanted') await removeEverywhere(row);
    }
  }

  return {
    list,

    /**
     * Keeps a file: its plaintext read piece by piece from `read`, sealed with the replica's file
     * key, hashed on the way. Refused at once when the kept files would pass the device's bound.
     */
    async keep(
      file: { name: string; size: number; purpose: Purpose; contractId?: string | undefined },
      read: (offset: number, length: number) => Promise<Buffer>,
    ): Promise<UploadValue> {
      const limit = options.limitBytes();
      const needed = list().usedBytes + file.size;
      if (needed > limit) {
        throw new AppFailure('bad_request', `files waiting to upload would take ${needed} of the ${limit} bytes allowed`, undefined, reason('queuedFilesFull', { needed: Math.ceil(needed / megabyte), limit: Math.floor(limit / megabyte) }));
      }
      const id = randomUUID();
      await mkdir(dir, { recursive: true });
      const temporary = `${fileOf(id)}.part`;
      const writer = await sealedFileWriter(temporary, session.fileKey);
      const hash = createHash('sha256');
      try {
        for (let offset = 0; offset < file.size; ) {
          const piece = await read(offset, chunkBytes);
          if (piece.length === 0) throw new AppFailure('bad_request', `the file ended at ${offset} of its ${file.size} bytes`);
          hash.update(piece);
          await writer.append(piece);
          offset += piece.length;
        }
        await writer.finish();
        await rename(temporary, fileOf(id));
      } catch (cause) {
        await writer.close();
        await rm(temporary, { force: true });
        throw cause;
      }
      db.insert(queuedFiles)
        .values({ id, name: file.name, size: file.size, sha256: hash.digest('hex'), purpose: file.purpose, contractId: file.contractId ?? null, keptAt: clock.now().toISOString() })
        .run();
      changed();
      return { id, name: file.name, file: fileDownloadPath(id) };
    },

    /** The kept file, for opening it or taking it into the archive cache; null when it is not kept here. */
    kept(id: string): { path: string; name: string; size: number; purpose: Purpose } | null {
      const row = db.select().from(queuedFiles).where(eq(queuedFiles.id, id)).get();
      return row ? { path: fileOf(row.id), name: row.name, size: row.size, purpose: row.purpose } : null;
    },

    /**
     * The sync engine's step before it pushes edits: every wanted file goes to the server, so no
     * edit naming one reaches the server before it. A file the server refuses is set aside with
     * why; a lost link fails the round (retried with backoff, resumed where the server stands).
     */
    sendAll(): Promise<void> {
      const exists = db.select({ id: queuedFiles.id }).from(queuedFiles).limit(1).get();
      if (!exists) return Promise.resolve();
      sending ??= sendWanted().finally(() => {
        sending = null;
      });
      return sending;
    },

    /** Removes kept bytes no row claims (a crash between sealing and recording). */
    async tidy(): Promise<void> {
      const claimed = new Set(db.select({ id: queuedFiles.id }).from(queuedFiles).all().map((row) => row.id));
      const names = await readdir(dir).catch(() => [] as string[]);
      await Promise.all(names.filter((name) => !claimed.has(name)).map((name) => rm(join(dir, name), { force: true })));
    },

    /** The session ends: a chunk on its way is stopped (the server keeps what it acknowledged). */
    async stop(): Promise<void> {
      stop.abort();
      await sending?.catch(() => undefined);
    },
  };
}
export type UploadQueue = ReturnType<typeof createUploadQueue>;

