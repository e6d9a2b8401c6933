import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { submitSignIn } from '../support/manage-e2e';

// Offline edits in the browser edition: sign in, stop the server, rename a contract from the
// ledger, see it at once and see it queued, start the server and see it drain.

const contracts = 30;
let stage: E2eStage;
let page: Page;

const rows = () => page.locator('[data-testid=ledger-row]');
const text = (testId: string) => page.getByTestId(testId).innerText();
const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');

beforeAll(async () => {
  stage = await openE2eStage({ contracts, seed: 13, core: { syncSoonMs: 100, syncBackoffMs: 300 } });
  page = stage.page;
});

afterAll(() => stage?.close());

describe('offline edits in the browser edition', () => {
  let editedId = '';

  it('signs in and syncs everything', async () => {
    await submitSignIn(stage, 'admin', 'admin123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => text('ledger-count-all'), { timeout: 20_000 }).toBe(String(contracts));
    await expect.poll(() => queued()).toBe('0');
  });

  it('edits a contract while the server is stopped: shown at once, counted as queued', async () => {
    await stage.stopServer();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
    const draftsBefore = Number(await text('ledger-count-1'));
    // Only drafts may be renamed; the status moves only by the contract page's approval steps.
    await page.getByTestId('ledger-tab-1').click();
    await expect.poll(() => rows().first().getByTestId('contract-status').getAttribute('data-status')).toBe('1');
    await rows().first().getByTestId('ledger-edit').click();
    await page.getByTestId('contract-edit-name').fill('Edited while offline');
    await page.getByTestId('contract-edit-save').click();
    await expect.poll(() => page.getByTestId('contract-edit').count()).toBe(0);
    await page.getByTestId('ledger-tab-all').click();
    await expect.poll(() => page.getByText('Edited while offline').count()).toBe(1);
    await expect.poll(() => queued()).toBe('1');
    expect(await text('sync-details')).toContain('1 change waiting to be sent');
    expect(await text('ledger-count-1')).toBe(String(draftsBefore));

    await page.getByTestId('sync-details').click();
    await expect.poll(() => text('sync-panel-queued')).toMatch(/1 change waiting to be sent, the oldest made/);
    expect(await text('sync-panel-online')).toBe('Offline');
    await page.keyboard.press('Escape');
    editedId = (await page.locator('[data-testid=ledger-row]', { hasText: 'Edited while offline' }).locator('a').getAttribute('href'))!.match(/contractId=([^&]+)/)![1]!;
  });

  it('drains once the server is back, and the server has the edit', async () => {
    const server = await stage.startServer();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('true');
    await expect.poll(() => queued(), { timeout: 20_000 }).toBe('0');
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
    const client = createContractServerClient(server.url);
    const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
    const { list } = await client.call('contractList', { token, query: { pageNum: 1, pageSize: 100 } });
    const onServer = list.find((c) => c.id === editedId);
    expect(onServer).toMatchObject({ name: 'Edited while offline', status: 1 });
  });
});
