import { once } from 'node:events';
import { PassThrough, type TransformOptions, type Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { offeredCodings, type ContentCoding } from '../../src-shared/api/content-coding';
import { syncFeedStreamPath, syncFeedStreamQuerySchema, type SyncFeedStreamQuery } from '../../src-shared/api/sync';
import { validationFailure } from '../../src-shared/errors';
import { packPullResponse, type PackedPullResponse } from '../../src-shared/sync/feed-codec';
import type { ServerDb } from '../db/database';
import type { Viewer } from '../contracts/repository';
import { checkSyncVersions } from './protocol';
import { pullChanges, type SyncHistoryOptions } from './pull';
import { preparedFirstSync } from './snapshots';

// The feed as one stream of pages (architecture, sync rule 10). Paged pulls leave a poor link
// idle for a round trip and the server's reading of each page: at 150 ms and 80 pages, half a
// minute of a first sync. Here the server reads the next page as soon as the last one is handed
// to the socket, and the socket's backpressure keeps it at most a page or two ahead of the
// client. Each page is its own pull (its own snapshot and cursor, exactly as /sync/feed answers),
// so a stream cut anywhere resumes from the last page the client wrote.

export interface FeedStreamOptions<U extends Viewer> {
  db: ServerDb;
  now: () => Date;
  history: SyncHistoryOptions;
  authenticate(authorization: string | undefined): Promise<U>;
  /** Runs before a pull from cursor 0 (the viewer's system ledger scenes must exist to sync). */
  beforeFirstPull(viewer: U, cursor: string): Promise<void>;
  log: { error(payload: object, message: string): void };
}

const ndjson = 'application/x-ndjson; charset=utf-8';

/** A client that reads nothing for this long has gone (or stopped pulling): its stream ends. */
const stallMs = 60_000;

/**
 * Brotli's quality 5: a first sync of 50,000 contracts moves 2.7 % fewer bytes than at 4 (about
 * 1.5 s of a poor link) for about 0.6 s more of the server's CPU over the whole feed.
 */
const brotliQuality = 5;

/**
 * How much of the compressed answer the server writes ahead of the socket (about 20 pages; at
 * most this much memory a stream): a client busy writing a page finds the next ones ready instead
 * of a server that waited for it. 0.7 s of a 50,000-contract first sync on the office link.
 */
const aheadBytes = 4 * 1024 * 1024;

function compressor(coding: ContentCoding | null): (PassThrough | zlib.BrotliCompress | zlib.Gzip | zlib.Deflate) & Writable {
  // zlib's streams take a Transform's options too (their types do not say so).
  const buffered: zlib.ZlibOptions & TransformOptions = { readableHighWaterMark: aheadBytes };
  if (coding === 'br') return zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality }, ...buffered });
  if (coding === 'gzip') return zlib.createGzip(buffered);
  if (coding === 'deflate') return zlib.createDeflate(buffered);
  return new PassThrough(buffered);
}

/** Hands what was written so far to the socket: the client can write a page while the next is read. */
function flush(stream: ReturnType<typeof compressor>): Promise<void> {
  if (stream instanceof PassThrough) return Promise.resolve();
  return new Promise((resolve) => (stream as zlib.Gzip).flush(resolve));
}

/** `waiting`, or a rejection once `signal` aborts first. */
function until<T>(waiting: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    waiting.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

export function registerFeedStream<U extends Viewer>(app: FastifyInstance, codings: readonly ContentCoding[], options: FeedStreamOptions<U>): void {
  const { db, now, history } = options;
  const pageOf = async (viewer: Viewer, query: SyncFeedStreamQuery, cursor: string, limit: number): Promise<PackedPullResponse> => {
    const { firstLimit: _first, ...pull } = query;
    return packPullResponse(await pullChanges(db, viewer, { ...pull, cursor, limit }, now(), history));
  };

  // Streams under way end when the server closes, instead of holding its close up.
  const running = new Set<AbortController>();
  app.addHook('preClose', async () => {
    for (const stream of running) stream.abort();
  });

  // Compressed here, not by the compression plugin: each page is flushed as it is written.
  app.get(syncFeedStreamPath, { compress: false }, async (request, reply) => {
    const viewer = await options.authenticate(request.headers.authorization);
    const parsed = syncFeedStreamQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success) throw validationFailure(parsed.error);
    const query = parsed.data;
    await options.beforeFirstPull(viewer, query.cursor);
    checkSyncVersions(query);
    const offered = offeredCodings(request.headers['accept-encoding']);
    // A first sync the server prepared (src-server/sync/snapshots.ts) goes out as it was written.
    const prepared = codings.includes('br') && offered.includes('br') ? await preparedFirstSync(db, viewer, query) : null;
    if (prepared) return reply.header('content-type', ndjson).header('content-encoding', 'br').header('vary', 'accept-encoding').send(prepared);
    // The first page is read before the answer starts: a refusal (must_resync, old rights,
    // versions) is an ordinary error answer.
    const first = await pageOf(viewer, query, query.cursor, query.firstLimit ?? query.limit);
    // The first of ours the request offers, or none.
    const coding = codings.find((name) => offered.includes(name)) ?? null;
    const body = compressor(coding);
    const gone = new AbortController();
    running.add(gone);
    reply.raw.once('close', () => gone.abort());
    let stalled = false;
    void (async () => {
      try {
        for (let page = first; ; ) {
          // Writing a page waits for the client to take the last ones, but never forever.
          const taken = AbortSignal.any([gone.signal, AbortSignal.timeout(stallMs)]);
          try {
            if (!body.write(`${JSON.stringify(page)}\n`)) await until(once(body, 'drain'), taken);
            await until(flush(body), taken);
          } catch (cause) {
            stalled = taken.aborted && !gone.signal.aborted;
            throw cause;
          }
          if (!page.hasMore || gone.signal.aborted) break;
          page = await pageOf(viewer, query, page.cursor, query.limit);
        }
      } catch (error) {
        // The client resumes from the last page it wrote, with a request of its own that hears the refusal.
        if (!gone.signal.aborted && !stalled) options.log.error({ err: error }, 'the feed stream stopped');
      } finally {
        running.delete(gone);
        // A stream nobody reads (gone, stalled, or the server closing) is dropped; any other ends as a whole line.
        if (gone.signal.aborted || stalled) body.destroy();
        else body.end();
      }
    })();
    void reply.header('content-type', ndjson);
    if (coding) void reply.header('content-encoding', coding).header('vary', 'accept-encoding');
    return reply.send(body);
  });
}
