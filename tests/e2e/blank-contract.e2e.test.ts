import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDay } from '../../src-renderer/i18n/format';
import { call } from '../support/core';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages } from '../support/e2e-views';

// Issue 29 item 3 in the browser edition: 'New contract' without a template opens the built-in
// blank form. A staff member (no number editor) drafts one with the server stopped, every basic
// field filled through the form: the number field is locked and previews the rule of the chosen
// type (not every rule); the draft shows that number at once, with its counterparty and amount.
// With the server back it syncs, and REST and the ledger show its counterparty, amount and number.
// The form in both languages at both laptop sizes.

const alice = { username: 'alice', password: 'alice123' };
const contractName = 'Blank consulting contract';
const typeName = '咨询服务合同';
let stage: E2eStage;
let page: Page;
let expectedNumber = '';
let partyName = '';
let personName = '';
let departmentName = '';

const field = (id: string) => page.getByTestId(`field-${id}`);
const input = (id: string) => page.locator(`#contract-form-input-${id}`);
const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');
const screenshot = (name: string) => keepScreenshot(page, name);

/** /standingBook/create with the blank contract chosen. */
async function openBlankForm() {
  await page.goto(`${stage.edition.host.url}/standingBook/create?mode=contract`);
  const chooser = page.getByTestId('contract-template');
  await expect.poll(() => chooser.locator('option[value="blank"]').count(), { timeout: 20_000 }).toBe(1);
  await chooser.selectOption('blank');
  await page.getByTestId('contract-draft').waitFor();
}

/** Picks `name` in a search-and-choose field (party, people, department) by typing part of it. */
async function pick(id: string, name: string) {
  await input(id).fill(name.slice(0, 2));
  // By the item's own text: a department's item also names its parent department.
  await field(id).locator('.bp6-menu-item .bp6-fill').filter({ hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).first().click();
}

async function typeDay(id: string, day: string) {
  await page.locator(`#${id}`).fill(formatDay(day, 'en'));
  await page.locator(`#${id}`).press('Enter');
}

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 20, seed: 29, core: { syncSoonMs: 100, syncBackoffMs: 300 } });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
}, 240_000);

afterAll(() => stage?.close());

