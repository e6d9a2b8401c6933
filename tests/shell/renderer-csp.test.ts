import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { rendererDistDir } from '../../src-main/paths';
import { serveAppRequest } from '../../src-main/shell/app-protocol';
import { appOrigin } from '../../src-main/shell/ipc-names';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { launchChromium } from '../support/browser';
import { testCore } from '../support/core';
import { tempDir } from '../support/temp';

// The built renderer, served by the app:// handler itself (with its CSP header) and driven in
// Chromium against the real core, must work with no CSP violation: sign-in, then the ledger.
// (Needs `npm run build:renderer`, as npm test does first, and /usr/bin/chromium.)

const types: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
};
const fetchFile = async (fileUrl: string) => {
  const path = new URL(fileUrl);
  return new Response(await readFile(path), { headers: { 'Content-Type': types[extname(path.pathname)] ?? 'application/octet-stream' } });
};

const serverDir = tempDir('contract-desk-csp-server-');
const desktopDir = tempDir('contract-desk-csp-desktop-');
let server: RunningServer;
let core: Core;
let http: Server;
let browser: Browser;
let page: Page;
const violations: string[] = [];
type PageWithBridge = { __coreEvent(event: string, payload: unknown): void };

beforeAll(async () => {
  await seedDemoData({ contracts: 12, seed: 5, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  core = testCore(desktopDir.path, { serverUrl: server.url });
  // The same handler main.ts gives protocol.handle, reached over http for Chromium.
  http = createServer(async (request, reply) => {
    const response = await serveAppRequest(`${appOrigin}${request.url ?? '/'}`, rendererDistDir, fetchFile);
    reply.writeHead(response.status, Object.fromEntries(response.headers));
    reply.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  // The preload's bridge, carried to the real core.
  await page.exposeFunction('__coreInvoke', (channel: unknown, request: unknown) => core.invoke(channel, request));
  // Plain JavaScript: it runs in the page, before the renderer.
  await page.addInitScript({
    content: `
      const listeners = new Set();
      window.__coreEvent = (name, payload) => listeners.forEach((l) => l(name, payload));
      window.contractDesk = {
        invoke: (channel, request) => window.__coreInvoke(channel, request),
        on: (event, listener) => {
          const forward = (name, payload) => name === event && listener(payload);
          listeners.add(forward);
          return () => listeners.delete(forward);
        },
      };
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' at ' + e.sourceFile + ':' + e.lineNumber));
    `,
  });
  // Core events reach the page's bridge listeners (a closed page is not an error).
  core.subscribe((event, payload) => {
    page.evaluate(([e, p]) => (globalThis as unknown as PageWithBridge).__coreEvent(e, p), [event, payload] as const).catch(() => {});
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => http?.close(resolve));
  await core?.close();
  await server?.close();
  desktopDir.cleanup();
  serverDir.cleanup();
});

describe('the renderer under the app:// Content-Security-Policy', () => {
  it('signs in and shows the ledger with no CSP violation', async () => {
    const { port } = http.address() as AddressInfo;
    const response = await page.goto(`http://127.0.0.1:${port}/standingBook/create?mode=contract`);
    expect(response?.headers()['content-security-policy']).toMatch(/default-src 'self'/);
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.locator('#signin-username').fill('alice');
    await page.locator('#signin-password').fill('alice123');
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.locator('[data-testid=ledger-row]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    // A Blueprint popover and icons render too.
    await page.getByTestId('ledger-filter-toggle').click();
    await page.waitForTimeout(300);
    // zod 4 probes once whether it may compile validators (`Function('')` in a try) and falls back
    // to its interpreter when the CSP says no; that probe is the only refusal allowed.
    expect(violations).toEqual([]);
  });
});
