import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { appId } from '../../src-main/shell/app-identity';
import { appMenuTemplate, changeLanguage } from '../../src-main/shell/app-menu';
import { saveDownloadsThroughDialog, type DownloadItemLike, type DownloadState } from '../../src-main/shell/downloads';
import { rotatingFileLogger } from '../../src-main/shell/rotating-log';
import { isPerMachineInstall, startUpdates, updateFeedUrl } from '../../src-main/shell/updater';
import { readWindowState, writeWindowState } from '../../src-main/shell/window-state';
import { tempDir } from '../support/temp';

const silent = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

describe('app identity', () => {
  it('uses the installer appId as the AppUserModelId', () => {
    const yml = readFileSync('electron-builder.yml', 'utf8');
    expect(yml.match(/^appId:\s*(\S+)\s*$/m)?.[1]).toBe(appId);
  });
});

describe('window state', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1040 }];

  it('round-trips a position that is on a screen', () => {
    const dir = tempDir();
    const path = join(dir.path, 'window-state.json');
    expect(readWindowState(path, screen)).toBeNull();
    writeWindowState(path, { x: 100, y: 50, width: 1200, height: 800, maximized: true });
    expect(readWindowState(path, screen)).toEqual({ x: 100, y: 50, width: 1200, height: 800, maximized: true });
    // A second monitor to the left, in negative coordinates, is a real screen too.
    writeWindowState(path, { x: -1500, y: 10, width: 1200, height: 800, maximized: false });
    expect(readWindowState(path, [...screen, { x: -1920, y: 0, width: 1920, height: 1080 }])?.x).toBe(-1500);
    dir.cleanup();
  });

  it('ignores a position off every screen, and malformed or hostile files', () => {
    const dir = tempDir();
    const path = join(dir.path, 'window-state.json');
    for (const text of [
      JSON.stringify({ x: 5000, y: 50, width: 1200, height: 800, maximized: false }),
      JSON.stringify({ x: 100, y: -700, width: 1200, height: 800, maximized: false }),
      JSON.stringify({ x: 1900, y: 50, width: 1200, height: 800, maximized: false }),
      JSON.stringify({ x: 0, y: 0, width: 10, height: 10, maximized: false }),
      JSON.stringify({ x: 0, y: 0, width: 1e9, height: 800, maximized: false }),
      JSON.stringify({ x: 'a', y: 0, width: 1200, height: 800, maximized: false }),
      JSON.stringify([1, 2, 3]),
      'null',
      '{not json',
    ]) {
      writeFileSync(path, text);
      expect(readWindowState(path, screen), text).toBeNull();
    }
    dir.cleanup();
  });
});

