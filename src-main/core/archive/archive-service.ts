import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ContractStatus } from '../../../src-shared/domain/enums';
import { AppFailure, reason } from '../../../src-shared/errors';
import { archiveReadChunkBytes, type ArchivedFile } from '../../../src-shared/ipc/archive';
import type { EventHub } from '../events';
import type { Clock, Logger } from '../ports';
import { isServerAway, onlineCall } from '../session/online-call';
import type { ActiveSession } from '../session/session-service';
import type { SyncService } from '../sync/sync-service';
import type { UploadQueue } from '../files-transfer/upload-queue';
import { archiveStore, toArchivedFile, type ArchivedFileRow } from './archive-store';
import { extractPdfTextOffThread } from './pdf-text-thread';
import { isSealedFile, openSealedFile, readSealedFile, sealInPlace, sealingStream } from '../vault/sealed-file';

// The contract archive for one signed-in session (spec 2 "contract archive"). Archiving needs the
// server (the signed PDF is uploaded there first); the archived PDF is then kept in a bounded
// cache beside the replica so it opens offline, and its text is extracted on a worker thread, one
// document at a time, with progress events, for the full-text index. Each kept PDF is sealed with
// the replica's file key (AES-256-GCM, vault/sealed-file.ts): the disk never holds one in clear.

/** How many archived contracts one prefetch round asks the server about. */
const prefetchLookupsPerRound = 50;
/** The share of the cache's bound the background prefetch fills. */
export const prefetchShare = 0.8;
/** A prefetched PDF's "last opened": before any PDF the user opened. */
const prefetchedOpenedAt = new Date(0).toISOString();

export interface ArchiveServiceOptions {
  session: ActiveSession;
  sync: () => SyncService;
  hub: EventHub;
  clock: Clock;
  logger: Logger;
  /** The cache's bound (the archive cache setting), read each time it is enforced; queued files count against it too. */
  cacheBytes: () => number;
  /** The session's queued files: the archive's PDF waits there for its upload. */
  uploads: () => UploadQueue;
}

