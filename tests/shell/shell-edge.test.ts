import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy, resolveRendererFile, serveAppRequest } from '../../src-main/shell/app-protocol';
import { isTrustedSender, wireCoreToIpc } from '../../src-main/shell/ipc-bridge';
import { appOrigin, eventChannel, invokeChannel, openWindowChannel } from '../../src-main/shell/ipc-names';
import { safeStorageKeyWrapper, safeStorageSecretStore } from '../../src-main/shell/safe-storage-secrets';
import { createReplicaKey, fileKeyWrapper, keyFilePath, readReplicaKey } from '../../src-main/core/vault/replica-keys';
import { readFileSync } from 'node:fs';
import { tempDir } from '../support/temp';

const exposed: Record<string, unknown> = {};
const rendererListeners = new Map<string, (...args: unknown[]) => void>();
const ipcRendererInvoke = vi.fn(async (..._args: unknown[]) => ({ ok: true, data: 'answer' }));
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, api: unknown) => (exposed[name] = api) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => ipcRendererInvoke(...args),
    on: (channel: string, listener: (...args: unknown[]) => void) => rendererListeners.set(channel, listener),
    removeListener: (channel: string) => rendererListeners.delete(channel),
  },
}));

describe('preload', () => {
  it('exposes exactly invoke, on and openWindow, carried over the app IPC channels', async () => {
    await import('../../src-main/shell/preload');
    const bridge = exposed.contractDesk as {
      invoke: (...a: unknown[]) => Promise<unknown>;
      on: (...a: unknown[]) => () => void;
      openWindow: (route: string) => Promise<unknown>;
    };
    expect(Object.keys(exposed)).toEqual(['contractDesk']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on', 'openWindow']);
    await bridge.openWindow('/standingBook/create?mode=contract');
    expect(ipcRendererInvoke).toHaveBeenCalledWith(openWindowChannel, '/standingBook/create?mode=contract');
    expect(await bridge.invoke('app.info', {})).toEqual({ ok: true, data: 'answer' });
    expect(ipcRendererInvoke).toHaveBeenCalledWith(invokeChannel, 'app.info', {});
    const seen: unknown[] = [];
    const off = bridge.on('data.changed', (payload: unknown) => seen.push(payload));
    rendererListeners.get(eventChannel)?.({}, 'sync.statusChanged', { other: true });
    rendererListeners.get(eventChannel)?.({}, 'data.changed', { entities: ['contract'] });
    expect(seen).toEqual([{ entities: ['contract'] }]);
    off();
    expect(rendererListeners.has(eventChannel)).toBe(false);
  });
});

describe('IPC wiring in main', () => {
  const frame = (url: string) => ({ senderFrame: { url } }) as never;

  it('trusts only frames from the app origin', () => {
    expect(isTrustedSender(frame(`${appOrigin}/standingBook/detail?id=1`))).toBe(true);
    expect(isTrustedSender(frame('https://evil.example/'))).toBe(false);
    expect(isTrustedSender(frame('file:///etc/passwd'))).toBe(false);
    expect(isTrustedSender(frame('app://other/'))).toBe(false);
    expect(isTrustedSender({ senderFrame: null } as never)).toBe(false);
  });

  it('forwards trusted calls to the core, refuses others, and fans events out to live windows', async () => {
    let handler: ((event: unknown, channel: unknown, request: unknown) => Promise<unknown>) | undefined;
    const ipcMain = { handle: vi.fn((_: string, h: typeof handler) => (handler = h)), removeHandler: vi.fn() };
    let coreListener: ((event: string, payload: unknown) => void) | undefined;
    const core = {
      invoke: vi.fn(async () => ({ ok: true as const, data: 42 })),
      subscribe: vi.fn((l: typeof coreListener) => {
        coreListener = l;
        return () => (coreListener = undefined);
      }),
    };
    const live = { send: vi.fn(), isDestroyed: () => false };
    const dead = { send: vi.fn(), isDestroyed: () => true };
    const unwire = wireCoreToIpc(ipcMain as never, core as never, () => [live, dead]);

    expect(await handler!(frame(`${appOrigin}/`), 'app.info', {})).toEqual({ ok: true, data: 42 });
    expect(core.invoke).toHaveBeenCalledWith('app.info', {});
    expect(await handler!(frame('https://evil.example/'), 'app.info', {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(core.invoke).toHaveBeenCalledTimes(1);

    coreListener!('data.changed', { entities: ['contract'] });
    expect(live.send).toHaveBeenCalledWith(eventChannel, 'data.changed', { entities: ['contract'] });
    expect(dead.send).not.toHaveBeenCalled();

    unwire();
    expect(ipcMain.removeHandler).toHaveBeenCalledWith(invokeChannel);
    expect(coreListener).toBeUndefined();
  });
});

describe('app:// protocol', () => {
  const dir = tempDir();
  const root = join(dir.path, 'renderer');
  beforeAll(() => {
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<html></html>');
    writeFileSync(join(root, 'assets', 'app.js'), '');
    writeFileSync(join(dir.path, 'secret.txt'), 'secret');
  });
  afterAll(() => dir.cleanup());

  it('serves built files and falls back to index.html for routes', () => {
    expect(resolveRendererFile(`${appOrigin}/assets/app.js`, root)).toBe(join(root, 'assets', 'app.js'));
    expect(resolveRendererFile(`${appOrigin}/standingBook/detail?contractId=7&mode=contract`, root)).toBe(join(root, 'index.html'));
    expect(resolveRendererFile(`${appOrigin}/`, root)).toBe(join(root, 'index.html'));
  });

  it('refuses path traversal, foreign origins and malformed URLs', () => {
    // The URL parser resolves an encoded dot segment itself: the request stays inside the app.
    expect(resolveRendererFile(`${appOrigin}/%2e%2e/secret.txt`, root)).toBe(join(root, 'index.html'));
    expect(resolveRendererFile(`${appOrigin}/assets/%2e%2e%2f%2e%2e%2fsecret.txt`, root)).toBeNull();
    expect(resolveRendererFile(`${appOrigin}/a%00b`, root)).toBeNull();
    expect(resolveRendererFile(`${appOrigin}/%E0%A4%A`, root)).toBeNull();
    expect(resolveRendererFile('app://elsewhere/index.html', root)).toBeNull();
    expect(resolveRendererFile('not a url', root)).toBeNull();
  });

  const fetchFile = async (fileUrl: string) => new Response(`served ${fileUrl.split('/').pop()}`, { headers: { 'Content-Type': 'text/html' } });

  it('sends a strict Content-Security-Policy with every response, also with the index.html fallback', async () => {
    for (const url of [`${appOrigin}/`, `${appOrigin}/assets/app.js`, `${appOrigin}/contractApproval/detail?id=9`]) {
      const response = await serveAppRequest(url, root, fetchFile);
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Security-Policy')).toBe(contentSecurityPolicy);
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(response.headers.get('Content-Type')).toBe('text/html');
    }
    expect(await (await serveAppRequest(`${appOrigin}/standingBook/create`, root, fetchFile)).text()).toBe('served index.html');
    const directives = contentSecurityPolicy.split('; ');
    expect(directives).toContain("default-src 'self'");
    expect(directives).toContain("script-src 'self'");
    expect(directives).toContain("object-src 'none'");
    expect(contentSecurityPolicy).not.toMatch(/unsafe-eval|unsafe-inline|\*/);
  });

  it('answers 404 (with the CSP) for traversal, foreign origins and unreadable files', async () => {
    for (const url of [`${appOrigin}/assets/%2e%2e%2f%2e%2e%2fsecret.txt`, 'app://elsewhere/', 'not a url']) {
      const response = await serveAppRequest(url, root, fetchFile);
      expect(response.status).toBe(404);
      expect(response.headers.get('Content-Security-Policy')).toBe(contentSecurityPolicy);
    }
    const failing = await serveAppRequest(`${appOrigin}/`, root, () => Promise.reject(new Error('disk gone')));
    expect(failing.status).toBe(404);
  });
});

describe('session kept with safeStorage', () => {
  const fakeSafeStorage = (available: boolean) => ({
    isEncryptionAvailable: () => available,
    encryptString: (text: string) => Buffer.from(`enc:${text}`),
    decryptString: (data: Buffer) => {
      const text = data.toString();
      if (!text.startsWith('enc:')) throw new Error('cannot decrypt');
      return text.slice(4);
    },
  });

  it('round-trips an encrypted secret and removes it on sign-out', () => {
    const dir = tempDir();
    const store = safeStorageSecretStore(fakeSafeStorage(true), join(dir.path, 'session.bin'));
    expect(store.read()).toBeNull();
    store.write('{"token":"t"}');
    expect(store.read()).toBe('{"token":"t"}');
    store.write(null);
    expect(store.read()).toBeNull();
    dir.cleanup();
  });

  it('keeps nothing when the OS offers no encryption', () => {
    const dir = tempDir();
    const store = safeStorageSecretStore(fakeSafeStorage(false), join(dir.path, 'session.bin'));
    store.write('{"token":"t"}');
    expect(store.read()).toBeNull();
    dir.cleanup();
  });

  describe('replica keys wrapped by safeStorage', () => {
    const quiet = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

    it('keeps only the keychain-wrapped key on disk and opens it again', () => {
      const dir = tempDir();
      const replica = join(dir.path, 'r.sqlite');
      const wrapper = safeStorageKeyWrapper(fakeSafeStorage(true), 'win32', quiet);
      expect(wrapper.protection).toBe('keychain');
      const key = createReplicaKey(replica, wrapper);
      const stored = JSON.parse(readFileSync(keyFilePath(replica), 'utf8')) as { protection: string; key: string };
      expect(stored.protection).toBe('keychain');
      expect(Buffer.from(stored.key, 'base64').toString()).toBe(`enc:${key.toString('base64')}`);
      expect(readReplicaKey(replica, wrapper)).toEqual({ state: 'present', key });
      // Another keychain (another profile, a reinstalled system) cannot open it, nor can a plain host.
      const otherKeychain = { ...fakeSafeStorage(true), decryptString: () => { throw new Error('not this keychain'); } };
      expect(readReplicaKey(replica, safeStorageKeyWrapper(otherKeychain, 'win32', quiet)).state).toBe('unreadable');
      expect(readReplicaKey(replica, fileKeyWrapper).state).toBe('unreadable');
      dir.cleanup();
    });

    it('falls back to a user-only key file without a keychain, or with Linux fixed-password backend, and says so', () => {
      const warn = vi.fn();
      expect(safeStorageKeyWrapper(fakeSafeStorage(false), 'darwin', { ...quiet, warn })).toBe(fileKeyWrapper);
      const basicText = { ...fakeSafeStorage(true), getSelectedStorageBackend: () => 'basic_text' as const };
      expect(safeStorageKeyWrapper(basicText, 'linux', { ...quiet, warn })).toBe(fileKeyWrapper);
      expect(warn).toHaveBeenCalledTimes(2);
      const gnome = { ...fakeSafeStorage(true), getSelectedStorageBackend: () => 'gnome_libsecret' as const };
      expect(safeStorageKeyWrapper(gnome, 'linux', quiet).protection).toBe('keychain');
    });
  });
});
