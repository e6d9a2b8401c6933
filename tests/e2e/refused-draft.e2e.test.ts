import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/core';
import { onServer, signInOnPage } from '../support/manage-e2e';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages } from '../support/e2e-views';

// Issue 30 item 5 in the browser edition against a real server: a staff member drafts a blank
// contract with a number the server finds duplicated (another department's contract, which her
// replica does not hold, so the core cannot know). The server refuses it at sync; the draft stays
// hers: the contract page says why in her language, the form shows the reason on the number field,
// she corrects the number and saves, and it reaches the server once, nothing left queued or refused.
// The refused draft's page and form, and the sync panel, in both languages at both laptop sizes.

const alice = { username: 'alice', password: 'alice123' };
const admin = { username: 'admin', password: 'admin123' };
const contractName = 'Refused then corrected';
const correctedNumber = 'E2E-CORRECTED-0001';
let stage: E2eStage;
let page: Page;
let takenNumber = '';

const input = (id: string) => page.locator(`#contract-form-input-${id}`);
const details = () => page.getByTestId('sync-details');
const screenshot = (name: string) => keepScreenshot(page, name);

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 30, seed: 31, core: { syncSoonMs: 100, syncBackoffMs: 300 } });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
}, 240_000);

afterAll(() => stage?.close());

describe('a draft the server refuses', () => {
  it('is refused at sync for a number only the server knows, and stays the user’s with why', async () => {
    await signInOnPage(stage, alice.username, alice.password);
    await expect.poll(() => details().getAttribute('data-queued'), { timeout: 30_000 }).toBe('0');
    await expect.poll(async () => (await call(stage.core, 'drafting.catalogue', {})).refreshedAt, { timeout: 30_000 }).not.toBeNull();
    const all = (await onServer(stage, admin, 'contractList', { query: { pageNum: '1', pageSize: '100' } })).list;
    const hers = new Set((await onServer(stage, alice, 'contractList', { query: { pageNum: '1', pageSize: '100' } })).list.map((c) => c.id));
    takenNumber = all.find((c) => !hers.has(c.id) && c.contractNumber !== null)!.contractNumber!;

    await page.goto(`${stage.edition.host.url}/standingBook/create?mode=contract`);
    const chooser = page.getByTestId('contract-template');
    await expect.poll(() => chooser.locator('option[value="blank"]').count(), { timeout: 20_000 }).toBe(1);
    await chooser.selectOption('blank');
    await page.getByTestId('contract-name').fill(contractName);
    await input('contractNumber').fill(takenNumber);
    await page.getByTestId('contract-save').click();
    await page.waitForURL(/\/standingBook\/detail\?id=/);

    await expect.poll(() => details().getAttribute('data-problems'), { timeout: 30_000 }).toBe('1');
    const refusal = page.getByTestId('contract-refusal');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain(`This number duplicates the following contract numbers: ${takenNumber}.`);
    // Nothing waits: the header says no 'waiting to sync', the queue is empty.
    expect(await details().getAttribute('data-queued')).toBe('0');
    expect(await page.getByTestId('contract-pending').count()).toBe(0);
    expect(await page.getByTestId('contract-detail-name').innerText()).toBe(contractName);
  }, 120_000);

  it('shows the refusal on the page, in the form and in the sync panel, in both languages at both sizes', async () => {
    const draftUrl = page.url();
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await page.goto(draftUrl);
      await page.getByTestId('contract-refusal').waitFor();
      await screenshot(`refused-draft-page-${code}-${width}x${height}`);
      await page.getByTestId('contract-edit').click();
      const numberField = page.getByTestId('field-contractNumber');
      await expect.poll(() => numberField.innerText()).toContain(code === 'en' ? 'This number duplicates' : '此编号与以下合同编号重复');
      await numberField.scrollIntoViewIfNeeded();
      await screenshot(`refused-draft-form-${code}-${width}x${height}`);
      await page.getByTestId('contract-cancel').click();
      await details().click();
      const problem = page.getByTestId('sync-problem');
      await problem.waitFor();
      const text = await problem.innerText();
      expect(text).not.toMatch(/form:|formValues|\{"/);
      expect(text).toContain(code === 'en' ? 'Open and correct' : '打开并修改');
      await screenshot(`refused-draft-panel-${code}-${width}x${height}`);
      await page.keyboard.press('Escape');
    });
    await chooseLanguage(page, uiLanguages[0]);
    await page.goto(draftUrl);
  }, 180_000);

  it('is corrected in the form and re-sent: one contract on the server, nothing stuck', async () => {
    await details().click();
    await page.getByTestId('sync-problem-open').click();
    await page.getByTestId('contract-refusal').waitFor();
    await page.getByTestId('contract-edit').click();
    await input('contractNumber').fill(correctedNumber);
    expect(await page.getByTestId('field-contractNumber').innerText()).not.toContain('This number duplicates');
    await page.getByTestId('contract-save').click();

    await expect.poll(() => details().getAttribute('data-problems'), { timeout: 30_000 }).toBe('0');
    await expect.poll(() => details().getAttribute('data-queued'), { timeout: 30_000 }).toBe('0');
    await expect.poll(() => page.getByTestId('contract-refusal').count(), { timeout: 20_000 }).toBe(0);
    const listed = (await onServer(stage, alice, 'contractList', { query: { pageNum: '1', pageSize: '10', q: contractName } })).list;
    expect(listed.map((c) => [c.name, c.contractNumber])).toEqual([[contractName, correctedNumber]]);
    const taken = (await onServer(stage, admin, 'contractList', { query: { pageNum: '1', pageSize: '10', q: takenNumber } })).list;
    expect(taken.filter((c) => c.contractNumber === takenNumber)).toHaveLength(1);
    expect(await page.getByTestId('contract-detail-number').innerText()).toBe(correctedNumber);
  }, 90_000);
});
