import { setChecked } from '../support/e2e-views';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';

// Numbering settings against the real server (issue 15): the template rule with its live preview
// of the next number, the form's own messages, saving; an abbreviation with the server's
// character rule; the number editors saved by an administrator and only read by staff; offline,
// the rules as last read with their time.

let stage: E2eStage;
let page: Page;
const admin = { username: 'admin', password: 'admin123' };
const alice = { username: 'alice', password: 'alice123' };
const templateRules = () => page.getByTestId('rules-template');
const preview = () => templateRules().getByTestId('rule-preview').first();
const dialog = () => page.getByRole('dialog');

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 10, seed: 16 });
  page = stage.page;
});

afterAll(() => stage?.close());

async function setNumber(label: string, value: string) {
  const input = templateRules().getByRole('spinbutton', { name: label }).first();
  await input.fill(value);
}

describe('numbering settings', () => {
  it('shows the template rule and previews the next number live as it is edited', { timeout: 90_000 }, async () => {
    await signInOnPage(stage, admin.username, admin.password);
    await page.getByTestId('nav-numbering').click();
    await page.getByRole('tab', { name: 'Template numbers' }).click();
    // The seeded templates took MB-001 to MB-008: the rule as saved gives MB-009 next, and the
    // editor says the same as the saved rule's preview below it (issue 29).
    await expect.poll(() => preview().innerText(), { timeout: 20_000 }).toBe('MB-009');
    await expect.poll(() => page.getByTestId('saved-preview').first().innerText()).toContain('MB-009');
    await setNumber('Digits', '5');
    await expect.poll(() => preview().innerText()).toBe('MB-00009');
    await setChecked(templateRules().locator('input[type=checkbox]').first());
    await expect.poll(() => preview().innerText()).toBe('MB-9');
    // An edited rule keeps its counter: a new start number does not restart it.
    await setNumber('Start number', '7');
    await expect.poll(() => preview().innerText()).toBe('MB-9');
    expect(await templateRules().getByRole('combobox', { name: 'Reset cycle' }).locator('option').allInnerTexts()).toEqual([
      'Do not reset',
      'Reset every day',
      'Reset every week',
      'Reset every month',
      'Reset every year',
    ]);
  });

  it('checks the digits before saving, then saves the rule', async () => {
    await setNumber('Digits', '12');
    await page.getByTestId('save-rules-template').click();
    await expect.poll(() => page.getByTestId('rules-failure-template').innerText()).toBe('The digits must be a whole number from 1 to 9');
    await setNumber('Digits', '5');
    await templateRules().getByRole('combobox', { name: 'Reset cycle' }).selectOption({ label: 'Reset every month' });
    await page.getByTestId('save-rules-template').click();
    await expect.poll(async () => (await onServer(stage, admin, 'templateNumberRules')).list.find((rule) => rule.inUse)).toMatchObject({
      digits: 5,
      isNatural: true,
      startNumber: 7,
      resetCycle: 3,
    });
  });

  it('edits the abbreviation: the server’s character rule, then the new prefix in the preview', { timeout: 60_000 }, async () => {
    const row = page.getByTestId('abbr-template').getByTestId('abbr-row').first();
    await row.getByRole('button', { name: 'Edit' }).click();
    await page.fill('#abbr-text', 'MB!');
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().getByText('Letters, digits, - and _ only').count()).toBe(1);
    await page.fill('#abbr-text', 'TPL');
    await page.selectOption('#abbr-date', { label: 'Year' });
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().count()).toBe(0);
    await expect.poll(() => row.innerText()).toContain('TPL');
    // Reset monthly now: this month has no counter yet, so the rule restarts at its restart number
    // (1), as the allocator and the saved rule's preview say.
    await expect.poll(() => preview().innerText()).toMatch(/^TPL-20\d\d-1$/);
    await expect.poll(() => page.getByTestId('saved-preview').first().innerText()).toMatch(/TPL-20\d\d-1$/);
    expect((await onServer(stage, admin, 'templateNumberAbbrSettings')).list).toEqual([expect.objectContaining({ abbr: 'TPL', dateFormat: 3 })]);
  });

  it('saves the contract-number editors as an administrator', async () => {
    await page.getByRole('tab', { name: 'Number editors and departments' }).click();
    const choice = page.getByTestId('number-editors').getByText('Alice', { exact: false }).first();
    await choice.click();
    await page.getByTestId('save-editors').click();
    const me = await onServer(stage, alice, 'me');
    await expect.poll(async () => (await onServer(stage, admin, 'contractNumberEditors')).editors).toContain(me.id);
  });

  it('shows staff the rules and the editors read-only, and offline as last read with the time', { timeout: 90_000 }, async () => {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('sign-out').click();
    await signInOnPage(stage, alice.username, alice.password);
    await page.getByTestId('nav-numbering').click();
    await expect.poll(() => page.getByTestId('rules-contract').getByTestId('numbering-rule').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('save-rules-contract').count()).toBe(0);
    expect(await page.getByTestId('add-abbr-contract').count()).toBe(0);
    await page.getByRole('tab', { name: 'Number editors and departments' }).click();
    await expect.poll(() => page.getByTestId('editor-list').innerText()).toMatch(/Alice/i);
    expect(await page.getByTestId('save-editors').count()).toBe(0);

    await page.getByRole('tab', { name: 'Contract numbers' }).click();
    await stage.stopServer();
    await untilOffline(page);
    await page.getByTestId('nav-ledger').click();
    await page.getByTestId('nav-numbering').click();
    await expect.poll(() => page.getByTestId('as-of-note').first().innerText(), { timeout: 20_000 }).toMatch(/^Offline: as last read on .*\d/);
    expect(await page.getByTestId('rules-contract').getByTestId('numbering-rule').count()).toBeGreaterThan(0);
    // Once for the screen, not once per read (issue 31): the rules, abbreviations and preview share one note.
    await page.getByTestId('saved-preview').first().waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('as-of-note').count()).toBe(1);
    await page.getByRole('tab', { name: 'Number editors and departments' }).click();
    await expect.poll(() => page.getByTestId('editor-list').innerText()).toMatch(/Alice/i);
    expect(await page.getByTestId('as-of-note').count()).toBe(1);
    await stage.startServer();
  });
});
