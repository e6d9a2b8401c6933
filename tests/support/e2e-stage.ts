import type { Page } from 'playwright-core';
import type { Core, CoreOptions } from '../../src-main/core/core';
import { openDatabase, seedDemoData, startContractServer, type RunningServer, type ServerDb } from '../../src-server';
import { openBrowserEdition, type BrowserEdition } from './browser';
import { testCore } from './core';
import { tempDir } from './temp';

/**
 * What an end-to-end test plays on: a real contract server on seeded demo data, the real core on
 * a fresh desktop data folder, and the browser edition (web host + Chromium) over that core. The
 * server can be stopped and started again on the same port and data, as a laptop loses and finds it.
 */
export interface E2eStage {
  /** null while stopped. */
  server: RunningServer | null;
  /** The server's address, also while it is stopped. */
  serverUrl: string;
  serverDir: string;
  desktopDir: string;
  core: Core;
  edition: BrowserEdition;
  page: Page;
  stopServer(): Promise<void>;
  startServer(): Promise<RunningServer>;
  close(): Promise<void>;
}

export interface E2eStageOptions {
  contracts: number;
  seed: number;
  /** The core's options beyond the server address and the English system locale. */
  core?: Partial<CoreOptions>;
  /** The browser's language (the web edition's UI follows it): English unless given. */
  locale?: string;
  /** Changes the seeded database before the server opens it (data no API call can make). */
  seeded?(db: ServerDb): Promise<void>;
  /** Runs against the started server before the core exists (e.g. to add a template). */
  prepare?(server: RunningServer): Promise<void>;
}

export async function openE2eStage(options: E2eStageOptions): Promise<E2eStage> {
  const serverDir = tempDir('contract-desk-e2e-server-');
  const desktopDir = tempDir('contract-desk-e2e-desktop-');
  await seedDemoData({ contracts: options.contracts, seed: options.seed, dataDir: serverDir.path });
  if (options.seeded) {
    const database = await openDatabase({ dataDir: serverDir.path });
    await options.seeded(database.db).finally(() => database.close());
  }
  const first = await startContractServer({ port: 0, dataDir: serverDir.path });
  const port = Number(new URL(first.url).port);
  await options.prepare?.(first);
  const core = testCore(desktopDir.path, { serverUrl: first.url, systemLocale: 'en-US', connectivityProbeMs: 300, ...options.core });
  const edition = await openBrowserEdition(core, { locale: options.locale });
  const stage: E2eStage = {
    server: first,
    serverUrl: first.url,
    serverDir: serverDir.path,
    desktopDir: desktopDir.path,
    core,
    edition,
    page: edition.page,
    async stopServer() {
      await stage.server?.close();
      stage.server = null;
    },
    async startServer() {
      stage.server = await startContractServer({ port, dataDir: serverDir.path });
      return stage.server;
    },
    async close() {
      await edition.close();
      await core.close();
      await stage.server?.close().catch(() => undefined);
      serverDir.cleanup();
      desktopDir.cleanup();
    },
  };
  return stage;
}
