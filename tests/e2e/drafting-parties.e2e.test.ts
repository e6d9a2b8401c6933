import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldConfig } from '../../src-shared/domain/contract-forms';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { inEachLanguageAndSize, keepScreenshot } from '../support/e2e-views';
import { signInOnPage } from '../support/manage-e2e';

// Issue 29 in the browser edition: with the server stopped, a contract is drafted with a new party
// typed in and a related-contract group searched from this device's contracts, then submitted with
// a comment; back online, it is approved with a comment. The history tab shows both steps with
// who, the comments and when; the new party is a counterparty the counterparty search finds, and
// the contract names it (header, REST). Screens in both languages at 1280×800 and 1440×900.

const templateName = 'E2E parties template';
const partyName = 'Newco Trading E2E';
const fields: FieldConfig[] = [
  { id: 'contractName', name: 'contract name', type: 'text', required: true, maxlength: 200 },
  { id: 'contractNumber', name: 'contract number', type: 'contractNumber' },
  { id: 'counterparty', name: 'counterparty', type: 'inputSelectV2', required: true, partyType: 2 },
  { id: 'amount', name: 'contract amount', type: 'money', fieldConfig: { money: { isWordAmount: true, isWithUnit: true } } },
  { id: 'relatedContracts', name: 'related contracts', type: 'relatedContracts' },
];

let stage: E2eStage;
let page: Page;
let templateId = '';
let contractId = '';
const related: { name: string; contractNumber: string }[] = [];
const screenshot = (name: string) => keepScreenshot(page, name);
const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');

async function asAdmin() {
  const client = createContractServerClient(stage.serverUrl);
  const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
  return { client, token };
}

async function takeStep(action: 'submit' | 'approve', comment: string) {
  await page.getByTestId(`approval-${action}`).click();
  await page.getByTestId('approval-confirm').waitFor();
  await page.getByTestId('approval-comment').fill(comment);
  await page.getByTestId('approval-confirm-button').click();
  await expect.poll(() => page.getByTestId('approval-confirm').count()).toBe(0);
}

