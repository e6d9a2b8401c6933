import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';

// Signing out on a contract page and signing in as someone else (issue 11): no crash screen, and
// the next user starts at the home screen (the ledger), not at the previous user's deep link.

let stage: E2eStage;
let page: Page;
/** A contract admin sees and bob does not (another department's, bob not responsible). */
let adminOnlyId = '';

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 30,
    seed: 23,
    prepare: async (server) => {
      const client = createContractServerClient(server.url);
      const admin = (await client.call('login', { body: { username: 'admin', password: 'admin123' } })).token;
      const bob = (await client.call('login', { body: { username: 'bob', password: 'bob123' } })).token;
      const all = await client.call('contractList', { token: admin, query: { pageNum: 1, pageSize: 100 } });
      const bobs = new Set((await client.call('contractList', { token: bob, query: { pageNum: 1, pageSize: 100 } })).list.map((c) => c.id));
      adminOnlyId = all.list.find((c) => !bobs.has(c.id))!.id;
    },
  });
  page = stage.page;
});

afterAll(() => stage?.close());

const crashText = () => page.getByText('Something went wrong inside the app').count();

async function signIn(username: string, password: string) {
  await page.locator('#signin-username').fill(username);
  await page.locator('#signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
}

describe('signing out and in as another user', () => {
  it('signs out on a contract page without an error', { timeout: 60_000 }, async () => {
    await page.goto(stage.edition.host.url);
    await expect.poll(() => page.locator('#signin-server').inputValue()).not.toBe('');
    await signIn('admin', 'admin123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('ledger-count-all').innerText(), { timeout: 20_000 }).toBe('30');
    await page.goto(`${stage.edition.host.url}/standingBook/detail?id=${adminOnlyId}`);
    await page.getByTestId('contract-detail').waitFor();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('sign-out').click();
    await page.getByTestId('signin-submit').waitFor();
    expect(await crashText()).toBe(0);
  });

  it('lands the next user on the ledger, not on the previous user’s contract', { timeout: 60_000 }, async () => {
    await signIn('bob', 'bob123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await page.getByTestId('ledger-count-all').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/');
    expect(new URL(page.url()).search).toBe('');
    expect(await page.getByTestId('contract-detail').count()).toBe(0);
    expect(await page.getByText('could not be read from the local data').count()).toBe(0);
    expect(await crashText()).toBe(0);
  });
});
