import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy } from '../../src-main/shell/app-protocol';
import { appId } from '../../src-main/shell/app-identity';
import { appOrigin, invokeChannel, openWindowChannel } from '../../src-main/shell/ipc-names';
import type { DueReminder } from '../../src-main/core/performance/reminders/rules';
import type { Notifier } from '../../src-main/core/performance/reminders/scheduler';
import { tempDir } from '../support/temp';

// main.ts with Electron faked at its edge: what it wires, not how Electron behaves.

const dir = tempDir('contract-desk-main-');
type Listener = (...args: unknown[]) => unknown;
const appListeners = new Map<string, Listener>();
const windows: FakeWindow[] = [];
const calls = {
  userModelId: [] as string[],
  protocolHandler: undefined as Listener | undefined,
  permissionRequest: undefined as Listener | undefined,
  permissionCheck: undefined as Listener | undefined,
  sessionListeners: new Map<string, Listener>(),
  ipcHandlers: new Map<string, Listener>(),
  menu: undefined as unknown,
  powerListeners: new Map<string, Listener>(),
  notifications: [] as FakeNotification[],
  coreOptions: undefined as Record<string, unknown> | undefined,
  reminders: { taskIsOpen: vi.fn((taskId: string) => taskId === 'open-task'), snooze: vi.fn(), refresh: vi.fn() },
};

class FakeNotification {
  listeners = new Map<string, Listener>();
  shown = false;
  constructor(public options: { title: string; body: string; actions: { text: string }[] }) {
    calls.notifications.push(this);
  }
  on(event: string, listener: Listener) {
    this.listeners.set(event, listener);
  }
  show() {
    this.shown = true;
  }
}

class FakeWindow {
  static getAllWindows = () => windows;
  listeners = new Map<string, Listener>();
  loaded: string[] = [];
  webContents = { send: vi.fn(), isDestroyed: () => false, reload: vi.fn() };
  constructor(public options: { webPreferences: Record<string, unknown>; width: number }) {
    windows.push(this);
  }
  once(event: string, listener: Listener) {
    this.listeners.set(event, listener);
  }
  on(event: string, listener: Listener) {
    this.listeners.set(event, listener);
  }
  loadURL(url: string) {
    this.loaded.push(url);
    return Promise.resolve();
  }
  maximize() {}
  isMinimized = () => false;
  focus = vi.fn();
  restore() {}
  isMaximized = () => false;
  getNormalBounds = () => ({ x: 10, y: 20, width: 1200, height: 800 });
}

vi.mock('electron', () => ({
  app: {
    setAppUserModelId: (id: string) => calls.userModelId.push(id),
    getAppPath: () => dir.path,
    getPath: (name: string) => join(dir.path, name),
    getVersion: () => '0.1.0',
    getLocale: () => 'en-US',
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    on: (event: string, listener: Listener) => appListeners.set(event, listener),
    whenReady: () => Promise.resolve(),
    quit: vi.fn(),
  },
  BrowserWindow: FakeWindow,
  ipcMain: { handle: (channel: string, handler: Listener) => calls.ipcHandlers.set(channel, handler), removeHandler: vi.fn() },
  Menu: { buildFromTemplate: (template: unknown) => template, setApplicationMenu: (menu: unknown) => (calls.menu = menu) },
  net: { fetch: async () => new Response('<html></html>', { headers: { 'Content-Type': 'text/html' } }) },
  Notification: FakeNotification,
  powerMonitor: { on: (event: string, listener: Listener) => calls.powerListeners.set(event, listener) },
  protocol: { registerSchemesAsPrivileged: vi.fn(), handle: (_scheme: string, handler: Listener) => (calls.protocolHandler = handler) },
  safeStorage: { isEncryptionAvailable: () => false, encryptString: vi.fn(), decryptString: vi.fn() },
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (handler: Listener) => (calls.permissionRequest = handler),
      setPermissionCheckHandler: (handler: Listener) => (calls.permissionCheck = handler),
      on: (event: string, listener: Listener) => calls.sessionListeners.set(event, listener),
    },
  },
  shell: { openExternal: vi.fn(async () => {}) },
}));
vi.mock('electron-updater', () => ({ autoUpdater: {} }));
vi.mock('../../src-main/core/core', () => ({
  createCore: (options: Record<string, unknown>) => {
    calls.coreOptions = options;
    return {
      invoke: async () => ({ ok: true, data: { serverUrl: null, language: 'zh-CN' } }),
      subscribe: () => () => {},
      reminders: calls.reminders,
      close: async () => {},
    };
  },
}));

