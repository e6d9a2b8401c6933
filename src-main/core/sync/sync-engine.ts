import { cursorPosition, syncProtocolVersion, syncPullResponseSchema, syncSchemaVersion, type SyncImage, type SyncPushRequest, type SyncPushResponse } from '../../../src-shared/api/sync';
import { AppFailure, toAppError, type AppError, type ErrorCode } from '../../../src-shared/errors';
import type { Outbox } from '../data/outbox';
import type { DataEntity } from '../data/replica-features';
import { firstSyncPending, type MetaReader, type ReplicaWriter } from '../data/replica-sync';
import { exactParser } from '../../../src-shared/sync/exact-check';
import type { Clock, Logger } from '../ports';

// The client sync engine (architecture, sync rules 2, 3, 5, 8): drains the outbox in batches in
// seq order, then pulls pages by cursor. It reaches the server only through a Transport port, so
// tests drive it against a fake server with faults, and the real adapter is a thin shell over
// the contract-server client.

export interface SyncTransport {
  push(request: SyncPushRequest): Promise<SyncPushResponse>;
  /** A page of the feed, checked by the engine against the sync schemas. */
  pull(cursor: string): Promise<unknown>;
  /** A pull has ended (done or failed): what the transport holds open for the next page can go. */
  release?(): void;
  /** A first sync from the server's ready replica image, where the transport can bring one. */
  image?: ImageTransport;
}

/** What a first sync from a replica image needs of the server (architecture, "First sync"). */
export interface ImageTransport {
  /** A first sync's first page of the feed alone: the ledger is usable while the image comes. */
  firstPage(): Promise<unknown>;
  /** The server's image for this replica schema version; null when none answers. */
  offered(replicaVersion: number): Promise<SyncImage | null>;
  /** Brings the image (resumed, checked, unpacked) into a file for the take-in; its path. */
  fetch(image: SyncImage, onProgress: (received: number) => void): Promise<string>;
  /** The image's files are no longer needed. */
  discard(): void;
}

/** Delays, injected so tests control backoff. */
export interface Timer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export type SyncEnginePhase = 'idle' | 'syncing' | 'backoff' | 'paused';

export interface SyncEngineState {
  phase: SyncEnginePhase;
  /** Consecutive failed rounds; drives the backoff. */
  failures: number;
  error: AppError | null;
}

/** What a round is doing, for the status shown to the user. */
export type SyncProgress =
  | { kind: 'pushing' }
  /** `changed`: what the answers changed besides the edited rows (e.g. a replaced provisional number's notice). */
  | { kind: 'pushed'; settled: number; changed: DataEntity[] }
  | { kind: 'pulling'; firstSync: boolean }
  | { kind: 'pulled'; changes: number; remaining: number; hasMore: boolean }
  | { kind: 'resync' };

export interface SyncEngineOptions {
  outbox: Outbox;
  meta: MetaReader;
  writer: ReplicaWriter;
  transport: SyncTransport;
  clientId: string;
  /** Whose replica this is: a replica image must have been built for them. */
  userId?: string;
  /** Rotates the tokens; fails with `unauthorized` when the refresh token is refused. */
  refreshAuth(): Promise<void>;
  clock: Clock;
  timer: Timer;
  logger: Logger;
  random?: () => number;
  batchSize?: number;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** How soon after a local edit its push starts (edits in a burst share one round). */
  soonMs?: number;
  /** How often to sync while idle. */
  intervalMs?: number;
  onProgress?(progress: SyncProgress): void;
  /**
   * Before each batch is pushed: sends the files the edits name (queued files), so that no edit
   * reaches the server before a file it names. A failure fails the round like a failed push.
   */
  beforePush?(): Promise<void>;
  /** After every round, whoever started it (a caller, an edit, a backoff or the interval). */
  onRound?(state: SyncEngineState): void;
}

/** Worth retrying as is, after a pause: the server was not reached, was down, or asked us to slow down. */
const retryable = new Set<ErrorCode>(['server_unreachable', 'server_error', 'rate_limited']);

/** The feed's pages are checked as zod would, without a copy of each row (src-shared/sync/exact-check.ts). */
const parsePullPage = exactParser(syncPullResponseSchema);

const badAnswer = (what: string) => new AppFailure('server_error', `The contract server's ${what} answer does not match this app's sync protocol.`);

