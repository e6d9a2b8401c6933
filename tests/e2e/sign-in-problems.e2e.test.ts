import { openKeptReplica } from '../support/replica-file';
import { writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Core, CoreOptions } from '../../src-main/core/core';
import { knownSchemaVersion } from '../../src-main/core/data/replica';
import { replicaPathFor } from '../../src-main/core/session/session-service';
import { clientMigrationsDir, rendererDistDir } from '../../src-main/paths';
import { startWebHost, type WebHost } from '../../src-main/web-host/web-host';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { launchChromium } from '../support/browser';
import { call, settledSync, testCore } from '../support/core';
import { tempDir } from '../support/temp';

// Each way sign-in or start-up can fail shows a plain message, never a blank screen.

const serverDir = tempDir('contract-desk-e2e-server-');
let server: RunningServer;
let browser: Browser;
const opened: { core: Core; host: WebHost; dir: ReturnType<typeof tempDir> }[] = [];

async function openApp(options: Partial<CoreOptions> = {}, dir = tempDir('contract-desk-e2e-desktop-'), locale = 'en-US'): Promise<Page> {
  const core = testCore(dir.path, { serverUrl: server.url, ...options });
  const host = await startWebHost({ core, rendererDir: rendererDistDir, port: 0 });
  opened.push({ core, host, dir });
  const page = await browser.newPage({ locale });
  await page.goto(host.url);
  return page;
}

async function signIn(page: Page, username: string, password: string) {
  await page.locator('#signin-username').fill(username);
  await page.locator('#signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
}

beforeAll(async () => {
  await seedDemoData({ contracts: 20, seed: 3, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  browser = await launchChromium();
});

afterEach(async () => {
  for (const { core, host, dir } of opened.splice(0)) {
    await host.close();
    await core.close();
    dir.cleanup();
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  serverDir.cleanup();
});

describe('sign-in problems in the browser edition', () => {
  it('an unreachable server', async () => {
    const page = await openApp({ serverUrl: 'http://127.0.0.1:1' });
    await signIn(page, 'admin', 'admin123');
    await expect.poll(() => page.getByTestId('signin-error').innerText()).toContain('The contract server cannot be reached');
  });

  it('a malformed server address names the field', async () => {
    const page = await openApp();
    await page.locator('#signin-server').fill('not a url');
    await signIn(page, 'admin', 'admin123');
    const message = page.getByTestId('signin-error');
    await expect.poll(() => message.innerText()).toContain('Validation failed');
    expect(await message.innerText()).toContain('Contract server address');
  });

  it('a damaged replica of the stored session, then a fresh start after signing in', async () => {
    const dir = tempDir('contract-desk-e2e-desktop-');
    const first = testCore(dir.path, { serverUrl: server.url });
    const session = await call(first, 'session.signIn', { serverUrl: server.url, username: 'alice', password: 'alice123' });
    await settledSync(first);
    await first.close();
    if (!session.signedIn) throw new Error('expected a session');
    writeFileSync(replicaPathFor(dir.path, server.url, session.user.id), 'not a database '.repeat(500));

    const page = await openApp({}, dir);
    await expect.poll(() => page.getByTestId('signin-problem').innerText()).toContain('The local data file is damaged');
    await signIn(page, 'alice', 'alice123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.locator('[data-testid=ledger-row]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  });

  it('a replica written by a newer version of the app', async () => {
    const dir = tempDir('contract-desk-e2e-desktop-');
    const first = testCore(dir.path, { serverUrl: server.url });
    const session = await call(first, 'session.signIn', { serverUrl: server.url, username: 'bob', password: 'bob123' });
    await settledSync(first);
    await call(first, 'session.signOut', {});
    await first.close();
    if (!session.signedIn) throw new Error('expected a session');
    const replica = openKeptReplica(replicaPathFor(dir.path, server.url, session.user.id));
    replica.pragma(`user_version = ${knownSchemaVersion(clientMigrationsDir) + 1}`);
    replica.close();

    const page = await openApp({}, dir);
    await signIn(page, 'bob', 'bob123');
    await expect.poll(() => page.getByTestId('signin-error').innerText()).toContain('written by a newer version of this app');
  });

  it("follows the browser's language in the web edition, not the host process's (issue 31)", async () => {
    const chinese = await openApp({ systemLocale: 'en-US' }, undefined, 'zh-CN');
    // Wait for the button itself: polling a locator that is not attached yet stalls for long.
    await chinese.getByTestId('signin-submit').waitFor();
    await expect.poll(() => chinese.getByTestId('signin-submit').innerText()).toBe('登录');
    const english = await openApp({ systemLocale: 'zh-CN' }, undefined, 'en-GB');
    await english.getByTestId('signin-submit').waitFor();
    await expect.poll(() => english.getByTestId('signin-submit').innerText()).toBe('Sign in');
  });
});
