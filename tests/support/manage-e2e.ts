import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type EndpointBody, type EndpointName, type EndpointResponse } from '../../src-shared/api/endpoints';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { E2eStage } from './e2e-stage';

// What the management screens' end-to-end tests (issue 15) share: signing in through the page,
// and calls on the server as a given user to check what the screens wrote.

/**
 * Opens the sign-in screen and submits it as `username`, once the server's address is filled in.
 * Waits in the page, not with expect.poll, so a suite's beforeAll may sign in too.
 */
export async function submitSignIn(stage: E2eStage, username: string, password: string): Promise<void> {
  const { page } = stage;
  await page.goto(stage.edition.host.url);
  await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('#signin-server')?.value ?? '') !== '', undefined, { timeout: 20_000 });
  await page.fill('#signin-username', username);
  await page.fill('#signin-password', password);
  await page.getByTestId('signin-submit').click();
}

/** Signs in and waits for the ledger. */
export async function signInOnPage(stage: E2eStage, username: string, password: string): Promise<void> {
  await submitSignIn(stage, username, password);
  await stage.page.getByTestId('scene-ledger').waitFor({ timeout: 30_000 });
}

/** A server call as `username` (signed in once per call: tests make few). */
export async function onServer<N extends EndpointName>(
  stage: E2eStage,
  credentials: { username: string; password: string },
  name: N,
  request: { params?: Record<string, string>; query?: Record<string, string>; body?: EndpointBody<N> } = {},
): Promise<EndpointResponse<N>> {
  const client = createContractServerClient(stage.serverUrl);
  const { token } = await client.call('login', { body: credentials });
  return client.call(name, { ...request, token } as never) as Promise<EndpointResponse<N>>;
}

/** Waits until the core's sync has noticed the stopped server (writes are then refused at once). */
export async function untilOffline(page: Page): Promise<void> {
  await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
}