export function createArchiveService(options: ArchiveServiceOptions) {
  const { session, hub, clock, logger } = options;
  const store = archiveStore(session.replica);
  // One cache per replica (per server and user): nobody else's PDFs are ever read from it.
  const dir = `${session.replica.path}.archive`;
  const fileOf = (row: Pick<ArchivedFileRow, 'fileId'>) => join(dir, `${row.fileId}.pdf`);
  const abort = new AbortController();
  let indexing: Promise<void> = Promise.resolve();
  let prefetching: Promise<void> | null = null;
  /** Archived contracts whose file the server did not name or give (asked once per session). */
  const skipped = new Set<string>();

  /** Downloads the stored file into the cache (through a temporary name: never half a PDF). */
  async function download(contractId: string, fileId: string, name: string, openedAt = clock.now().toISOString()): Promise<ArchivedFileRow> {
    const send = (token: string) => session.client.downloadFile(fileId, token);
    let response: Response;
    try {
      response = await send(session.token()).catch(async (cause: unknown) => {
        if (!(cause instanceof AppFailure) || cause.error.code !== 'unauthorized') throw cause;
        await session.refreshTokens();
        return send(session.token());
      });
    } catch (cause) {
      if (cause instanceof AppFailure && cause.error.code === 'server_unreachable') throw new AppFailure('offline');
      throw cause;
    }
    if (!response.body) throw new AppFailure('server_error', 'the contract server sent no bytes for the archived file');
    await mkdir(dir, { recursive: true });
    const target = fileOf({ fileId });
    const temporary = `${target}.part`;
    let size = 0;
    const counted = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>).on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    await pipeline(counted, sealingStream(session.fileKey), createWriteStream(temporary, { mode: 0o600 }));
    await rename(temporary, target);
    const row = store.kept({ contractId, fileId, name, size }, openedAt);
    await enforceBound(contractId);
    index(row);
    return row;
  }

  /** Least recently opened PDFs leave the cache until it fits its bound; `keep` (the one just kept) stays. */
  async function enforceBound(keep: string): Promise<void> {
    // Queued files cannot leave before they are sent: the cache gives them room.
    const limit = options.cacheBytes() - options.uploads().list().usedBytes;
    let { usedBytes } = store.usage();
    for (const row of store.cachedByAge()) {
      if (usedBytes <= limit) break;
      if (row.contractId === keep) continue;
      await rm(fileOf(row), { force: true });
      store.evicted(row.contractId);
      usedBytes -= row.size;
    }
  }

  /** Extracts the text of a kept PDF after those already queued, reporting each page. */
  function index(row: ArchivedFileRow): void {
    indexing = indexing.then(async () => {
      if (abort.signal.aborted) return;
      try {
        const bytes = new Uint8Array(await readSealedFile(fileOf(row), session.fileKey));
        const { text, pages } = await extractPdfTextOffThread(
          bytes,
          (indexedPages, total) => {
            if (abort.signal.aborted) return;
            store.progress(row.contractId, indexedPages, total);
            hub.emit('archive.indexing', { contractId: row.contractId, indexedPages, pages: total, done: false });
          },
          abort.signal,
        );
        if (abort.signal.aborted) return;
        store.indexed(row.contractId, row.fileId, text, pages);
        hub.emit('archive.indexing', { contractId: row.contractId, indexedPages: pages, pages, done: true });
      } catch (cause) {
        if (!abort.signal.aborted) logger.warn(`could not read the text of the archived PDF of ${row.contractId}`, String(cause));
      }
    });
  }

  /** The contract's archived file on the server, or null when it has none. */
  async function serverArchive(contractId: string): Promise<string | null> {
    const detail = await onlineCall(session, 'contractDetail', { params: { id: contractId } });
    return detail.archiveFileId;
  }

  /**
   * Background prefetch: the PDFs of contracts archived by others (or before this device synced)
   * are kept too, newest first, so they open offline, while online and while the cache is below
   * `prefetchShare` of its bound (the rest is room for what the user opens). A prefetched PDF
   * counts as opened long ago, so it is the first to leave when the user's own PDFs need room.
   */
  async function prefetchWhileRoom(): Promise<void> {
    // Each round asks the server about at most this many contracts (the newest first: those just
    // archived by others), so a replica with thousands of older archived contracts stays light.
    for (let asked = 0; asked < prefetchLookupsPerRound; asked++) {
      if (abort.signal.aborted || !options.sync().status().online) return;
      if (store.usage().usedBytes >= options.cacheBytes() * prefetchShare) return;
      const next = store.neverKept(skipped.size + 1).find((row) => !skipped.has(row.contractId));
      if (!next) return;
      try {
        const fileId = await serverArchive(next.contractId);
        if (fileId === null) skipped.add(next.contractId);
        else await download(next.contractId, fileId, `${next.contractId}.pdf`, prefetchedOpenedAt);
      } catch (cause) {
        if (isServerAway(cause) || abort.signal.aborted) return;
        // One file the server will not give (gone, refused) does not stop the others.
        skipped.add(next.contractId);
        logger.warn(`could not prefetch the archived PDF of ${next.contractId}`, String(cause));
      }
    }
  }

  function prefetch(): void {
    prefetching ??= prefetchWhileRoom()
      .catch((cause: unknown) => logger.warn('the archived PDF prefetch stopped', String(cause)))
      .finally(() => {
        prefetching = null;
      });
  }

  /**
   * Removes cached files no record claims (a crash between download and record, an evicted
   * record), and seals the ones a build before sealing kept in clear.
   */
  async function tidyCache(): Promise<void> {
    const claimed = new Set(store.cachedByAge().map((row) => `${row.fileId}.pdf`));
    const names = await readdir(dir).catch(() => [] as string[]);
    await Promise.all(names.filter((name) => !claimed.has(name)).map((name) => rm(join(dir, name), { force: true })));
    for (const name of names.filter((name) => claimed.has(name))) {
      const path = join(dir, name);
      if (!(await isSealedFile(path))) await sealInPlace(path, session.fileKey);
    }
  }

  return {
    /** Resumes what a restart interrupted, tidies the cache, and prefetches now and after each sync round that changed contracts. */
    start(): void {
      void tidyCache()
        .catch((cause: unknown) => logger.warn('could not tidy the archive cache', String(cause)))
        .then(() => {
          for (const row of store.unindexed()) index(row);
          prefetch();
        });
      // Once a sync round has settled, not page by page: during a first sync each page would start
      // a round of lookups and downloads competing with the pull on the same link.
      let contractsChanged = false;
      const unsubscribe = hub.subscribe((event, payload) => {
        if (event === 'data.changed' && (payload as { entities: string[] }).entities.includes('contract')) contractsChanged = true;
        if (event === 'sync.statusChanged' && (payload as { phase?: string }).phase === 'idle' && contractsChanged) {
          contractsChanged = false;
          prefetch();
        }
      });
      abort.signal.addEventListener('abort', unsubscribe, { once: true });
    },

    stop(): void {
      abort.abort();
    },

    /** The kept PDF; else (online) the server's, fetched and kept; null when the contract has none. */
    async get(contractId: string): Promise<ArchivedFile | null> {
      const contract = store.contractStatus(contractId);
      if (!contract) throw new AppFailure('not_found', `contract not found: ${contractId}`, undefined, reason('contractNotOnDevice'));
      const kept = store.get(contractId);
      if (kept?.cached) {
        store.opened(contractId, clock.now().toISOString());
        return toArchivedFile(kept);
      }
      if (contract.status !== ContractStatus.Archived) return null;
      // Known but evicted: offline, the record (and its indexed text) is all there is.
      if (!options.sync().status().online) {
        if (kept) return toArchivedFile(kept);
        throw new AppFailure('offline');
      }
      const fileId = await serverArchive(contractId);
      if (fileId === null) return null;
      return toArchivedFile(await download(contractId, fileId, kept?.fileId === fileId ? kept.name : `${contractId}.pdf`));
    },

    /**
     * Archives an approved contract with the PDF kept in the queued files, offline too (issue 30):
     * the step is queued behind the PDF's upload (refused at once as the server would refuse it),
     * and a copy of the PDF goes into the archive cache and the full-text index at once. The
     * server decides the step when it applies it; the pull brings the new status.
     */
    async confirm(request: { contractId: string; fileId: string; fileName: string }): Promise<ArchivedFile> {
      const contract = store.contractStatus(request.contractId);
      if (!contract) throw new AppFailure('not_found', `contract not found: ${request.contractId}`, undefined, reason('contractNotOnDevice'));
      const pdf = options.uploads().kept(request.fileId);
      if (pdf?.purpose !== 'archive') throw new AppFailure('not_found', `the archive PDF ${request.fileId} is not kept on this device`, undefined, reason('archiveFileMissing'));
      options.sync().edit('contract.archive', { id: request.contractId, fileId: request.fileId, fileName: request.fileName, takenAt: clock.now().toISOString() });
      // Both are sealed with the replica's file key: the kept bytes are copied as they are.
      await mkdir(dir, { recursive: true });
      const target = fileOf({ fileId: request.fileId });
      await copyFile(pdf.path, `${target}.part`);
      await rename(`${target}.part`, target);
      const row = store.kept({ contractId: request.contractId, fileId: request.fileId, name: request.fileName, size: pdf.size }, clock.now().toISOString());
      await enforceBound(request.contractId);
      index(row);
      return toArchivedFile(row);
    },

    /** A piece of the kept PDF for the viewer. */
    async read(contractId: string, offset: number): Promise<{ data: string; size: number }> {
      const row = store.get(contractId);
      if (!row?.cached) throw new AppFailure('not_found', 'the archived PDF is not kept on this device', undefined, reason('archivedPdfNotKept'));
      // A kept file gone or unreadable (its key changed with a lost replica key) is no longer kept.
      const file = await openSealedFile(fileOf(row), session.fileKey).catch(() => {
        store.evicted(contractId);
        throw new AppFailure('not_found', 'the archived PDF is not kept on this device', undefined, reason('archivedPdfNotKept'));
      });
      try {
        return { data: (await file.read(offset, archiveReadChunkBytes)).toString('base64'), size: row.size };
      } finally {
        await file.close();
      }
    },

    usage(): { usedBytes: number; limitBytes: number; files: number; queuedBytes: number; queuedFiles: number } {
      const queued = options.uploads().list();
      return { ...store.usage(), limitBytes: options.cacheBytes(), queuedBytes: queued.usedBytes, queuedFiles: queued.files.length };
    },

    /** The cache's bound changed: it is enforced at once. */
    async rebound(): Promise<void> {
      await enforceBound('');
    },

    /** Waits for the prefetch and the queued text extractions (tests, shutdown). */
    idle: async () => {
      await prefetching;
      await indexing;
    },
  };
}
export type ArchiveService = ReturnType<typeof createArchiveService>;
