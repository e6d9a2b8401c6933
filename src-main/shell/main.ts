import { app, BrowserWindow, ipcMain, net, protocol, safeStorage, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCore } from '../core/core';
import { resolveRendererFile } from './app-protocol';
import { wireCoreToIpc } from './ipc-bridge';
import { appOrigin, appScheme } from './ipc-names';
import { safeStorageSecretStore } from './safe-storage-secrets';

// The Electron edge: windows, the app:// protocol and the keychain. All logic lives in the core
// and in the small tested modules beside this file.

protocol.registerSchemesAsPrivileged([
  { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

const appDir = app.getAppPath();
const rendererDir = join(appDir, 'dist', 'renderer');

function createWindow(route = '/'): BrowserWindow {
  const window = new BrowserWindow({
    width: 1360,
    height: 860,
    show: false,
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith(`${appOrigin}/`)) createWindow(new URL(url).pathname + new URL(url).search);
    else if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${appOrigin}/`)) event.preventDefault();
  });
  void window.loadURL(`${appOrigin}${route}`);
  return window;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [first] = BrowserWindow.getAllWindows();
    if (first) {
      if (first.isMinimized()) first.restore();
      first.focus();
    }
  });

  void app.whenReady().then(() => {
    const core = createCore({
      dataDir: app.getPath('userData'),
      migrationsDir: join(appDir, 'migrations', 'client'),
      host: 'electron',
      version: app.getVersion(),
      systemLocale: app.getLocale(),
      serverUrl: process.env.CONTRACT_SERVER_URL || undefined,
      secrets: safeStorageSecretStore(safeStorage, join(app.getPath('userData'), 'session.bin')),
    });
    protocol.handle(appScheme, (request) => {
      const file = resolveRendererFile(request.url, rendererDir);
      return file ? net.fetch(pathToFileURL(file).toString()) : new Response('Not found', { status: 404 });
    });
    wireCoreToIpc(ipcMain, core, () => BrowserWindow.getAllWindows().map((w) => w.webContents));
    createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    });
    app.on('before-quit', () => void core.close());
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