/** Picks a contract for a related-contract row by typing part of its number. */
async function pickRelated(tab: Page, row: string, contract: { name: string; contractNumber: string }, relationship: string) {
  await tab.getByRole('textbox', { name: `Contract ${row}` }).fill(contract.contractNumber);
  await tab.getByRole('menu', { name: 'Matching contracts' }).getByText(contract.name, { exact: true }).click();
  await tab.getByRole('combobox', { name: `Relationship ${row}` }).selectOption({ label: relationship });
}

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 12,
    seed: 129,
    core: { syncSoonMs: 100, syncBackoffMs: 300 },
    prepare: async (server) => {
      const client = createContractServerClient(server.url);
      const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
      const seeded = await client.call('templateList', { token, query: { pageNum: 1, pageSize: 20 } });
      const contractTypeId = seeded.list.find((t) => t.contractTypeId !== null)!.contractTypeId;
      templateId = (await client.call('createTemplate', { token, body: { name: templateName, contractTypeId, fields, clauses: [] } })).id;
      const { list } = await client.call('contractList', { token, query: { pageNum: 1, pageSize: 20 } });
      related.push(...list.filter((c) => c.contractNumber !== null).slice(0, 2).map((c) => ({ name: c.name, contractNumber: c.contractNumber! })));
    },
  });
  page = stage.page;
  const { token } = await asAdmin();
  for (const step of ['submit', 'approve']) {
    const response = await fetch(`${stage.serverUrl}/api/v1/templates/${templateId}/${step}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(response.ok).toBe(true);
  }
}, 300_000);

afterAll(() => stage?.close());

describe('parties, related contracts and the approval trail', () => {
  it('signs in and syncs', async () => {
    await signInOnPage(stage, 'admin', 'admin123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('ledger-count-all').innerText(), { timeout: 20_000 }).toBe('12');
  }, 90_000);

  it('drafts offline with a new party, an amount in dollars and a related-contract group, and submits it with a comment', { timeout: 120_000 }, async () => {
    const opened = page.context().waitForEvent('page');
    await page.getByTestId('ledger-create').click();
    const tab = await opened;
    const option = tab.getByTestId('contract-template').locator('option', { hasText: templateName });
    await expect.poll(() => option.count(), { timeout: 20_000 }).toBe(1);
    await stage.stopServer();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
    await tab.getByTestId('contract-template').selectOption((await option.getAttribute('value'))!);
    await tab.getByTestId('contract-draft').waitFor();
    await tab.locator('#contract-form-input-contractName').fill('Chairs with a new party');
    await tab.getByTestId('field-counterparty').getByRole('button', { name: 'New party' }).click();
    await tab.getByRole('textbox', { name: 'Name of the new party' }).fill(partyName);
    await tab.locator('#contract-form-input-amount').fill('100');
    await tab.getByTestId('field-amount').getByRole('combobox').selectOption('USD');
    await expect.poll(() => tab.getByTestId('words-amount').innerText()).toBe('In words: 壹佰美元整');
    await tab.getByRole('button', { name: 'Add a relation group' }).click();
    // Nothing is flagged before the user has done anything with the rows.
    expect(await tab.getByTestId('related-relatedContracts').getByRole('alert').count()).toBe(0);
    await pickRelated(tab, '1.1', related[0]!, 'Main contract');
    await pickRelated(tab, '1.2', related[1]!, 'Supplementary agreement');
    await tab.getByTestId('contract-save').click();
    await tab.waitForURL(/\/standingBook\/detail\?id=/);
    contractId = new URL(tab.url()).searchParams.get('id')!;
    await tab.close();

    await page.goto(`${stage.edition.host.url}/standingBook/detail?contractId=${contractId}&mode=contract`);
    await page.getByTestId('contract-header').waitFor();
    expect(await page.getByTestId('contract-detail-counterparty').innerText()).toBe(partyName);
    // The number in the header is the one in the form.
    const number = await page.getByTestId('contract-detail-number').innerText();
    expect(await page.getByTestId('field-contractNumber').innerText()).toContain(number);
    await takeStep('submit', 'Drafted on the train');
    await page.getByTestId('contract-pending').waitFor();
    await expect.poll(() => queued()).toBe('2');
  });

  it('reaches the server once it is back: the new party is a counterparty the search finds', { timeout: 90_000 }, async () => {
    await stage.startServer();
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
    const { client, token } = await asAdmin();
    const saved = await client.call('contractDetail', { token, params: { id: contractId } });
    expect(saved.status).toBe(2);
    const [party] = saved.formValues.counterparty as [{ id: string; name: string }];
    const listed = await client.call('contractList', { token, query: { q: 'Chairs with a new party', pageNum: 1, pageSize: 5 } });
    expect(listed.list.map((c) => c.counterpartName)).toEqual([partyName]);

    await page.goto(`${stage.edition.host.url}/counterparties`);
    await page.getByTestId('tab-outer').click();
    await page.getByTestId('counterparty-search').fill('Newco');
    await expect.poll(() => page.getByTestId(`counterparty-row-${party.id}`).count(), { timeout: 20_000 }).toBe(1);
    expect(await page.getByTestId(`counterparty-row-${party.id}`).innerText()).toContain(partyName);
  });

  it('approves with a comment; the history shows both steps with who, the comments and when', { timeout: 90_000 }, async () => {
    await page.goto(`${stage.edition.host.url}/standingBook/detail?contractId=${contractId}&mode=contract`);
    await page.getByTestId('contract-header').waitFor();
    await takeStep('approve', 'Terms checked');
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    await expect.poll(() => page.getByTestId('contract-pending').count(), { timeout: 30_000 }).toBe(0);
    await page.getByTestId('contract-tab-HISTORY_TAB').click();
    const entries = page.getByTestId('contract-history-approvals').getByTestId('approval-trail-entry');
    await expect.poll(() => entries.count(), { timeout: 20_000 }).toBe(2);
    expect(await entries.evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.action))).toEqual(['approve', 'submit']);
    expect(await entries.nth(0).innerText()).toContain('Terms checked');
    expect(await entries.nth(1).innerText()).toContain('Drafted on the train');
  });

  it('shows the history and the form in English and Chinese at 1280×800 and 1440×900', { timeout: 120_000 }, async () => {
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await page.goto(`${stage.edition.host.url}/standingBook/detail?contractId=${contractId}&mode=contract&tab=HISTORY_TAB`);
      await page.getByTestId('contract-history-approvals').waitFor();
      await expect.poll(() => page.getByTestId('approval-trail-entry').count()).toBe(2);
      await screenshot(`history-approvals-${width}x${height}-${code}`);
      if (code === 'zh-CN') expect(await page.getByTestId('contract-history-approvals').innerText()).toContain('审批通过');
      await page.getByTestId('contract-tab-BASIC_TAB').click();
      await page.getByTestId('related-relatedContracts').waitFor();
      await screenshot(`basic-parties-${width}x${height}-${code}`);
    });
  });
});
