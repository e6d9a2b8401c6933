import { describe, expect, it } from 'vitest';
import type { AppInfo, Settings, SyncStatus } from '../../src-shared/ipc/channels';
import { uiLanguage } from '../../src-renderer/i18n/language';
import { firstSyncProgress, syncView } from '../../src-renderer/features/sync/syncView';
import { reconnectDelay } from '../../src-renderer/bridge/backoff';
import { signedOutSyncStatus } from '../../src-main/core/sync/sync-service';

const appInfo = (systemLocale: string, host: AppInfo['host'] = 'electron'): AppInfo => ({ version: '0.1.0', host, systemLocale, organizationShare: false });
const settings = (language: Settings['language']): Settings => ({ serverUrl: null, language, archiveCacheMegabytes: 512 });

describe('UI language', () => {
  it('uses the saved choice over the system locale', () => {
    expect(uiLanguage(settings('en'), appInfo('zh-CN'), ['zh-CN'])).toBe('en');
    expect(uiLanguage(settings('zh-CN'), appInfo('en-US', 'web'), ['en-US'])).toBe('zh-CN');
  });

  it('follows the operating system on the desktop when nothing is saved', () => {
    expect(uiLanguage(settings(null), appInfo('zh-Hans-CN'), ['en-US'])).toBe('zh-CN');
    expect(uiLanguage(settings(null), appInfo('de-DE'), ['zh-CN'])).toBe('en');
  });

  it("follows the browser's preferred languages in the web edition, not the host process's locale (issue 31)", () => {
    expect(uiLanguage(settings(null), appInfo('en-US', 'web'), ['zh-CN', 'en'])).toBe('zh-CN');
    expect(uiLanguage(settings(null), appInfo('zh-CN', 'web'), ['en-GB', 'zh-CN'])).toBe('en');
    // The first language the app has decides: French first, Chinese next.
    expect(uiLanguage(settings(null), appInfo('en-US', 'web'), ['fr-FR', 'zh-TW'])).toBe('zh-CN');
    expect(uiLanguage(settings(null), appInfo('zh-CN', 'web'), ['de-DE'])).toBe('en');
  });

  it("falls back to the browser's locale while the core has not answered", () => {
    expect(uiLanguage(undefined, undefined, ['zh-TW'])).toBe('zh-CN');
    expect(uiLanguage(undefined, undefined, ['en-GB'])).toBe('en');
  });
});

describe('sync indicator', () => {
  const status = (patch: Partial<SyncStatus>): SyncStatus => ({ ...signedOutSyncStatus, online: true, ...patch });

  it('is offline until the status is known', () => {
    expect(syncView(undefined)).toMatchObject({ online: false, labelKey: 'sync.offline' });
  });

  it('shows online, offline, paused and failed states', () => {
    expect(syncView(status({}))).toMatchObject({ online: true, labelKey: 'sync.online' });
    expect(syncView(status({ online: false, phase: 'offline' }))).toMatchObject({ online: false, labelKey: 'sync.offline' });
    expect(syncView(status({ online: false, phase: 'error' }))).toMatchObject({ online: false, labelKey: 'sync.offline' });
    expect(syncView(status({ phase: 'error' }))).toMatchObject({ online: true, labelKey: 'sync.error' });
    expect(syncView(status({ phase: 'paused' }))).toMatchObject({ labelKey: 'sync.paused' });
  });

  it('shows pull progress as pulled of pulled + remaining', () => {
    expect(syncView(status({ phase: 'pulling', pulled: 300, remaining: 700 }))).toMatchObject({
      labelKey: 'sync.pulling',
      progress: { pulled: 300, total: 1000 },
    });
    expect(syncView(status({ phase: 'pulling', pulled: 300, remaining: null })).progress).toBeNull();
  });
});

describe('reconnect backoff', () => {
  it('doubles from half a second up to ten seconds', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(reconnectDelay)).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});

describe('sync panel rules', () => {
  const status = (patch: Partial<SyncStatus>): SyncStatus => ({
    online: true, phase: 'idle', lastSyncAt: null, pulled: 0, remaining: null, firstSync: false, queued: 0, oldestQueuedAt: null, waiting: [], problems: [], error: null, ...patch,
  });

  it('shows the first-sync progress bar only while a pull from nothing runs with a known size', () => {
    expect(firstSyncProgress(status({ phase: 'pulling', firstSync: true, pulled: 1000, remaining: 3000 }))).toEqual({ pulled: 1000, total: 4000, fraction: 0.25 });
    expect(firstSyncProgress(status({ phase: 'pulling', firstSync: false, pulled: 10, remaining: 5 }))).toBeNull();
    expect(firstSyncProgress(status({ phase: 'pulling', firstSync: true, remaining: null }))).toBeNull();
    expect(firstSyncProgress(status({ phase: 'idle', firstSync: true, remaining: 0 }))).toBeNull();
    expect(firstSyncProgress(undefined)).toBeNull();
  });

  it('labels a push under way', () => {
    expect(syncView(status({ phase: 'pushing' }))).toMatchObject({ online: true, labelKey: 'sync.pushing' });
  });
});
