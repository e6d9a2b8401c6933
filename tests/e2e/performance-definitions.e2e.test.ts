import type { Locator, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterpartyMonitoringResults } from '../../src-server/counterparties/schema';
import { counterparties } from '../../src-server/db/schema';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages, setChecked } from '../support/e2e-views';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';

// Performance definitions and the credit platform switch against the real server (issue 28 items
// 1 and 10): an administrator lists the organisation's performances, creates one with a choice
// column and its options and a required amount column, edits it, deletes an unused one and is told
// why one in use stays; turns the credit platform off and on and sees the external counterparty's
// monitoring dimensions go and come back; offline the list is as last read and a write is refused
// at once; staff read the list only. Both languages at both laptop sizes.

let stage: E2eStage;
let page: Page;
const admin = { username: 'admin', password: 'admin123' };
const alice = { username: 'alice', password: 'alice123' };
const party = { id: '', name: 'Monitored Supplies Ltd' };
const dialog = () => page.getByRole('dialog');
const rows = () => page.getByTestId('definition-row');
const row = (name: string) => rows().filter({ hasText: name });
const columnRows = () => dialog().getByTestId('definition-column');
const toast = () => page.locator('.bp6-toast');

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 12,
    seed: 28,
    seeded: async (db) => {
      const [row] = await db.select({ id: counterparties.id }).from(counterparties).where(eq(counterparties.type, 2)).limit(1);
      party.id = row!.id;
      await db.update(counterparties).set({ name: party.name }).where(eq(counterparties.id, party.id));
      await db.delete(counterpartyMonitoringResults).where(eq(counterpartyMonitoringResults.counterpartyId, party.id));
      await db.insert(counterpartyMonitoringResults).values([
        { id: 'e2e-monitoring-28', counterpartyId: party.id, dimensionName: 'Litigation', info: 'New lawsuit registered', updateTime: new Date('2026-05-11T02:00:00Z') },
      ]);
    },
  });
  page = stage.page;
});

afterAll(() => stage?.close());

async function openDefinitions() {
  await page.getByTestId('nav-performances').click();
  await expect.poll(() => rows().count(), { timeout: 20_000 }).toBeGreaterThan(0);
}

/** Adds a column named `name` of the type labelled `type`; the new row. */
async function addColumn(name: string, type: string): Promise<Locator> {
  await dialog().getByTestId('definition-add-column').click();
  const added = columnRows().last();
  await added.getByRole('textbox', { name: 'Column name' }).fill(name);
  await added.getByRole('combobox', { name: 'Type' }).selectOption({ label: type });
  return added;
}

/** The texts of the table headers and labels of `root`, which hold no data. */
const chrome = (root: Locator) => root.locator('th, label, h2, h4, .bp6-dialog-header, .bp6-button-text, option').allInnerTexts();

