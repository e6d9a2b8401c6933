import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { submitSignIn } from '../support/manage-e2e';

// Approvals in the browser edition (issue 11, spec 4): from the contract page, submit → approve
// online, and submit → reject (with a comment) while the server is stopped, shown at once as
// waiting to sync and decided by the server once it is back; a template reviewed on
// /templateApproval/detail, submitted and approved there.

const contracts = 16;
const templateName = 'E2E template under review';
let stage: E2eStage;
let page: Page;
let drafts: string[] = [];
let templateId = '';

const headerStatus = () => page.getByTestId('contract-header').getByTestId('contract-status').getAttribute('data-status');
const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');
/** Waits for a toast saying `text` (a newer toast may stand above an older one). */
const toasted = (text: string) => page.locator('.bp6-toast', { hasText: text }).first().waitFor();

async function adminOnServer() {
  const client = createContractServerClient(stage.serverUrl);
  const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
  return { client, token };
}

async function statusOnServer(id: string) {
  const { client, token } = await adminOnServer();
  return (await client.call('contractDetail', { token, params: { id } })).status;
}

async function takeStep(action: 'submit' | 'approve' | 'reject', comment?: string) {
  await page.getByTestId(`approval-${action}`).click();
  await page.getByTestId('approval-confirm').waitFor();
  if (comment !== undefined) await page.getByTestId('approval-comment').fill(comment);
  await page.getByTestId('approval-confirm-button').click();
  await expect.poll(() => page.getByTestId('approval-confirm').count()).toBe(0);
}

const openContract = async (id: string) => {
  await page.goto(`${stage.edition.host.url}/standingBook/detail?contractId=${id}&mode=contract`);
  await page.getByTestId('contract-header').waitFor();
};

beforeAll(async () => {
  stage = await openE2eStage({
    contracts,
    seed: 29,
    core: { syncSoonMs: 100, syncBackoffMs: 300 },
    prepare: async (server) => {
      const client = createContractServerClient(server.url);
      const { token } = await client.call('login', { body: { username: 'alice', password: 'alice123' } });
      templateId = (await client.call('createTemplate', { token, body: { name: templateName, fields: [{ id: 'deliveryPlace', name: 'delivery place', type: 'text', required: true }], clauses: [] } })).id;
    },
  });
  page = stage.page;
  const { client, token } = await adminOnServer();
  drafts = (await client.call('contractList', { token, query: { pageNum: 1, pageSize: 100 } })).list.filter((c) => c.status === 1).map((c) => c.id);
  expect(drafts.length).toBeGreaterThanOrEqual(2);
});

afterAll(() => stage?.close());

describe('approvals from the contract page', () => {
  it('signs in as an approver and syncs', async () => {
    await submitSignIn(stage, 'admin', 'admin123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('ledger-count-all').innerText(), { timeout: 20_000 }).toBe(String(contracts));
    await expect.poll(() => queued()).toBe('0');
  }, 90_000);

  it('submits a draft and approves it; the server has it approved', async () => {
    await openContract(drafts[0]!);
    expect(await headerStatus()).toBe('1');
    // Only the steps allowed from drafting: no approve or reject yet.
    expect(await page.getByTestId('approval-approve').count()).toBe(0);
    await takeStep('submit');
    await toasted('Submitted for approval');
    await expect.poll(() => headerStatus()).toBe('2');
    await expect.poll(() => queued(), { timeout: 20_000 }).toBe('0');
    expect(await statusOnServer(drafts[0]!)).toBe(2);
    expect(await page.getByTestId('approval-submit').count()).toBe(0);

    await takeStep('approve');
    await expect.poll(() => headerStatus()).toBe('4');
    await expect.poll(() => queued(), { timeout: 20_000 }).toBe('0');
    await expect.poll(() => statusOnServer(drafts[0]!)).toBe(4);
    expect(await page.getByTestId('contract-actions').locator('[data-testid^=approval-]').count()).toBe(0);
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
  }, 90_000);

  it('submits and rejects offline: shown at once and waiting to sync, decided by the server once it is back', async () => {
    await stage.stopServer();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
    await openContract(drafts[1]!);
    await takeStep('submit');
    await expect.poll(() => headerStatus()).toBe('2');
    await page.getByTestId('contract-pending').waitFor();
    expect(await page.getByTestId('contract-pending').innerText()).toBe('Waiting to sync');
    await takeStep('reject', 'The annex is missing.');
    await toasted('Rejected on this device');
    await expect.poll(() => headerStatus()).toBe('3');
    await expect.poll(() => queued()).toBe('2');
    // Rejected, it may be submitted again: the steps follow the status this device shows.
    await page.getByTestId('approval-submit').waitFor();

    await stage.startServer();
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
    expect(await statusOnServer(drafts[1]!)).toBe(3);
    await expect.poll(() => page.getByTestId('contract-pending').count()).toBe(0);
    expect(await headerStatus()).toBe('3');
  }, 90_000);
});

describe('template approval', () => {
  it('lists the templates, opens one, and submits and approves it there', async () => {
    await page.goto(`${stage.edition.host.url}/templateApproval/detail`);
    const listed = page.getByTestId('template-approval-row').filter({ hasText: templateName });
    await listed.waitFor({ timeout: 20_000 });
    await listed.getByTestId('template-approval-open').click();
    await page.waitForURL(new RegExp(`/templateApproval/detail\\?id=${templateId}$`));
    expect(await page.getByTestId('template-approval-name').innerText()).toBe(templateName);
    expect(await page.getByTestId('template-approval-status').getByTestId('contract-status').getAttribute('data-status')).toBe('1');
    // Its fields in the generic form's preview.
    await page.getByTestId('field-deliveryPlace').waitFor();

    await takeStep('submit');
    await toasted('The template is submitted for approval.');
    await expect.poll(() => page.getByTestId('template-approval-status').getByTestId('contract-status').getAttribute('data-status')).toBe('2');
    await takeStep('approve');
    await expect.poll(() => page.getByTestId('template-approval-status').getByTestId('contract-status').getAttribute('data-status')).toBe('4');
    const { client, token } = await adminOnServer();
    expect((await client.call('templateDetail', { token, params: { id: templateId } })).status).toBe(4);
    expect(await page.getByTestId('template-approval-actions').locator('[data-testid^=approval-]').count()).toBe(0);
  }, 90_000);

  it('refuses a template step at once while the server is away, with the offline message', async () => {
    const { client, token } = await adminOnServer();
    const second = await client.call('createTemplate', { token, body: { name: 'E2E template offline', fields: [], clauses: [] } });
    await page.goto(`${stage.edition.host.url}/templateApproval/detail?id=${second.id}`);
    await page.getByTestId('approval-submit').waitFor({ timeout: 20_000 });
    await stage.stopServer();
    await takeStep('submit');
    await toasted('This needs the contract server, which cannot be reached now.');
    expect(await page.getByTestId('template-approval-status').getByTestId('contract-status').getAttribute('data-status')).toBe('1');
  }, 90_000);
});
