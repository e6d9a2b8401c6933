import { AppFailure, toAppError } from '../../../src-shared/errors';
import type { SyncStatus } from '../../../src-shared/ipc/channels';
import type { EventHub } from '../events';
import type { Clock, Logger } from '../ports';
import type { ActiveSession } from '../session/session-service';
import { contractServerTransport } from './transport';

// The first, pull-only cut of sync: pages of server changes by cursor, each page applied and the
// cursor advanced in one SQLite transaction, so a crash mid-pull resumes where it stopped.

export interface PullSyncOptions {
  session: ActiveSession;
  hub: EventHub;
  clock: Clock;
  logger: Logger;
  pageSize?: number;
  /** How often to pull while idle. */
  intervalMs?: number;
  /** At most this often a running pull tells open screens that data changed. */
  changeNoticeMs?: number;
  /** How often a cheap health check keeps the online indicator true between pulls. */
  probeIntervalMs?: number;
}

const maxBackoffMs = 60_000;

export function createPullSync(options: PullSyncOptions) {
  const { session, hub, clock, logger } = options;
  const pageSize = options.pageSize ?? 1000;
  const intervalMs = options.intervalMs ?? 60_000;
  const changeNoticeMs = options.changeNoticeMs ?? 500;
  const probeIntervalMs = options.probeIntervalMs ?? 10_000;

  let status: SyncStatus = {
    online: true,
    phase: 'idle',
    lastSyncAt: session.meta.lastSyncAt(),
    pulled: 0,
    remaining: null,
    error: null,
  };
  let running: Promise<SyncStatus> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let stopped = false;

  function publish(next: Partial<SyncStatus>) {
    status = { ...status, ...next };
    hub.emit('sync.statusChanged', status);
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void syncNow(), delayMs);
    timer.unref?.();
  }

  const transport = contractServerTransport(session, pageSize);

  async function pullPage(cursor: string) {
    try {
      return await transport.pull(cursor);
    } catch (cause) {
      if (!(cause instanceof AppFailure) || cause.error.code !== 'unauthorized') throw cause;
      await session.refreshTokens();
      return transport.pull(cursor);
    }
  }

  async function run(): Promise<SyncStatus> {
    publish({ phase: 'pulling', pulled: 0, remaining: null, error: null });
    let lastNotice = 0;
    let changedSinceNotice = false;
    try {
      let hasMore = true;
      while (hasMore && !stopped) {
        const page = await pullPage(session.meta.cursor());
        if (stopped) break;
        const syncedAt = clock.now().toISOString();
        session.writer.applyPulledChanges(page.changes, page.cursor, syncedAt);
        hasMore = page.hasMore;
        changedSinceNotice ||= page.changes.length > 0;
        publish({ online: true, pulled: status.pulled + page.changes.length, remaining: page.remaining, lastSyncAt: syncedAt });
        // The first page makes the ledger usable at once; later ones are announced at a bounded rate.
        const now = clock.now().getTime();
        if (changedSinceNotice && (lastNotice === 0 || now - lastNotice >= changeNoticeMs || !hasMore)) {
          hub.emit('data.changed', { entities: ['contract'] });
          lastNotice = now;
          changedSinceNotice = false;
        }
      }
      failures = 0;
      publish({ phase: 'idle', remaining: 0 });
      schedule(intervalMs);
    } catch (cause) {
      if (changedSinceNotice) hub.emit('data.changed', { entities: ['contract'] });
      const error = toAppError(cause);
      if (error.code === 'unauthorized') {
        // The queue and the replica stay; sync resumes after the user signs in again.
        publish({ phase: 'paused', online: true, error });
      } else {
        const offline = error.code === 'server_unreachable';
        publish({ phase: offline ? 'offline' : 'error', online: !offline, error });
        failures += 1;
        const backoff = Math.min(maxBackoffMs, 1000 * 2 ** Math.min(failures, 6));
        schedule(backoff / 2 + Math.random() * (backoff / 2));
        if (!offline) logger.warn('pull failed', error);
      }
    }
    return status;
  }

  // Between pulls, a health check notices a lost server within seconds, and a server that is
  // back triggers a pull at once (sync on reconnect).
  async function probe() {
    if (running || stopped) return;
    try {
      await session.client.call('health');
      if (!status.online) void syncNow();
    } catch (cause) {
      const error = toAppError(cause);
      if (error.code === 'server_unreachable' && status.online && !running) publish({ online: false, phase: 'offline', error });
    }
  }
  const probeTimer = setInterval(() => void probe(), probeIntervalMs);
  probeTimer.unref?.();

  function syncNow(): Promise<SyncStatus> {
    if (stopped) return Promise.resolve(status);
    running ??= run().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    status: () => status,
    syncNow,
    /** Stops timers; a pull under way ends after its current page. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      clearInterval(probeTimer);
      await running?.catch(() => undefined);
    },
  };
}
export type PullSync = ReturnType<typeof createPullSync>;