describe('rotating log file', () => {
  it('writes lines with level and detail, rotates by size and keeps N files', () => {
    const dir = tempDir();
    const logs = join(dir.path, 'logs');
    const logger = rotatingFileLogger({ dir: logs, maxBytes: 2000, keep: 2, now: () => new Date('2026-01-02T03:04:05Z') });
    logger.info('started', { version: '1.0.0' });
    logger.error('failed', new Error('boom'));
    const first = readFileSync(join(logs, 'main.log'), 'utf8');
    expect(first).toMatch(/^2026-01-02T03:04:05.000Z INFO started {"version":"1.0.0"}\n/);
    expect(first).toMatch(/ERROR failed Error: boom/);
    for (let i = 0; i < 30; i += 1) logger.warn(`line ${i} ${'x'.repeat(400)}`);
    expect(readdirSync(logs).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    for (const name of readdirSync(logs)) expect(readFileSync(join(logs, name)).length).toBeLessThanOrEqual(2000);
    expect(readFileSync(join(logs, 'main.log'), 'utf8')).toMatch(/line 29/);
    dir.cleanup();
  });

  it('never throws when the folder cannot be written', () => {
    const dir = tempDir();
    writeFileSync(join(dir.path, 'blocked'), 'a file where the folder should be');
    const logger = rotatingFileLogger({ dir: join(dir.path, 'blocked', 'logs') });
    expect(() => logger.error('lost', { circular: globalThis })).not.toThrow();
    dir.cleanup();
  });
});

describe('application menu', () => {
  type Item = { label?: string; role?: string; type?: string; checked?: boolean; click?: () => void; submenu?: Item[] };
  const flat = (items: Item[]): Item[] => items.flatMap((i) => [i, ...flat(i.submenu ?? [])]);
  const menu = (packaged: boolean, language: 'en' | 'zh-CN' | null = null, setLanguage = vi.fn()) =>
    appMenuTemplate({ packaged, language, platform: 'win32', setLanguage }) as Item[];

  it('offers developer tools only when not packaged, and reload always', () => {
    expect(flat(menu(false)).some((i) => i.role === 'toggleDevTools')).toBe(true);
    expect(flat(menu(true)).some((i) => i.role === 'toggleDevTools')).toBe(false);
    expect(flat(menu(true)).some((i) => i.role === 'reload')).toBe(true);
  });

  it('switches language between English, 简体中文 and the system, checking the saved one', () => {
    const setLanguage = vi.fn();
    const choices = menu(true, 'zh-CN', setLanguage).find((i) => i.label === 'Language / 语言')!.submenu!;
    expect(choices.map((c) => [c.label, c.checked])).toEqual([
      ['English', false],
      ['简体中文', true],
      ['Follow the system / 跟随系统', false],
    ]);
    for (const choice of choices) choice.click!();
    expect(setLanguage.mock.calls).toEqual([['en'], ['zh-CN'], [null]]);
  });

  it('saves the language through the core, then reloads the windows; a refusal reloads nothing', async () => {
    const window = { reload: vi.fn() };
    const core = { invoke: vi.fn(async () => ({ ok: true as const, data: {} })) };
    expect(await changeLanguage(core as never, 'zh-CN', () => [window], silent())).toBe(true);
    expect(core.invoke).toHaveBeenCalledWith('settings.update', { language: 'zh-CN' });
    expect(window.reload).toHaveBeenCalledTimes(1);
    core.invoke.mockResolvedValueOnce({ ok: false, error: { code: 'invalid_request', message: 'no' } } as never);
    const logger = silent();
    expect(await changeLanguage(core as never, null, () => [window], logger)).toBe(false);
    expect(window.reload).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalled();
  });
});

describe('auto-update', () => {
  const fakeUpdater = () => {
    const listeners = new Map<string, (arg: never) => void>();
    return {
      listeners,
      autoDownload: true,
      autoInstallOnAppQuit: true,
      setFeedURL: vi.fn(),
      checkForUpdates: vi.fn(async () => null),
      on: vi.fn((event: string, listener: (arg: never) => void) => listeners.set(event, listener)),
    };
  };

  it('recognises a per-machine Windows install by its Program Files folder', () => {
    const env = { ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)' };
    // path.relative is POSIX here; the check itself is the same on Windows.
    const posixEnv = { ProgramFiles: '/c/Program Files' };
    expect(isPerMachineInstall('/c/Program Files/Contract Desk/Contract Desk.exe', 'win32', posixEnv)).toBe(true);
    expect(isPerMachineInstall('/c/Users/ann/AppData/Local/Programs/Contract Desk/Contract Desk.exe', 'win32', posixEnv)).toBe(false);
    expect(isPerMachineInstall('/c/Program Files Evil/x.exe', 'win32', posixEnv)).toBe(false);
    expect(isPerMachineInstall('/opt/Contract Desk/contract-desk', 'linux', env)).toBe(false);
  });

  it('reads the update server from the environment, refusing non-http(s) values', () => {
    const logger = silent();
    expect(updateFeedUrl({ CONTRACT_DESK_UPDATE_URL: ' https://updates.example/desk/ ' }, logger)).toBe('https://updates.example/desk/');
    expect(updateFeedUrl({}, logger)).toBeNull();
    expect(updateFeedUrl({ CONTRACT_DESK_UPDATE_URL: 'file:///share/updates' }, logger)).toBeNull();
    expect(updateFeedUrl({ CONTRACT_DESK_UPDATE_URL: 'nonsense' }, logger)).toBeNull();
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });

  it('per-user installs download and install on quit', () => {
    const updater = fakeUpdater();
    const notify = vi.fn();
    const stop = startUpdates({ updater: updater as never, feedUrl: 'https://u.example/', perMachine: false, logger: silent(), notify });
    expect(updater.setFeedURL).toHaveBeenCalledWith({ provider: 'generic', url: 'https://u.example/' });
    expect([updater.autoDownload, updater.autoInstallOnAppQuit]).toEqual([true, true]);
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    updater.listeners.get('update-available')!({ version: '1.2.0' } as never);
    expect(notify).not.toHaveBeenCalled();
    updater.listeners.get('update-downloaded')!({ version: '1.2.0' } as never);
    expect(notify).toHaveBeenCalledWith('Contract Desk 1.2.0 is ready', expect.any(String));
    stop();
  });

  it('per-machine installs only notify; no server means no updater; errors are logged', async () => {
    const updater = fakeUpdater();
    const notify = vi.fn();
    const logger = silent();
    updater.checkForUpdates.mockRejectedValueOnce(new Error('offline'));
    startUpdates({ updater: updater as never, feedUrl: 'https://u.example/', perMachine: true, logger, notify })();
    expect([updater.autoDownload, updater.autoInstallOnAppQuit]).toEqual([false, false]);
    updater.listeners.get('update-available')!({ version: '1.2.0' } as never);
    expect(notify).toHaveBeenCalledWith('Contract Desk 1.2.0 is available', expect.stringMatching(/IT/));
    await new Promise((resolve) => setImmediate(resolve));
    expect(logger.warn).toHaveBeenCalledWith('update check failed', 'Error: offline');

    const unused = fakeUpdater();
    startUpdates({ updater: unused as never, feedUrl: null, perMachine: false, logger, notify })();
    expect(unused.setFeedURL).not.toHaveBeenCalled();
    expect(unused.checkForUpdates).not.toHaveBeenCalled();
  });
});

describe('downloads', () => {
  function download(filename: string) {
    let finish: ((event: unknown, state: DownloadState) => void) | undefined;
    const item: DownloadItemLike & { dialog?: { defaultPath: string } } = {
      getFilename: () => filename,
      setSaveDialogOptions: (options) => void (item.dialog = options),
      getSavePath: () => '/chosen/file.xlsx',
      once: (_event, listener) => void (finish = listener),
    };
    return { item, finish: (state: DownloadState) => finish!({}, state) };
  }

  it('opens each save dialog in the Downloads folder with the file name alone, and logs only saved and interrupted downloads', () => {
    const logger = silent();
    let willDownload: ((event: unknown, item: DownloadItemLike) => void) | undefined;
    saveDownloadsThroughDialog({ on: (_event, listener) => (willDownload = listener) }, () => '/home/u/Downloads', logger);
    const [saved, hostile, cancelled] = [download('Scene.xlsx'), download('../../etc/Scene 2.xlsx'), download('Other.xlsx')];
    for (const { item } of [saved, hostile, cancelled]) willDownload!({}, item);
    expect([saved, hostile].map(({ item }) => item.dialog)).toEqual([{ defaultPath: join('/home/u/Downloads', 'Scene.xlsx') }, { defaultPath: join('/home/u/Downloads', 'Scene 2.xlsx') }]);
    saved.finish('completed');
    hostile.finish('interrupted');
    cancelled.finish('cancelled');
    expect(logger.info.mock.calls).toEqual([['download saved: /chosen/file.xlsx']]);
    expect(logger.warn.mock.calls).toEqual([['download interrupted: Scene 2.xlsx']]);
  });
});
