import { join } from 'node:path';
import { AppFailure } from '../../src-shared/errors';
import type { AppInfo, EventPayload } from '../../src-shared/ipc/channels';
import { createEventHub, type CoreEventListener } from './events';
import { fileSecretStore } from './files';
import { createDispatcher, type ChannelHandlers } from './ipc/dispatch';
import { consoleLogger, systemClock, type Clock, type Logger, type SecretStore } from './ports';
import { createSessionService, type ActiveSession } from './session/session-service';
import { createSettingsStore } from './settings/settings-store';
import { createSyncService, signedOutSyncStatus, type SyncService } from './sync/sync-service';
import { createDraftingService, type DraftingService } from './drafting/drafting-service';
import { createFileTransfer } from './files-transfer/file-transfer';
import { createTaskReader, type TaskReader } from './data/task-replica';
import { reminderLog } from './data/reminder-log';
import { cooperationInformation } from './data/cooperation';
import type { DueReminder } from './reminders/rules';
import { createReminderScheduler, systemTimers, type Notifier, type ReminderScheduler, type SnoozeChoice, type Timers } from './reminders/scheduler';
import { languageForLocale } from '../../src-shared/i18n/languages';

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
  /**
   * Shows due reminders. The Electron shell passes native notifications; without one (the web
   * host) reminders are only written to the log, since a browser tab is no place for them.
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

/** What the shell's notifier asks of the core's reminders. */
export interface CoreReminders {
  /** Whether the task is in the replica and unfinished; false when signed out. */
  taskIsOpen(taskId: string): boolean;
  snooze(reminder: DueReminder, choice: SnoozeChoice): void;
  /** Re-reads tasks and settings now (after a resume from sleep). */
  refresh(): void;
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
  // Upload and download temporary files (removed at start, sign-out and close).
  const files = createFileTransfer({ dir: join(options.dataDir, 'transfers'), session: signedIn, openFile: options.openFile, logger });
  let sync: SyncService | null = null;
  let drafting: DraftingService | null = null;
  let reminders: { scheduler: ReminderScheduler; tasks: TaskReader } | null = null;
  const notifier: Notifier = options.notifier ?? {
    show: (notification) => logger.info(`reminder: ${notification.title}: ${notification.body}`),
  };

  function language() {
    return settings.get().language ?? languageForLocale(options.systemLocale);
  }

  /** One scheduler per signed-in session, over that user's replica. */
  function startReminders(session: ActiveSession) {
    const tasks = createTaskReader(session.replica.sqlite);
    const scheduler = createReminderScheduler({
      clock,
      timers: options.timers ?? systemTimers,
      tasks: { tasks: () => tasks.reminderTasks(session.user.id) },
      settings: { settings: () => tasks.reminderSettings(session.user.id) },
      log: reminderLog(session.replica),
      notifier,
      logger,
      language,
      zone: options.timeZone,
    });
    scheduler.start();
    reminders = { scheduler, tasks };
  }

  function stopReminders() {
    reminders?.scheduler.stop();
    reminders = null;
  }

  // A pull round that changed tasks or reminder settings announces it once (sync-service).
  hub.subscribe((event, payload) => {
    if (event !== 'data.changed') return;
    const { entities } = payload as { entities: string[] };
    if (entities.includes('performanceTask') || entities.includes('reminderSettings')) reminders?.scheduler.refresh();
  });

  function startSession(session: ActiveSession) {
    startReminders(session);
    drafting = createDraftingService({ session, hub, clock, logger, sync: currentSync, staleMs: options.catalogueStaleMs });
    startSync(session);
    drafting.refreshIfStale();
  }

  async function stopSession() {
    await files.clear();
    stopReminders();
    drafting?.stop();
    drafting = null;
    await stopSync();
  }

  // After a sync round reaches the server, a catalogue older than a few minutes is fetched again.
  hub.subscribe((event, payload) => {
    if (event !== 'sync.statusChanged') return;
    const status = payload as EventPayload<'sync.statusChanged'>;
    if (status.phase === 'idle' && status.online) drafting?.refreshIfStale();
  });

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

  function currentDrafting(): DraftingService {
    signedIn();
    if (!drafting) throw new AppFailure('not_signed_in');
    return drafting;
  }

  function currentTasks(): TaskReader {
    signedIn();
    if (!reminders) throw new AppFailure('not_signed_in');
    return reminders.tasks;
  }

  const handlers: ChannelHandlers = {
    'app.info': () => ({ version: options.version, host: options.host, systemLocale: options.systemLocale, organizationShare: options.organizationShare ?? false }),
    'settings.get': () => settings.get(),
    'settings.update': (patch) => {
      const updated = settings.update(patch);
      // The language of the reminders to come may have changed.
      reminders?.scheduler.refresh();
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
    'ledger.contractStatistics': () => signedIn().contracts.statistics(),
    'ledger.contractPage': (query) => signedIn().contracts.page(query),
    'sync.status': () => (sync ? sync.status() : signedOutSyncStatus),
    'sync.now': () => currentSync().syncNow(),
    'contract.update': (args) => currentSync().edit('contract.update', args),
    'sync.dismiss': ({ id }) => currentSync().dismiss(id),
    'sync.keepTheirs': ({ id }) => currentSync().keepTheirs(id),
    'sync.applyMineAgain': ({ id }) => currentSync().applyMineAgain(id),
    'drafting.catalogue': () => currentDrafting().catalogue(),
    'drafting.refresh': () => currentDrafting().refreshNow(),
    'drafting.template': ({ id }) => currentDrafting().template(id),
    'drafting.searchParties': (query) => currentDrafting().searchParties(query),
    'contract.detail': ({ id }) => currentDrafting().detail(id),
    'contract.cooperation': ({ id }) => cooperationInformation(signedIn().replica, id),
    'contract.tasks': ({ id }) => currentTasks().contractTasks(id),
    'contract.create': (request) => currentDrafting().create(request),
    'contract.saveForm': (request) => currentDrafting().saveForm(request),
    'contract.alter': (request) => currentDrafting().alter(request),
    'contract.numberNotices': () => currentDrafting().numberNotices(),
    'contract.dismissNumberNotice': ({ contractId }) => currentDrafting().dismissNumberNotice(contractId),
    'online.call': (request) => currentDrafting().onlineCall(request),
    'files.uploadBegin': (request) => files.begin(request),
    'files.uploadChunk': (request) => files.chunk(request),
    'files.uploadFinish': (request) => files.finish(request),
    'files.uploadCancel': (request) => files.cancel(request),
    'files.open': (request) => files.open(request),
  };

  const dispatch = createDispatcher(handlers);
  const restored = sessions.restore();
  if (restored.signedIn) startSession(signedIn());

  const coreReminders: CoreReminders = {
    taskIsOpen: (taskId) => reminders?.tasks.taskIsOpen(taskId) ?? false,
    snooze(reminder, choice) {
      if (!reminders?.scheduler.snooze(reminder, choice)) logger.warn(`reminder ${reminder.id}: nothing to snooze`);
    },
    refresh: () => reminders?.scheduler.refresh(),
  };

  return {
    invoke: dispatch,
    subscribe: (listener: CoreEventListener) => hub.subscribe(listener),
    reminders: coreReminders,
    async close() {
      await stopSession();
      sessions.close();
    },
  };
}
export type Core = ReturnType<typeof createCore>;