describe('the blank contract', () => {
  it('signs in as a staff member and syncs the catalogue, the counterparties and the directory', async () => {
    await signInOnPage(stage, alice.username, alice.password);
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    await expect.poll(async () => (await call(stage.core, 'drafting.catalogue', {})).refreshedAt, { timeout: 30_000 }).not.toBeNull();
    const catalogue = await call(stage.core, 'drafting.catalogue', {});
    const type = catalogue.contractTypes.find((candidate) => candidate.name === typeName)!;
    expectedNumber = (await onServer(stage, alice, 'contractNumberAutoPreview', { query: { contractTypeID: type.id } })).list[0]!.format;
    partyName = (await call(stage.core, 'drafting.searchParties', { keyword: '', partyType: 2, pageNum: 1, pageSize: 5 })).list[0]!.name;
    // Read once online: the people and department pickers have it offline.
    const directory = await call(stage.core, 'directory.get', {});
    const person = directory.users.find((user) => user.department !== null)!;
    personName = person.name;
    departmentName = person.department!.name;
  }, 120_000);

  it('drafts offline on the built-in form, numbered by the chosen type’s rule', async () => {
    await openBlankForm();
    await stage.stopServer();
    await untilOffline(page);
    await page.getByTestId('contract-name').fill(contractName);
    // No type yet: no rule applies, so the number could be typed.
    expect(await input('contractNumber').isDisabled()).toBe(false);
    await input('contractType').selectOption({ label: typeName });
    await expect.poll(() => input('contractNumber').getAttribute('placeholder')).toBe(`Numbered automatically: ${expectedNumber}`);
    expect(await input('contractNumber').isDisabled()).toBe(true);
    // A number locked to a staff member has no single-number check to ask for it.
    expect(await field('contractNumber').getByRole('button', { name: 'Check duplicates' }).count()).toBe(0);
    await field('contractNumber').getByRole('button', { name: 'Auto-numbering rules' }).click();
    const rule = page.getByTestId('contract-number-rule');
    await rule.waitFor();
    expect(await rule.innerText()).toContain(`The rule of contract type ${typeName}`);
    expect(await rule.innerText()).toContain(expectedNumber);
    // Measured once the popover's opening animation (a scale from 0.3) has ended.
    await expect.poll(async () => (await rule.boundingBox())?.width).toBe(400);
    await screenshot('blank-contract-number-rule-1280x800-en');
    await page.keyboard.press('Escape');

    await pick('counterparty', partyName);
    await input('amount').fill('12345.67');
    await field('amount').getByLabel('Currency').selectOption('USD');
    await typeDay('contract-form-input-signDate', '2026-11-20');
    await typeDay('contract-form-input-period', '2026-12-01');
    await typeDay('contract-form-input-period-end', '2027-11-30');
    await pick('responsiblePerson', personName);
    await pick('department', departmentName);
    await screenshot('blank-contract-form-offline-1280x800-en');
    await page.getByTestId('contract-save').click();

    await page.waitForURL(/\/standingBook\/detail\?id=/);
    expect(await page.getByTestId('contract-detail-name').innerText()).toBe(contractName);
    expect(await page.getByTestId('contract-detail-number').innerText()).toBe(expectedNumber);
    await page.getByTestId('contract-number-provisional').waitFor();
    expect(await page.getByTestId('contract-detail-counterparty').innerText()).toBe(partyName);
    expect(await page.getByTestId('contract-detail-amount').innerText()).toContain('12,345.67');
    expect(await page.getByTestId('contract-detail-signDate').innerText()).not.toBe('--');
    await expect.poll(() => queued()).toBe('1');
    await screenshot('blank-contract-detail-offline-1280x800-en');
  }, 120_000);

  it('syncs once the server is back: REST and the ledger show its counterparty, amount and number', async () => {
    await stage.startServer();
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
    await expect.poll(() => page.getByTestId('contract-number-provisional').count(), { timeout: 20_000 }).toBe(0);
    const listed = (await onServer(stage, alice, 'contractList', { query: { pageNum: '1', pageSize: '5', q: contractName } })).list;
    expect(listed).toEqual([
      expect.objectContaining({ name: contractName, contractNumber: expectedNumber, counterpartName: partyName, amount: { amount: 1_234_567, unit: 'USD' }, contractTypeName: typeName, signDate: '2026-11-20' }),
    ]);
    const detail = await onServer(stage, alice, 'contractDetail', { params: { id: listed[0]!.id } });
    expect(detail).toMatchObject({ templateId: null, formValues: { period: ['2026/12/01', '2027/11/30'], responsiblePerson: { name: personName }, department: { name: departmentName } } });

    await page.goto(stage.edition.host.url);
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    const row = page.getByTestId('ledger-row').filter({ hasText: contractName });
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    const text = await row.innerText();
    for (const shown of [expectedNumber, partyName, '12,345.67']) expect(text).toContain(shown);
  }, 90_000);

  it('shows the blank form in English and Chinese at 1280×800 and 1440×900', async () => {
    const labels: Record<string, string[]> = {
      en: ['Contract type', 'Contract number', 'Counterparty', 'Contract amount', 'Signing date', 'Contract period', 'Responsible person', 'Department', 'Attachments'],
      'zh-CN': ['合同类型', '合同编号', '相对方', '合同金额', '签订日期', '合同期限', '负责人', '所属部门', '合同附件'],
    };
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await openBlankForm();
      await input('contractType').selectOption({ label: typeName });
      const form = await page.getByTestId('contract-form').innerText();
      for (const label of labels[code]!) expect(form).toContain(label);
      await expect.poll(() => input('contractNumber').getAttribute('placeholder')).toContain(expectedNumber);
      await screenshot(`blank-contract-form-${width}x${height}-${code}`);
    });
    await chooseLanguage(page, uiLanguages[0]);
  }, 180_000);
});
