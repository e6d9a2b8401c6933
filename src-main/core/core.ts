import { join } from 'node:path';
import { AppFailure, type AppError } from '../../src-shared/errors';
import type { AppInfo, EventPayload } from '../../src-shared/ipc/channels';
import { languageForLocale, type Language } from '../../src-shared/i18n/languages';
import { createContractsFeature } from './contracts';
import { createEventHub, type CoreEventListener } from './events';
import type { FeatureHost } from './feature';
import { replicaFeatures } from './features';
import { fileSecretStore } from './files';
import { createFileTransfer } from './files-transfer/file-transfer';
import { createUploadQueue, type UploadQueue } from './files-transfer/upload-queue';
import { contractFormsName } from './contracts/contract-store';
import { privateLogger } from './vault/private-logger';
import { fileKeyWrapper, recordQueuedEdits } from './vault/replica-keys';
import { createDirectoryFeature } from './directory';
import { createCachedReadsFeature } from './cached-reads';
import { createCounterpartiesFeature } from './counterparties';
import { createScoringFeature } from './scoring';
import { createDispatcher, type ChannelHandlers } from './ipc/dispatch';
import { createAuditFeature } from './audit';
import { createLedgerFeature } from './ledger';
import { createArchiveFeature } from './archive';
import { createContractDocumentFeature } from './contract-document';
import { createSearchFeature } from './search';
import { createTransferFeature } from './transfer';
import { createPerformanceFeature } from './performance';
import type { Notifier, Timers } from './performance/reminders/scheduler';
import { createReminderInbox } from './performance/reminders/inbox';
import { consoleLogger, systemClock, type Clock, type KeyWrapper, type Logger, type SecretStore } from './ports';
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
  /**
   * Protects each replica's key: the OS keychain in the desktop; a file of the user's own otherwise.
   * Null leaves replicas plain: only for the benches that measure what encryption costs.
   */
  keys?: KeyWrapper | null;
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
  /** How often an open app checks its offline lock (tests shorten it). */
  offlineLockCheckMs?: number;
  /** How old the drafting catalogue may get before a sync round fetches it again. */
  catalogueStaleMs?: number;
  /** Opens a downloaded file with the system's application (the Electron shell); 'files.open' needs it. */
  openFile?: (path: string) => Promise<void>;
}

/** How often a changing count of queued edits is written outside the replica (see recordQueuedEdits). */
const queuedRecordMs = 1000;

/**
 * The main core: everything the app does, with no Electron in it. Hosts hand it IPC calls through
 * `invoke` and forward its events to windows or sockets.
 */