describe('performance definitions', () => {
  it('lists the organisation’s performances with their task type in words and a formatted time', { timeout: 90_000 }, async () => {
    await signInOnPage(stage, admin.username, admin.password);
    await openDefinitions();
    const expected = (await onServer(stage, admin, 'performanceList')).performanceList;
    expect(await rows().count()).toBe(expected.length);
    const first = await rows().first().locator('td').allInnerTexts();
    expect(first.slice(0, 4)).toEqual([expected[0]!.name, 'Receivable', String(expected[0]!.columns.length), String(expected[0]!.fields.length)]);
    expect(first[4]).not.toMatch(/T\d\d:/);
    expect(first[4]).toMatch(/\d{4}/);
  });

  it('creates one with a choice column and its options and a required amount column, checked before it is sent', { timeout: 90_000 }, async () => {
    await page.getByTestId('definitions-create').click();
    await expect.poll(() => columnRows().count(), { timeout: 20_000 }).toBeGreaterThan(0);
    // The receivable default form, its names in the user's language.
    expect(await columnRows().getByRole('textbox', { name: 'Column name' }).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual([
      'Performance content',
      'Performance date',
      'Receivable amount',
      'Task leader',
      'Task state',
      'Remark',
    ]);
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().getByText('Please enter the name').count()).toBe(1);
    await page.fill('#definition-name', 'E2E acceptance payment');
    const grade = await addColumn('Acceptance grade', 'Single choice');
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().getByTestId('definition-row-issue').innerText()).toBe('A choice needs at least one option');
    expect(await dialog().count()).toBe(1);
    const options = grade.locator('.bp6-tag-input input');
    for (const option of ['Passed', 'Failed']) {
      await options.fill(option);
      await options.press('Enter');
    }
    const retention = await addColumn('Retention amount', 'Amount');
    await setChecked(retention.getByRole('checkbox', { name: 'Required: Retention amount' }));
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => row('E2E acceptance payment').count()).toBe(1);
    const created = (await onServer(stage, admin, 'performanceList', { query: { q: 'E2E acceptance' } })).performanceList[0]!;
    expect(created.type).toBe('receivable');
    expect(created.columns.find((column) => column.name === 'Acceptance grade')).toMatchObject({ type: 'select', config: { options: [{ name: 'Passed' }, { name: 'Failed' }] } });
    expect(created.columns.find((column) => column.name === 'Retention amount')).toMatchObject({ type: 'money', isRequired: true });
    // Untouched default names stay the defaults (shown in each user's language), not the English shown here.
    expect(created.columns[0]!.name).toBe('performance content');
  });

  it('edits it: renamed, a column moved up and one removed', { timeout: 60_000 }, async () => {
    await row('E2E acceptance payment').getByTestId('definition-edit').click();
    await expect.poll(() => columnRows().count()).toBe(8);
    await page.fill('#definition-name', 'E2E acceptance payments');
    await columnRows().nth(7).getByRole('button', { name: 'Move up' }).click();
    await columnRows().nth(5).getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => row('E2E acceptance payments').count()).toBe(1);
    const edited = (await onServer(stage, admin, 'performanceList', { query: { q: 'E2E acceptance' } })).performanceList[0]!;
    expect(edited.version).toBe(2);
    expect(edited.columns.map((column) => column.name).slice(-2)).toEqual(['Retention amount', 'Acceptance grade']);
    expect(edited.columns.map((column) => column.id)).not.toContain('remark');
  });

  it('deletes an unused one; one in use stays, with the reason', { timeout: 60_000 }, async () => {
    const inUse = (await onServer(stage, admin, 'performanceList', { query: { type: 'receivable' } })).performanceList.find((p) => !p.name.startsWith('E2E'))!;
    await row(inUse.name).getByTestId('definition-delete').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => toast().filter({ hasText: 'The performance is used by sheets or tasks and cannot be deleted.' }).count(), { timeout: 10_000 }).toBe(1);
    expect(await row(inUse.name).count()).toBe(1);

    await row('E2E acceptance payments').getByTestId('definition-delete').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row('E2E acceptance payments').count(), { timeout: 10_000 }).toBe(0);
    expect((await onServer(stage, admin, 'performanceList', { query: { q: 'E2E acceptance' } })).performanceList).toEqual([]);
  });

  it('reads in both languages at both sizes: the list and the editor whole, no raw keys, no English in the Chinese chrome', { timeout: 180_000 }, async () => {
    const viewport = page.viewportSize()!;
    const screen = page.getByTestId('definitions');
    // The last test's toasts (in English) would cover the screens.
    await expect.poll(() => toast().count(), { timeout: 15_000 }).toBe(0);
    await inEachLanguageAndSize(page, async (language, { width, height }) => {
      await keepScreenshot(page, `definitions-${language.code}-${width}x${height}`);
      const table = screen.locator('.manage__table');
      expect(await table.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      await rows().first().getByTestId('definition-edit').click();
      await expect.poll(() => columnRows().count()).toBeGreaterThan(0);
      await keepScreenshot(page, `definition-editor-${language.code}-${width}x${height}`);
      for (const part of [dialog().getByTestId('definition-columns'), dialog().getByTestId('definition-fields')]) {
        expect(await part.evaluate((element) => element.parentElement!.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);
      }
      const texts = [...(await chrome(screen)), ...(await chrome(dialog()))];
      expect(texts.filter((text) => /\b(definitions|manage|organisation)\.\w/.test(text))).toEqual([]);
      if (language.code === 'zh-CN') {
        // Data (the performances' names) is left out: only the screen's own words are checked.
        const names = (await onServer(stage, admin, 'performanceList')).performanceList.map((p) => p.name);
        expect(texts.filter((text) => /[A-Za-z]/.test(text) && !names.includes(text))).toEqual([]);
      }
      await dialog().getByRole('button', { name: language.code === 'en' ? 'Cancel' : '取消' }).click();
      await expect.poll(() => dialog().count()).toBe(0);
    });
    await chooseLanguage(page, uiLanguages[0]);
    await page.setViewportSize(viewport);
  });
});

