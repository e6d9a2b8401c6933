import { join } from 'node:path';
import { AppFailure } from '../../src-shared/errors';
import type { AppInfo } from '../../src-shared/ipc/channels';
import { catalogs } from '../../src-shared/i18n/catalogs';
import { languageForLocale } from '../../src-shared/i18n/languages';
import { createContractsFeature } from './contracts';
import { createEventHub, type CoreEventListener } from './events';
import type { FeatureHost } from './feature';
import { replicaFeatures } from './features';
import { fileSecretStore } from './files';
import { createFileTransfer } from './files-transfer/file-transfer';
import { createDirectoryFeature } from './directory';
import { createCachedReadsFeature } from './cached-reads';
import { createCounterpartiesFeature } from './counterparties';
import { createDispatcher, type ChannelHandlers } from './ipc/dispatch';
import { createLedgerFeature } from './ledger';
import { createArchiveFeature } from './archive';
import { createSearchFeature } from './search';
import { createTransferFeature } from './transfer';
import { createPerformanceFeature } from './performance';
import type { Notifier, Timers } from './performance/reminders/scheduler';
import { createReminderInbox } from './performance/reminders/inbox';
import { consoleLogger, systemClock, type Clock, type Logger, type SecretStore } from './ports';
import { createSessionService, type ActiveSession } from './session/session-service';
import { createSettingsStore } from './settings/settings-store';
import { createSyncService, signedOutSyncStatus, type SyncService } from './sync/sync-service';

export type { CoreReminders } from './performance';

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
  /** How long a health check waits before the server counts as away. */
  connectivityProbeTimeoutMs?: number;
  pullPageSize?: number;
  /** The first pause after a failed sync; it doubles up to a minute. */
  syncBackoffMs?: number;
  /**
   * Shows due reminders. The Electron shell passes native notifications; without one (the web
   * host) they go to the in-app reminder list, announced to the connected pages ('reminders.changed').
   */
  notifier?: Notifier;
  /** The reminder scheduler's timers (tests pass fake ones with a fake clock). */
  timers?: Timers;
  /** The user's IANA time zone; the system's by default. */
  timeZone?: () => string;
  /** Organisation-share (external) environment: the party detail link is hidden (spec). */
  organizationShare?: boolean;
  /** How old the drafting catalogue may get before a sync round fetches it again. */
  catalogueStaleMs?: number;
  /** Opens a downloaded file with the system's application (the Electron shell); 'files.open' needs it. */
  openFile?: (path: string) => Promise<void>;
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
    features: replicaFeatures,
    fetch: options.fetch,
  });
  // Upload and download temporary files (removed at start, sign-out and close).
  const files = createFileTransfer({ dir: join(options.dataDir, 'transfers'), session: signedIn, openFile: options.openFile, logger });
  let sync: SyncService | null = null;

  function language() {
    return settings.get().language ?? languageForLocale(options.systemLocale);
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

  // The features (src-main/core/<feature>), each with its own handlers and session work.
  const host: FeatureHost = { hub, clock, logger, signedIn, sync: currentSync };
  // The browser edition's reminder list; its snoozes go to the scheduler, like the desktop notifications'.
  const reminderInbox = createReminderInbox(host, {
    taskIsOpen: (taskId) => performance.reminders.taskIsOpen(taskId),
    snooze: (reminder, choice) => performance.reminders.snooze(reminder, choice),
  });
  const performance = createPerformanceFeature(host, {
    notifier: options.notifier ?? reminderInbox.notifier,
    timers: options.timers,
    language,
    timeZone: options.timeZone,
  });
  const contracts = createContractsFeature(host, { catalogueStaleMs: options.catalogueStaleMs });
  const ledger = createLedgerFeature(host, { exportsDir: join(options.dataDir, 'exports'), catalog: () => catalogs[language()] });
  const directory = createDirectoryFeature(host);
  const archive = createArchiveFeature(host, { cacheBytes: () => settings.get().archiveCacheMegabytes * 1024 * 1024 });
  const search = createSearchFeature(host);
  const transfer = createTransferFeature(host);
  const cachedReads = createCachedReadsFeature(host);
  const features = [performance, reminderInbox, contracts, ledger, archive, search, cachedReads];
  const counterparties = createCounterpartiesFeature(host);

  function startSession(session: ActiveSession) {
    sync = createSyncService({
      session,
      hub,
      clock,
      logger,
      intervalMs: options.syncIntervalMs,
      soonMs: options.syncSoonMs,
      probeIntervalMs: options.connectivityProbeMs,
      probeTimeoutMs: options.connectivityProbeTimeoutMs,
      pageSize: options.pullPageSize,
      baseBackoffMs: options.syncBackoffMs,
    });
    void sync.syncNow();
    for (const feature of features) feature.start?.(session);
  }

  async function stopSession() {
    await files.clear();
    for (const feature of features) feature.stop?.();
    const running = sync;
    sync = null;
    await running?.stop();
  }

  /** The channels of the core's own machinery: the app, settings, session, sync and file transfer. */
  const coreHandlers = {
    'app.info': () => ({ version: options.version, host: options.host, systemLocale: options.systemLocale, organizationShare: options.organizationShare ?? false }),
    'settings.get': () => settings.get(),
    'settings.update': (patch) => {
      const updated = settings.update(patch);
      // The language of the reminders to come may have changed.
      performance.reminders.refresh();
      if (patch.archiveCacheMegabytes !== undefined) archive.cacheBoundChanged();
      return updated;
    },
    'session.get': () => sessions.info(),
    'session.signIn': async (request) => {
      await stopSession();
      const info = await sessions.signIn(request);
      settings.update({ serverUrl: request.serverUrl });
      startSession(signedIn());
      hub.emit('session.changed', info);
      return info;
    },
    'session.signOut': async () => {
      await stopSession();
      const info = await sessions.signOut();
      hub.emit('session.changed', info);
      return info;
    },
    'sync.status': () => (sync ? sync.status() : signedOutSyncStatus),
    'sync.now': () => currentSync().syncNow(),
    'sync.dismiss': ({ id }) => currentSync().dismiss(id),
    'sync.keepTheirs': ({ id }) => currentSync().keepTheirs(id),
    'sync.applyMineAgain': ({ id }) => currentSync().applyMineAgain(id),
    'files.uploadBegin': (request) => files.begin(request),
    'files.uploadChunk': (request) => files.chunk(request),
    'files.uploadFinish': (request) => files.finish(request),
    'files.uploadCancel': (request) => files.cancel(request),
    'files.open': (request) => files.open(request),
  } satisfies Partial<ChannelHandlers>;

  // Every channel has exactly one handler: a channel no map handles is a type error.
  const handlers: ChannelHandlers = { ...coreHandlers, ...contracts.handlers, ...ledger.handlers, ...performance.handlers, ...directory.handlers, ...archive.handlers, ...search.handlers, ...transfer.handlers, ...cachedReads.handlers, ...counterparties.handlers, ...reminderInbox.handlers };

  const dispatch = createDispatcher(handlers, logger);
  const restored = sessions.restore();
  if (restored.signedIn) startSession(signedIn());

  return {
    invoke: dispatch,
    subscribe: (listener: CoreEventListener) => hub.subscribe(listener),
    reminders: performance.reminders,
    async close() {
      await stopSession();
      sessions.close();
    },
  };
}
export type Core = ReturnType<typeof createCore>;