export function createCore(options: CoreOptions) {
  const clock = options.clock ?? systemClock;
  const logger = privateLogger(options.logger ?? consoleLogger);
  const hub = createEventHub();
  const settings = createSettingsStore(options.dataDir, logger);
  if (options.serverUrl) settings.update({ serverUrl: options.serverUrl });
  const sessions = createSessionService({
    dataDir: options.dataDir,
    migrationsDir: options.migrationsDir,
    secrets: options.secrets ?? fileSecretStore(join(options.dataDir, 'session.json')),
    keys: options.keys === undefined ? fileKeyWrapper : options.keys,
    clock,
    logger,
    features: replicaFeatures,
    appVersion: options.version,
    onDeviceRevoked: (session, refusal) => void wipeRevokedDevice(session, refusal),
    onContactUnlocked: (session) => opened(session),
    fetch: options.fetch,
  });
  // Upload and download temporary files (removed at start, sign-out and close).
  const files = createFileTransfer({ dir: join(options.dataDir, 'transfers'), session: signedIn, uploads: currentUploads, openFile: options.openFile, logger });
  let sync: SyncService | null = null;
  let uploads: UploadQueue | null = null;
  /** Kept files (the archive cache and the queued files) share the one bound the user sets. */
  const keptFileBytes = () => settings.get().archiveCacheMegabytes * 1024 * 1024;

  /** The language the page last said it shows ('app.pageLanguage'); null until one has. */
  let pageLanguage: Language | null = null;

  /**
   * The language of the words the core writes for the UI: the one the user chose, else the page's
   * (which follows the browser in the web edition, not this process's locale), else the host's.
   */
  function language(): Language {
    return settings.get().language ?? pageLanguage ?? languageForLocale(options.systemLocale);
  }

  function signedInEvenLocked(): ActiveSession {
    const session = sessions.active();
    if (!session) throw new AppFailure('not_signed_in');
    return session;
  }

  /** The signed-in session, for the data channels: none answers while the offline lock holds. */
  function signedIn(): ActiveSession {
    const session = sessions.active();
    if (!session) throw new AppFailure('not_signed_in');
    if (session.lock.check()) lockedNow();
    if (session.lock.locked()) throw new AppFailure('offline_locked');
    return session;
  }

  function currentSync(): SyncService {
    signedIn();
    if (!sync) throw new AppFailure('not_signed_in');
    return sync;
  }

  function currentUploads(): UploadQueue {
    signedIn();
    if (!uploads) throw new AppFailure('not_signed_in');
    return uploads;
  }

  // The features (src-main/core/<feature>), each with its own handlers and session work.
  const host: FeatureHost = { hub, clock, logger, signedIn, sync: currentSync, uploads: currentUploads };
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
  const ledger = createLedgerFeature(host, { exportsDir: join(options.dataDir, 'exports') });
  const directory = createDirectoryFeature(host);
  const audit = createAuditFeature(host, { exportsDir: join(options.dataDir, 'audit-exports'), timeZone: options.timeZone });
  const archive = createArchiveFeature(host, { cacheBytes: keptFileBytes });
  const search = createSearchFeature(host);
  const transfer = createTransferFeature(host);
  const cachedReads = createCachedReadsFeature(host);
  const contractDocument = createContractDocumentFeature(host, { language });
  const features = [performance, reminderInbox, contracts, ledger, audit, archive, search, cachedReads, contractDocument];
  const counterparties = createCounterpartiesFeature(host);
  const scoring = createScoringFeature(host);

  // The outbox's size is kept outside the replica, so a replica whose key is lost can still say
  // how many unsent edits went with it. Whether any wait is written at once; a count that only
  // grows or shrinks is written at most once a second (a file written per edit cost a plan added
  // offline more than its rows), and when the session stops.
  let recordedQueued: { path: string; queued: number } | null = null;
  let latestQueued: { path: string; queued: number } | null = null;
  let queuedWrite: NodeJS.Timeout | null = null;
  function writeQueued() {
    if (queuedWrite) clearTimeout(queuedWrite);
    queuedWrite = null;
    if (!latestQueued || (recordedQueued?.path === latestQueued.path && recordedQueued.queued === latestQueued.queued)) return;
    recordedQueued = latestQueued;
    recordQueuedEdits(latestQueued.path, latestQueued.queued);
  }
  hub.subscribe((event, payload) => {
    const session = sessions.active();
    if (event !== 'sync.statusChanged' || !session) return;
    const { queued } = payload as EventPayload<'sync.statusChanged'>;
    latestQueued = { path: session.replica.path, queued };
    const anyChanged = recordedQueued?.path !== session.replica.path || (recordedQueued.queued === 0) !== (queued === 0);
    if (anyChanged) writeQueued();
    else if (!queuedWrite) {
      queuedWrite = setTimeout(writeQueued, queuedRecordMs);
      queuedWrite.unref();
    }
  });

  // The offline lock (issue 32). While locked, the session's sync and queued files keep trying the
  // server (an answer opens it, a revocation wipes it), but the features' own work (reminders that
  // name contracts, prefetches) stops until the password or the server opens it again.
  let lockTimer: NodeJS.Timeout | null = null;

  function lockedNow() {
    for (const feature of features) feature.stop?.();
    hub.emit('session.changed', sessions.info());
    logger.info('the offline lock closed the session: the server has not been reached for too long');
  }

  function opened(session: ActiveSession) {
    if (sessions.active() !== session || !sync) return;
    for (const feature of features) feature.start?.(session);
    hub.emit('session.changed', sessions.info());
  }

  function startSession(session: ActiveSession) {
    const queue = createUploadQueue({
      session,
      hub,
      clock,
      logger,
      limitBytes: keptFileBytes,
      shownRowsName: contractFormsName,
      formEdits: ['contract.create', 'contract.update', 'contract.alter'],
    });
    uploads = queue;
    void queue.tidy().catch((cause: unknown) => logger.warn('could not tidy the queued files', String(cause)));
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
      sendFiles: () => queue.sendAll(),
    });
    void sync.syncNow();
    if (!session.lock.locked()) for (const feature of features) feature.start?.(session);
    // An app left open past the limit locks too, without waiting for a channel to be called.
    lockTimer = setInterval(() => {
      if (sessions.active() === session && session.lock.check()) lockedNow();
    }, options.offlineLockCheckMs ?? 60_000);
    lockTimer.unref();
  }

  async function stopSession() {
    if (lockTimer) clearInterval(lockTimer);
    lockTimer = null;
    await files.clear();
    for (const feature of features) feature.stop?.();
    const running = sync;
    const queue = uploads;
    sync = null;
    uploads = null;
    await queue?.stop();
    await running?.stop();
    writeQueued();
  }

  /** Stops the session's work before its data goes: nothing of it is sent or written afterwards. */
  async function wipeRevokedDevice(session: ActiveSession, refusal: AppError) {
    if (sessions.active() !== session) return;
    await stopSession();
    const info = sessions.wipeRevoked(session, refusal);
    hub.emit('session.changed', info);
  }

  /** The channels of the core's own machinery: the app, settings, session, sync and file transfer. */
  const coreHandlers = {
    'app.info': () => ({ version: options.version, host: options.host, systemLocale: options.systemLocale, organizationShare: options.organizationShare ?? false }),
    'app.pageLanguage': ({ language: shown }) => {
      pageLanguage = shown;
      return {};
    },
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
      startSession(signedInEvenLocked());
      hub.emit('session.changed', info);
      return info;
    },
    // The password opens the offline lock (see offline-lock.ts for its refusals).
    'session.unlock': async ({ password }) => {
      const session = signedInEvenLocked();
      if (await session.lock.unlock(password)) opened(session);
      return sessions.info();
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
    'files.queue': () => currentUploads().list(),
  } satisfies Partial<ChannelHandlers>;

  // Every channel has exactly one handler: a channel no map handles is a type error.
  const handlers: ChannelHandlers = { ...coreHandlers, ...contracts.handlers, ...ledger.handlers, ...performance.handlers, ...directory.handlers, ...archive.handlers, ...search.handlers, ...transfer.handlers, ...cachedReads.handlers, ...counterparties.handlers, ...scoring.handlers, ...reminderInbox.handlers, ...contractDocument.handlers, ...audit.handlers };

  const dispatch = createDispatcher(handlers, logger);
  const restored = sessions.restore();
  if (restored.signedIn) startSession(signedInEvenLocked());

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
