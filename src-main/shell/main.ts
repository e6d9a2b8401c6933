import { app, BrowserWindow, ipcMain, Menu, net, Notification, powerMonitor, protocol, safeStorage, screen, session, shell } from 'electron';
import { autoUpdater } from 'electron-updater';
import { join } from 'node:path';
import { AppFailure } from '../../src-shared/errors';
import type { Language } from '../../src-shared/i18n/languages';
import { createCore, type Core } from '../core/core';
import { appId } from './app-identity';
import { appMenuTemplate, changeLanguage } from './app-menu';
import { serveAppRequest } from './app-protocol';
import { saveDownloadsThroughDialog } from './downloads';
import { wireCoreToIpc, wireWindowOpening } from './ipc-bridge';
import { appOrigin, appScheme } from './ipc-names';
import { rotatingFileLogger } from './rotating-log';
import { safeStorageKeyWrapper, safeStorageSecretStore } from './safe-storage-secrets';
import { createReminderNotifier } from './reminder-notifier';
import { isPerMachineInstall, startUpdates, updateFeedUrl } from './updater';
import { createWindowManager, deepLinkFromArgv } from './window-manager';
import { readWindowState, writeWindowState } from './window-state';

// The Electron edge: it wires Electron's objects to the small tested modules beside this file.

protocol.registerSchemesAsPrivileged([
  { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);
app.setAppUserModelId(appId);

const appDir = app.getAppPath();
const rendererDir = join(appDir, 'dist', 'renderer');
const statePath = join(app.getPath('userData'), 'window-state.json');
const logger = rotatingFileLogger({ dir: app.getPath('logs') });
process.on('uncaughtException', (error) => logger.error('uncaught exception', error));
process.on('unhandledRejection', (reason) => logger.error('unhandled rejection', reason));

// IT sets this in organisation-share (external) environments (README: IT).
const organizationShare = process.env.CONTRACT_DESK_ORGANIZATION_SHARE === '1';

const windows = createWindowManager({
  createWindow: (route) => void openWindow(route),
  openExternal: (url) => shell.openExternal(url),
  logger,
  organizationShare,
});

function openWindow(route: string): BrowserWindow {
  const saved = readWindowState(statePath, screen.getAllDisplays().map((d) => d.workArea));
  const window = new BrowserWindow({
    width: saved?.width ?? 1360,
    height: saved?.height ?? 860,
    ...(saved && BrowserWindow.getAllWindows().length === 0 ? { x: saved.x, y: saved.y } : {}),
    show: false,
    // Written out here, the one place windows are made, so the security scan can read every value.
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      // A middle click would otherwise open a link without going through the window manager.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (saved?.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    try {
      writeWindowState(statePath, { ...window.getNormalBounds(), maximized: window.isMaximized() });
    } catch (error) {
      logger.warn('could not save the window position', error);
    }
  });
  void window.loadURL(`${appOrigin}${route}`).catch((error: unknown) => logger.error(`could not load ${route}`, error));
  return window;
}

function focusFirstWindow() {
  const [first] = BrowserWindow.getAllWindows();
  if (!first) return void openWindow('/');
  if (first.isMinimized()) first.restore();
  first.focus();
}

async function installMenu(core: Core) {
  const settings = await core.invoke('settings.get', {});
  const language = settings.ok ? (settings.data as { language: Language | null }).language : null;
  const setLanguage = (next: Language | null) =>
    void changeLanguage(core, next, () => BrowserWindow.getAllWindows().map((w) => w.webContents), logger).then(() => installMenu(core));
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate({ language, packaged: app.isPackaged, platform: process.platform, setLanguage })));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_event, argv) => {
    const link = deepLinkFromArgv(argv);
    if (link) windows.open(link);
    else focusFirstWindow();
  });

  // Every web contents, also ones created later, gets the same guards.
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler((details) => windows.windowOpen(details));
    contents.on('will-navigate', (event) => windows.navigate(event));
    contents.on('will-redirect', (event) => windows.redirect(event));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  void app.whenReady().then(async () => {
    // The app asks for no browser permission (camera, notifications from pages, geolocation...).
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
    // Exports the renderer hands over as downloads are saved where the user picks, from their Downloads folder.
    saveDownloadsThroughDialog(session.defaultSession, () => app.getPath('downloads'), logger);
    // The notifier asks the core about tasks and hands snoozes back; the core exists by the time
    // a notification is shown, let alone clicked.
    const notifier = createReminderNotifier({
      createNotification: (options) => new Notification(options),
      // Through the window manager's checks, like any other URL.
      openRoute: (route) => windows.open(`${appOrigin}${route}`),
      focusApp: focusFirstWindow,
      taskIsOpen: (taskId) => core.reminders.taskIsOpen(taskId),
      snooze: (reminder, choice) => core.reminders.snooze(reminder, choice),
      logger,
    });
    const core = createCore({
      dataDir: app.getPath('userData'),
      migrationsDir: join(appDir, 'migrations', 'client'),
      host: 'electron',
      version: app.getVersion(),
      systemLocale: app.getLocale(),
      serverUrl: process.env.CONTRACT_SERVER_URL || undefined,
      secrets: safeStorageSecretStore(safeStorage, join(app.getPath('userData'), 'session.bin')),
      keys: safeStorageKeyWrapper(safeStorage, process.platform, logger),
      logger,
      notifier,
      organizationShare,
      // An attachment the core downloaded opens in the system's application for its type.
      openFile: async (path) => {
        const problem = await shell.openPath(path);
        if (problem) throw new AppFailure('internal', `The file could not be opened: ${problem}`);
      },
    });
    protocol.handle(appScheme, (request) => serveAppRequest(request.url, rendererDir, (url) => net.fetch(url)));
    wireCoreToIpc(ipcMain, core, () => BrowserWindow.getAllWindows().map((w) => w.webContents));
    wireWindowOpening(ipcMain, windows);
    await installMenu(core);
    const link = deepLinkFromArgv(process.argv);
    openWindow('/');
    if (link) windows.open(link);
    startUpdates({
      updater: autoUpdater,
      feedUrl: app.isPackaged ? updateFeedUrl(process.env, logger) : null,
      perMachine: isPerMachineInstall(app.getPath('exe'), process.platform, process.env),
      logger,
      notify: (title, body) => new Notification({ title, body }).show(),
    });
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) openWindow('/');
    });
    // Reminders that fell due while the laptop slept show at once, not at the next wake.
    powerMonitor.on('resume', () => core.reminders.refresh());
    app.on('before-quit', () => void core.close());
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
