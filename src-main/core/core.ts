import { join } from 'node:path';
import { AppFailure } from '../../src-shared/errors';
import type { AppInfo } from '../../src-shared/ipc/channels';
import { createEventHub, type CoreEventListener } from './events';
import { fileSecretStore } from './files';
import { createDispatcher, type ChannelHandlers } from './ipc/dispatch';
import { consoleLogger, systemClock, type Clock, type Logger, type SecretStore } from './ports';
import { createSessionService, type ActiveSession } from './session/session-service';
import { createSettingsStore } from './settings/settings-store';
import { createSyncService, signedOutSyncStatus, type SyncService } from './sync/sync-service';

export interface CoreOptions {
  /** Where settings, the stored session and the replicas live. */
  dataDir: string;
  /** The replica's SQL migrations (shipped beside the app). */
  migrationsDir: string;
  host: AppInfo['host'];
  version: string;
  systemLocale: string;
  /** A server address given by the host (command line, IT policy); it replaces the saved one. */
  serverUrl?: string;
  secrets?: SecretStore;
  clock?: Clock;
  logger?: Logger;
  fetch?: typeof fetch;
  syncIntervalMs?: number;
  /** How soon after a local edit sync starts (edits in a burst share one push). */
  syncSoonMs?: number;
  connectivityProbeMs?: number;
  pullPageSize?: number;
  /** The first pause after a failed sync; it doubles up to a minute. */
  syncBackoffMs?: number;
}

/**
 * The main core: everything the app does, with no Electron in it. Hosts hand it IPC calls through
 * `invoke` and forward its events to windows or sockets.
 */
export function createCore(options: CoreOptions) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? consoleLogger;
  const hub = createEventHub();
  const settings = createSettingsStore(options.dataDir, logger);
  if (options.serverUrl) settings.update({ serverUrl: options.serverUrl });
  const sessions = createSessionService({
    dataDir: options.dataDir,
    migrationsDir: options.migrationsDir,
    secrets: options.secrets ?? fileSecretStore(join(options.dataDir, 'session.json')),
    clock,
    logger,
    fetch: options.fetch,
  });
  let sync: SyncService | null = null;

  function startSync(session: ActiveSession) {
    sync = createSyncService({
      session,
      hub,
      clock,
      logger,
      intervalMs: options.syncIntervalMs,
      soonMs: options.syncSoonMs,
      probeIntervalMs: options.connectivityProbeMs,
      pageSize: options.pullPageSize,
      baseBackoffMs: options.syncBackoffMs,
    });
    void sync.syncNow();
  }

  async function stopSync() {
    const running = sync;
    sync = null;
    await running?.stop();
  }

  function signedIn(): ActiveSession {
    const session = sessions.active();
    if (!session) throw new AppFailure('not_signed_in');
    return session;
  }

  function currentSync(): SyncService {
    signedIn();
    if (!sync) throw new AppFailure('not_signed_in');
    return sync;
  }

  const handlers: ChannelHandlers = {
    'app.info': () => ({ version: options.version, host: options.host, systemLocale: options.systemLocale }),
    'settings.get': () => settings.get(),
    'settings.update': (patch) => settings.update(patch),
    'session.get': () => sessions.info(),
    'session.signIn': async (request) => {
      await stopSync();
      const info = await sessions.signIn(request);
      settings.update({ serverUrl: request.serverUrl });
      startSync(signedIn());
      hub.emit('session.changed', info);
      return info;
    },
    'session.signOut': async () => {
      await stopSync();
      const info = await sessions.signOut();
      hub.emit('session.changed', info);
      return info;
    },
    'ledger.contractStatistics': () => signedIn().contracts.statistics(),
    'ledger.contractPage': (query) => signedIn().contracts.page(query),
    'sync.status': () => (sync ? sync.status() : signedOutSyncStatus),
    'sync.now': () => currentSync().syncNow(),
    'contract.update': (args) => currentSync().updateContract(args),
    'sync.dismiss': ({ id }) => currentSync().dismiss(id),
    'sync.keepTheirs': ({ id }) => currentSync().keepTheirs(id),
    'sync.applyMineAgain': ({ id }) => currentSync().applyMineAgain(id),
  };

  const dispatch = createDispatcher(handlers);
  const restored = sessions.restore();
  if (restored.signedIn) startSync(signedIn());

  return {
    invoke: dispatch,
    subscribe: (listener: CoreEventListener) => hub.subscribe(listener),
    async close() {
      await stopSync();
      sessions.close();
    },
  };
}
export type Core = ReturnType<typeof createCore>;