export function createSyncEngine(options: SyncEngineOptions) {
  const { outbox, meta, writer, transport, clock, timer, logger } = options;
  const random = options.random ?? Math.random;
  // A batch is one request and one server transaction: small enough to be answered well within
  // the request's timeout on a slow link and a busy server (a timed-out batch is sent again).
  const batchSize = options.batchSize ?? 200;
  const baseBackoffMs = options.baseBackoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const soonMs = options.soonMs ?? 300;
  const intervalMs = options.intervalMs ?? 60_000;
  const progress = options.onProgress ?? (() => undefined);

  let state: SyncEngineState = { phase: 'idle', failures: 0, error: null };
  let running: Promise<SyncEngineState> | null = null;
  let next: unknown = null;
  /** A local edit arrived during a round: the next round comes soon rather than at the interval. */
  let editedDuringRound = false;

  let stopped = false;

  function schedule(ms: number) {
    if (next !== null) timer.clear(next);
    // The callback hands back the round's promise, which never rejects, so tests can await it.
    next = stopped ? null : timer.set(() => syncNow(), ms);
  }

  /** One retry after a 401 if the refresh succeeds; a refused refresh propagates `unauthorized`. */
  async function withAuth<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (cause) {
      if (toAppError(cause).code !== 'unauthorized') throw cause;
      await options.refreshAuth();
      return send();
    }
  }

  async function pushAll() {
    progress({ kind: 'pushing' });
    for (;;) {
      await options.beforePush?.();
      const batch = outbox.nextBatch(batchSize);
      if (batch.length === 0) return;
      const request: SyncPushRequest = { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId: options.clientId, mutations: batch };
      const response: unknown = await withAuth(() => transport.push(request));
      const results = (response as { results?: unknown } | null)?.results;
      if (!Array.isArray(results)) throw badAnswer('push');
      const { malformed, answered, changed } = outbox.settle(batch, results);
      if (malformed > 0) logger.warn(`${malformed} push results did not match the sync protocol`);
      progress({ kind: 'pushed', settled: answered, changed });
      // Nothing settled: sending the same batch again at once would spin; wait out a backoff.
      if (answered === 0) throw badAnswer('push');
    }
  }


  /** The page after `cursor`, asked at once; its failure is raised where it is awaited. */
  function askPage(cursor: string): Promise<unknown> {
    const answer = withAuth(() => transport.pull(cursor));
    // Awaited later (or dropped when the pull stops first): never an unhandled rejection.
    answer.catch(() => undefined);
    return answer;
  }

  async function pullAll() {
    try {
      await pullPages();
    } finally {
      transport.release?.();
    }
  }

  /** Errors the round fails with as they are (it is retried, or waits for a sign-in), rather than leaving the image for the feed. */
  const passedOn = (cause: unknown) => {
    const { code } = toAppError(cause);
    return retryable.has(code) || code === 'unauthorized';
  };

  /**
   * A first sync from the server's replica image, when it offers one: the feed's first page (the
   * ledger is usable at once), then the image downloaded, checked and taken in; the feed goes on
   * from its cursor. No image, or one refused, leaves the first sync to the feed from where it
   * is; a cut download fails the round, and the next resumes it.
   */
  async function pullImage(image: ImageTransport, userId: string) {
    let offered: SyncImage | null;
    try {
      offered = await withAuth(() => image.offered(meta.replicaVersion()));
    } catch (cause) {
      if (passedOn(cause)) throw cause;
      logger.warn('the server offers no replica image; the first sync goes on through the feed', toAppError(cause));
      return;
    }
    // Without an image the feed brings it all, from the server's prepared pages where it has them.
    if (offered?.userId !== userId) return;
    // The image holds the first page's changes too: counted once.
    let counted = 0;
    if (meta.cursor() === '0') {
      const page = parsePullPage(await withAuth(() => image.firstPage()));
      if (!page.success) throw badAnswer('pull');
      const { changes, hasMore, remaining } = page.data;
      writer.applyPulledChanges(changes, page.data.cursor, clock.now().toISOString());
      counted = changes.length;
      progress({ kind: 'pulled', changes: counted, remaining, hasMore: true });
      if (!hasMore) return;
    }
    const { changes, bytes } = offered;
    // Progress as the image comes, in the changes it holds, about every 2 % of its bytes.
    let shown = 0;
    const arrived = (received: number) => {
      if (received - shown < bytes / 50 && received < bytes) return;
      shown = received;
      progress({ kind: 'pulled', changes: 0, remaining: Math.max(1, Math.round(changes * (1 - received / bytes))), hasMore: true });
    };
    try {
      const path = await withAuth(() => image.fetch(offered, arrived));
      writer.takeInImage(path, userId, clock.now().toISOString());
    } catch (cause) {
      if (passedOn(cause)) throw cause;
      image.discard();
      logger.warn('the replica image was refused; the first sync goes on through the feed', toAppError(cause));
      return;
    }
    image.discard();
    progress({ kind: 'pulled', changes: Math.max(0, changes - counted), remaining: 0, hasMore: true });
  }

  async function pullPages() {
    const firstSync = firstSyncPending(meta);
    progress({ kind: 'pulling', firstSync });
    if (firstSync && transport.image && options.userId !== undefined && writer.imageWelcome()) await pullImage(transport.image, options.userId);
    let cursor = meta.cursor();
    let asked = askPage(cursor);
    for (;;) {
      let answer: unknown;
      try {
        answer = await asked;
      } catch (cause) {
        // The server dropped the changes since our cursor: rebuild from a full pull, keeping the outbox (rule 7).
        if (toAppError(cause).code !== 'must_resync' || cursor === '0') throw cause;
        logger.warn('the server asked for a full resync');
        writer.startResync();
        progress({ kind: 'resync' });
        cursor = meta.cursor();
        asked = askPage(cursor);
        continue;
      }
      const page = parsePullPage(answer);
      // The cursor only moves forward: a page behind it is someone else's answer.
      if (!page.success || cursorPosition(page.data.cursor) < cursorPosition(cursor)) throw badAnswer('pull');
      const { changes, hasMore, remaining } = page.data;
      // The next page is asked before this one is written: the server reads it while the replica
      // writes, instead of each side waiting for the other. Only written pages move the stored cursor.
      if (hasMore) asked = askPage(page.data.cursor);
      writer.applyPulledChanges(changes, page.data.cursor, clock.now().toISOString());
      if (!hasMore) writer.finishPull();
      progress({ kind: 'pulled', changes: changes.length, remaining, hasMore });
      if (!hasMore) return;
      cursor = page.data.cursor;
    }
  }

  async function round(): Promise<SyncEngineState> {
    state = { ...state, phase: 'syncing' };
    editedDuringRound = false;
    try {
      await pushAll();
      await pullAll();
      state = { phase: 'idle', failures: 0, error: null };
      schedule(editedDuringRound ? soonMs : intervalMs);
    } catch (cause) {
      const error = toAppError(cause);
      if (error.code === 'unauthorized') {
        // Nothing is lost: the queue stays and sync resumes after sign-in (rule 8).
        state = { phase: 'paused', failures: state.failures, error };
      } else {
        if (!retryable.has(error.code)) logger.warn('sync failed', error);
        const failures = state.failures + 1;
        const ceiling = Math.min(maxBackoffMs, baseBackoffMs * 2 ** Math.min(failures - 1, 16));
        // Full jitter on the upper half, so many clients do not come back in step.
        schedule(ceiling / 2 + random() * (ceiling / 2));
        state = { phase: 'backoff', failures, error };
      }
    }
    options.onRound?.(state);
    return state;
  }

  function syncNow(): Promise<SyncEngineState> {
    if (stopped || state.phase === 'paused') return Promise.resolve(state);
    if (next !== null) timer.clear(next);
    next = null;
    running ??= round().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    state: () => state,
    syncNow,
    /** After a local edit: push it shortly, unless sync waits out a backoff or a sign-in. */
    edited() {
      if (state.phase === 'idle') schedule(soonMs);
      else if (state.phase === 'syncing') editedDuringRound = true;
    },
    /** After the user signed in again. */
    resume(): Promise<SyncEngineState> {
      if (state.phase === 'paused') state = { ...state, phase: 'idle', error: null };
      return syncNow();
    },
    /** Stops the timers; a round under way finishes. */
    async stop() {
      stopped = true;
      if (next !== null) timer.clear(next);
      next = null;
      await running;
    },
  };
}
export type SyncEngine = ReturnType<typeof createSyncEngine>;
