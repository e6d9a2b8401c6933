import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { ContractStatistics } from '../../src-shared/domain/contract';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { submitSignIn } from '../support/manage-e2e';

// The real app in Chromium: the built renderer, the web host, the real core and a real contract
// server. Sign in, see the counts and rows, page and change tabs, stop the server, reload, and
// still see them.

const contracts = 65;
let stage: E2eStage;
let page: Page;
let expected: ContractStatistics;

const rows = () => page.locator('[data-testid=ledger-row]');
const text = (testId: string) => page.getByTestId(testId).innerText();

beforeAll(async () => {
  stage = await openE2eStage({
    contracts,
    seed: 11,
    prepare: async (server) => {
      const client = createContractServerClient(server.url);
      const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
      expected = await client.call('contractStatistics', { token });
    },
  });
  page = stage.page;
});

afterAll(() => stage?.close());

describe('ledger in the browser edition', () => {
  it('shows a plain message for a wrong password', async () => {
    await submitSignIn(stage, 'admin', 'wrong password');
    await expect.poll(() => text('signin-error')).toContain('Wrong user name or password.');
  });

  it('signs in and shows the status counts and the first page from the replica', async () => {
    await page.fill('#signin-password', 'admin123');
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => text('ledger-count-all'), { timeout: 20_000 }).toBe(String(contracts));
    expect(await text('ledger-count-1')).toBe(String(expected.draft));
    expect(await text('ledger-count-2')).toBe(String(expected.underApproval));
    expect(await text('ledger-count-3')).toBe(String(expected.approvalRejected));
    expect(await text('ledger-count-4')).toBe(String(expected.approved));
    expect(await text('ledger-count-5')).toBe(String(expected.archived));
    await expect.poll(() => rows().count()).toBe(20);
    expect(await text('pager-page')).toContain('1');
    expect(await text('pager-total')).toContain(String(contracts));
    expect(await page.getByTestId('sync-indicator').getAttribute('data-online')).toBe('true');
  });

  it('pages forward and changes the page size', async () => {
    const firstPage = await rows().first().innerText();
    await page.getByTestId('pager-next').click();
    await expect.poll(() => text('pager-page')).toMatch(/2/);
    await expect.poll(() => rows().first().innerText()).not.toBe(firstPage);
    await page.getByTestId('pager-size').selectOption('50');
    await expect.poll(() => rows().count()).toBe(50);
    await expect.poll(() => text('pager-page')).toMatch(/1/);
  });

  it('changing the tab shows only that status, from page 1, with the filters reset', async () => {
    await page.getByTestId('ledger-filter-toggle').click();
    await page.getByTestId('ledger-keyword').fill('HT-');
    await page.getByTestId('ledger-search').click();
    await page.getByTestId('ledger-tab-4').click();
    await expect.poll(() => page.getByTestId('ledger-tab-4').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => rows().count()).toBe(Math.min(expected.approved, 50));
    const statuses = await page.locator('[data-testid=ledger-row] [data-testid=contract-status]').evaluateAll((cells) =>
      cells.map((c) => c.getAttribute('data-status')),
    );
    expect(new Set(statuses)).toEqual(new Set(['4']));
    expect(await text('pager-page')).toMatch(/1/);
    if (await page.getByTestId('ledger-keyword').isVisible()) {
      expect(await page.getByTestId('ledger-keyword').inputValue()).toBe('');
    }
  });

  it('shows the empty state when nothing matches', async () => {
    await page.getByTestId('ledger-tab-all').click();
    if (!(await page.getByTestId('ledger-keyword').isVisible())) await page.getByTestId('ledger-filter-toggle').click();
    await page.getByTestId('ledger-keyword').fill('no contract is called this');
    await page.getByTestId('ledger-search').click();
    await expect.poll(() => page.getByTestId('ledger-empty').isVisible()).toBe(true);
    expect(await rows().count()).toBe(0);
  });

  it('after the server stops, a reload still shows the counts and rows, and offline', async () => {
    await stage.stopServer();
    await page.reload();
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => text('ledger-count-all'), { timeout: 20_000 }).toBe(String(contracts));
    await expect.poll(() => rows().count()).toBeGreaterThan(0);
    expect(await text('ledger-count-4')).toBe(String(expected.approved));
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
  });

  it('opens a deep link to a spec route, and names an unknown one', async () => {
    await page.goto(`${stage.edition.host.url}/templateApproval/detail`);
    await page.getByTestId('template-approval').waitFor();
    expect(await page.locator('body').innerText()).toContain('Template approval');
    await page.goto(`${stage.edition.host.url}/no/such/screen`);
    await page.getByText('There is no screen at').first().waitFor();
    expect(await page.locator('body').innerText()).toContain('/no/such/screen');
    await page.goto(stage.edition.host.url);
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await page.getByTestId('ledger-tab-all').waitFor();
  });

  it('switches the language to Simplified Chinese', async () => {
    await page.getByTestId('language-menu').click();
    await page.getByText('简体中文').click();
    await expect.poll(() => page.getByTestId('ledger-tab-all').innerText()).toContain('全部');
  });
});