describe('the credit platform switch', () => {
  const detail = () => page.getByTestId('external-detail');
  const monitoring = () => page.getByTestId('external-detail-monitoring');

  async function openDetail() {
    await page.goto(`${stage.edition.host.url}/manage/oppositeParty/externalDetail?id=${party.id}`);
    await detail().waitFor({ timeout: 20_000 });
  }

  async function turnCreditPlatform(on: boolean) {
    await page.getByTestId('nav-organisation').click();
    const toggle = page.getByTestId('credit-platform-switch');
    await expect.poll(() => toggle.isChecked(), { timeout: 20_000 }).toBe(!on);
    // The switch shows the server's setting: it turns once the write went through (a click, not setChecked).
    await toggle.dispatchEvent('click');
    await expect.poll(async () => (await onServer(stage, admin, 'organisationSettings')).creditPlatformEnabled, { timeout: 10_000 }).toBe(on);
  }

  it('shows the monitoring dimensions while it is on, and not once an administrator turns it off', { timeout: 120_000 }, async () => {
    await openDetail();
    await expect.poll(() => monitoring().getByTestId('monitoring-row').innerText(), { timeout: 20_000 }).toContain('New lawsuit registered');
    await monitoring().scrollIntoViewIfNeeded();
    await keepScreenshot(page, 'external-detail-monitoring-en');
    await turnCreditPlatform(false);
    await keepScreenshot(page, 'organisation-settings-en');
    await openDetail();
    await expect.poll(() => detail().getByText('Basic information').count()).toBe(1);
    await expect.poll(() => monitoring().count()).toBe(0);
    await turnCreditPlatform(true);
    await openDetail();
    await expect.poll(() => monitoring().getByTestId('monitoring-row').count(), { timeout: 20_000 }).toBe(1);
  });
});

describe('offline and for staff', () => {
  it('offline: the list as last read with its time; a new performance and the switch are refused at once', { timeout: 90_000 }, async () => {
    await page.getByTestId('nav-performances').click();
    await expect.poll(() => rows().count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const count = await rows().count();
    await stage.stopServer();
    await untilOffline(page);
    await page.getByTestId('nav-ledger').click();
    await page.getByTestId('nav-performances').click();
    await expect.poll(() => page.getByTestId('as-of-note').innerText(), { timeout: 20_000 }).toMatch(/^Offline: as last read on .*\d/);
    expect(await rows().count()).toBe(count);

    await page.getByTestId('definitions-create').click();
    await expect.poll(() => columnRows().count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.fill('#definition-name', 'Never written');
    const clicked = Date.now();
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().getByTestId('dialog-failure').innerText(), { timeout: 2_000 }).toContain('cannot be reached now');
    expect(Date.now() - clicked).toBeLessThan(2_000);
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await page.getByTestId('nav-organisation').click();
    const toggle = page.getByTestId('credit-platform-switch');
    await expect.poll(() => toggle.isChecked(), { timeout: 20_000 }).toBe(true);
    await toggle.dispatchEvent('click');
    await expect.poll(() => toast().filter({ hasText: 'cannot be reached now' }).count(), { timeout: 2_000 }).toBeGreaterThan(0);
    await stage.startServer();
    expect((await onServer(stage, admin, 'performanceList', { query: { q: 'Never written' } })).performanceList).toEqual([]);
    expect((await onServer(stage, admin, 'organisationSettings')).creditPlatformEnabled).toBe(true);
  });

  it('shows staff the list read-only and the switch as it is', { timeout: 90_000 }, async () => {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('sign-out').click();
    await signInOnPage(stage, alice.username, alice.password);
    await openDefinitions();
    expect(await page.getByTestId('definitions-read-only').count()).toBe(1);
    expect(await page.getByTestId('definitions-create').count()).toBe(0);
    expect(await page.getByTestId('definition-edit').count()).toBe(0);
    await page.getByTestId('nav-organisation').click();
    await expect.poll(() => page.getByTestId('credit-platform-switch').isDisabled(), { timeout: 20_000 }).toBe(true);
  });
});