const processListeners = { uncaught: process.listeners('uncaughtException'), unhandled: process.listeners('unhandledRejection') };
afterAll(() => {
  // main.ts logs process-level errors; the test process gets its own handlers back.
  for (const l of process.listeners('uncaughtException')) if (!processListeners.uncaught.includes(l)) process.off('uncaughtException', l);
  for (const l of process.listeners('unhandledRejection')) if (!processListeners.unhandled.includes(l)) process.off('unhandledRejection', l);
  dir.cleanup();
});

describe('main.ts wiring', async () => {
  await import('../../src-main/shell/main');
  await vi.waitFor(() => expect(windows.length).toBe(1));

  it('sets the installer appId and opens one hardened window on the app origin', () => {
    expect(calls.userModelId).toEqual([appId]);
    const [first] = windows;
    expect(first!.loaded).toEqual([`${appOrigin}/`]);
    expect(first!.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect([...calls.ipcHandlers.keys()]).toEqual([invokeChannel, openWindowChannel]);
  });

  it('serves app:// with the CSP and refuses every permission', async () => {
    const response = (await calls.protocolHandler!({ url: `${appOrigin}/standingBook/detail?contractId=1&mode=contract` })) as Response;
    expect(response.headers.get('Content-Security-Policy')).toBe(contentSecurityPolicy);
    const granted = vi.fn();
    calls.permissionRequest!({}, 'media', granted);
    expect(granted).toHaveBeenCalledWith(false);
    expect(calls.permissionCheck!({}, 'notifications')).toBe(false);
  });

  it('guards every web contents: window.open denied, spec routes as app windows, navigation and webviews held', () => {
    const handlers = new Map<string, Listener>();
    let openHandler: Listener | undefined;
    const contents = { setWindowOpenHandler: (h: Listener) => (openHandler = h), on: (event: string, h: Listener) => handlers.set(event, h) };
    appListeners.get('web-contents-created')!({}, contents);
    expect(openHandler!({ url: `${appOrigin}/contractApproval/detail?id=9&flowId=0&tab=PERFORMANCE_TAB&active=0` })).toEqual({ action: 'deny' });
    expect(windows.at(-1)!.loaded).toEqual([`${appOrigin}/contractApproval/detail?id=9&flowId=0&tab=PERFORMANCE_TAB&active=0`]);
    expect(openHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(windows).toHaveLength(2);
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const preventDefault = vi.fn();
      handlers.get(event)!({ url: 'file:///etc/passwd', preventDefault });
      expect(preventDefault).toHaveBeenCalled();
    }
  });

  it('opens each new-window action of the renderer in exactly one new window, the opener staying where it was', () => {
    const openWindow = calls.ipcHandlers.get(openWindowChannel)!;
    const opener = windows[0]!;
    const openerLoaded = [...opener.loaded];
    const fromOpener = { senderFrame: { url: openerLoaded.at(-1) } };
    // What the renderer's new-window actions ask for (openRoute's callers).
    const actions = {
      ledgerView: '/standingBook/detail?contractId=c-1&mode=contract',
      create: '/standingBook/create?mode=contract',
      duplicateView: '/standingBook/detail?contractId=c-2&mode=contract',
      cooperationView: '/myContract/detail?contractId=c-3',
      taskCard: '/contractApproval/detail?id=c-4&tab=PERFORMANCE_TAB&active=3',
      riskReminder: '/manage/oppositeParty/externalDetail?id=p-1&role=organization',
      searchHit: '/standingBook/detail?contractId=c-5&mode=contract',
    };
    for (const [action, route] of Object.entries(actions)) {
      const before = windows.length;
      expect(openWindow(fromOpener, route), action).toEqual({ ok: true, data: null });
      expect(windows, action).toHaveLength(before + 1);
      expect(windows.at(-1)!.loaded, action).toEqual([`${appOrigin}${route}`]);
      expect(opener.loaded, action).toEqual(openerLoaded);
    }
    const before = windows.length;
    for (const refused of ['/nowhere', 'https://evil.example/', '//evil.example/x', '/standingBook/detail', 42]) {
      expect(openWindow(fromOpener, refused)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    }
    expect(openWindow({ senderFrame: { url: 'https://evil.example/' } }, actions.create)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(windows).toHaveLength(before);
    expect(opener.loaded).toEqual(openerLoaded);
  });

  it('shows the saved language in the menu; a second launch with a bad deep link just focuses', () => {
    const language = (calls.menu as { label?: string; submenu?: { label: string; checked: boolean }[] }[]).find((m) => m.label === 'Language / 语言');
    expect(language!.submenu!.find((c) => c.checked)!.label).toBe('简体中文');
    const before = windows.length;
    appListeners.get('second-instance')!({}, ['exe', `${appOrigin}/nowhere`]);
    expect(windows).toHaveLength(before);
    appListeners.get('second-instance')!({}, ['exe']);
    expect(windows[0]!.focus).toHaveBeenCalled();
  });

  it('saves a download (an Excel export) where the save dialog says, the dialog opening in Downloads with the file name', () => {
    const done = new Map<string, Listener>();
    const item = {
      dialog: undefined as { defaultPath: string } | undefined,
      getFilename: () => 'Receivables due-2026-11-24.xlsx',
      setSaveDialogOptions(options: { defaultPath: string }) {
        item.dialog = options;
      },
      // What the user picked in the dialog, as Electron reports it once the file is written.
      getSavePath: () => '/home/user/Reports/receivables.xlsx',
      once: (event: string, listener: Listener) => done.set(event, listener),
    };
    calls.sessionListeners.get('will-download')!({}, item, {});
    expect(item.dialog).toEqual({ defaultPath: join(dir.path, 'downloads', 'Receivables due-2026-11-24.xlsx') });
    done.get('done')!({}, 'completed');
    expect(readFileSync(join(dir.path, 'logs', 'main.log'), 'utf8')).toContain('download saved: /home/user/Reports/receivables.xlsx');
  });

  it('remembers the window position when it closes', async () => {
    windows[0]!.listeners.get('close')!();
    const { readWindowState } = await import('../../src-main/shell/window-state');
    expect(readWindowState(join(dir.path, 'userData', 'window-state.json'), [{ x: 0, y: 0, width: 1920, height: 1080 }])).toEqual({
      x: 10,
      y: 20,
      width: 1200,
      height: 800,
      maximized: false,
    });
  });

  it('hands the core a native notifier: a click opens the task in a window, an action snoozes, a resume refreshes', async () => {
    const { reminderNotification } = await import('../../src-main/core/performance/reminders/scheduler');
    const notifier = calls.coreOptions!.notifier as Notifier;
    expect(calls.coreOptions!.organizationShare).toBe(false);
    // No keychain in this fake Electron: the replica keys go to user-only files, as in the web host.
    expect((calls.coreOptions!.keys as { protection: string }).protection).toBe('file');
    const reminder: DueReminder = {
      id: 'r1', taskId: 'open-task', contractId: 'c-7', taskName: 'Collect', kind: 'receivableTask', rule: 'onDue',
      occurrence: '2026-11-21', dueDate: '2026-11-21', at: new Date('2026-11-21T01:00:00Z'),
    };
    notifier.show(reminderNotification(reminder, 'en'));
    const shown = calls.notifications.at(-1)!;
    expect(shown.shown).toBe(true);
    expect(shown.options.actions).toHaveLength(2);
    const before = windows.length;
    shown.listeners.get('click')!();
    expect(windows).toHaveLength(before + 1);
    expect(windows.at(-1)!.loaded[0]).toContain('/contractApproval/detail?id=c-7');

    notifier.show(reminderNotification({ ...reminder, id: 'r2', taskId: 'deleted-task' }, 'en'));
    calls.notifications.at(-1)!.listeners.get('click')!();
    expect(windows).toHaveLength(before + 1);

    notifier.show(reminderNotification({ ...reminder, id: 'r3' }, 'en'));
    calls.notifications.at(-1)!.listeners.get('action')!({}, 1);
    expect(calls.reminders.snooze).toHaveBeenCalledWith(expect.objectContaining({ id: 'r3' }), 'tomorrow');

    calls.powerListeners.get('resume')!();
    expect(calls.reminders.refresh).toHaveBeenCalledTimes(1);
  });
});
