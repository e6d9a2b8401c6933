import { chromium, type Browser, type Page } from 'playwright-core';
import type { Core } from '../../src-main/core/core';
import { rendererDistDir } from '../../src-main/paths';
import { startWebHost, type WebHost } from '../../src-main/web-host/web-host';

/** Debian's Chromium, headless, with the flags that keep it off the (closed) network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The browser edition of the app on a core: the web host serving the built renderer, and a page in Chromium. */
export interface BrowserEdition {
  host: WebHost;
  browser: Browser;
  page: Page;
  /** Closes the browser and the host (the core and any server are the caller's). */
  close(): Promise<void>;
}

/** `locale` is the browser's language (navigator.languages), which the web edition's UI follows until one is chosen. */
export async function openBrowserEdition(core: Core, { locale = 'en-US' }: { locale?: string } = {}): Promise<BrowserEdition> {
  const host = await startWebHost({ core, rendererDir: rendererDistDir, port: 0 });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale });
  return {
    host,
    browser,
    page,
    close: async () => {
      await browser.close();
      await host.close();
    },
  };
}
