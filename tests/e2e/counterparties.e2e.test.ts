import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, counterparties } from '../../src-server/db/schema';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { onServer, submitSignIn } from '../support/manage-e2e';
import { cellsOnMoreThanOneLine, chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages } from '../support/e2e-views';

// The counterparty screens against the real server (issue 15): the lists with the spec's columns,
// search and paging; create and edit with the spec's messages; the external detail in a new window;
// offline, the lists and the detail as last read with their time, and every write refused at once.

let stage: E2eStage;
let page: Page;
/** A seeded outer party given a bank and a rating, so its detail has something to show. */
const outer = { id: '', name: 'Harbour Logistics Ltd' };
/** A seeded contract with that party, renamed so the ledger shows it in Latin letters. */
const contract = { id: '', name: 'Harbour freight 2026' };
const created = 'Riverside Paper Co';
const admin = { username: 'admin', password: 'admin123' };

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 12,
    seed: 15,
    seeded: async (db) => {
      const [row] = await db
        .select({ id: counterparties.id, contractId: contracts.id })
        .from(contracts)
        .innerJoin(counterparties, eq(counterparties.id, contracts.counterpartyId))
        .where(eq(counterparties.type, 2))
        .limit(1);
      outer.id = row!.id;
      contract.id = row!.contractId;
      await db.update(contracts).set({ name: contract.name }).where(eq(contracts.id, contract.id));
      await db
        .update(counterparties)
        .set({ name: outer.name, rating: 40, ratingRemark: 'Late payments in 2025' })
        .where(eq(counterparties.id, outer.id));
    },
  });
  page = stage.page;
});

afterAll(() => stage?.close());

const dialog = () => page.getByRole('dialog');
const table = () => page.getByTestId('counterparty-table');

async function search(q: string) {
  await page.getByTestId('counterparty-search').fill(q);
}

describe('counterparties in the browser edition', () => {
  it('opens from the navigation with the inner list and its columns', { timeout: 60_000 }, async () => {
    await submitSignIn(stage, 'admin', 'admin123');
    await page.getByTestId('nav-counterparties').click();
    await table().waitFor({ timeout: 20_000 });
    const headers = await table().locator('th').allInnerTexts();
    expect(headers).toEqual(['Name', 'ID number / credit code', 'Address', 'Bank', 'Account', 'Updater', 'Update time', 'Actions']);
  });

  it('lists outer parties with the cooperation columns, searched and paged', { timeout: 60_000 }, async () => {
    await page.getByTestId('tab-outer').click();
    await expect.poll(() => table().locator('th').allInnerTexts(), { timeout: 20_000 }).toEqual([
      'Name', 'Rating', 'Risk count', 'ID number / credit code', 'Address', 'Bank', 'Account', 'Updater', 'Update time',
      'Cooperation count', 'Total amount', 'Average score', 'Actions',
    ]);
    await search('Harbour');
    await expect.poll(() => table().locator('tbody tr').count(), { timeout: 20_000 }).toBe(1);
    const row = page.getByTestId(`counterparty-row-${outer.id}`);
    expect(await row.innerText()).toContain('Blacklisted');
    await search('');
    await expect.poll(() => page.getByTestId('pager-total').innerText(), { timeout: 20_000 }).toMatch(/\d+/);
  });

  it('keeps codes, accounts, times and headers on one line, the name and the action in view, in both languages', { timeout: 90_000 }, async () => {
    await search('');
    await expect.poll(() => table().locator('tbody tr').count(), { timeout: 20_000 }).toBeGreaterThan(5);
    const viewport = page.viewportSize()!;
    await inEachLanguageAndSize(page, async (language, { width, height }) => {
      await keepScreenshot(page, `counterparties-outer-${language.code}-${width}x${height}`);
      expect(await cellsOnMoreThanOneLine(table(), 'th, td.counterparty-table__whole')).toEqual([]);
      const layout = await table().evaluate((element) => {
        // Scrolled to the last column, the name still heads each row and the action ends it.
        const scroller = element.parentElement!;
        scroller.scrollLeft = scroller.scrollWidth;
        const row = element.querySelector('tbody tr')!;
        const box = (selector: string) => row.querySelector(selector)!.getBoundingClientRect();
        const layout = { left: scroller.getBoundingClientRect().left, name: box('.counterparty-table__name').left, action: box('.counterparty-table__actions').right };
        scroller.scrollLeft = 0;
        return layout;
      });
      expect(Math.round(layout.name)).toBe(Math.round(layout.left));
      expect(layout.action).toBeLessThanOrEqual(width);
    });
    await chooseLanguage(page, uiLanguages[0]);
    await page.setViewportSize(viewport);
  });

  it('creates a party: the name and bank-account messages on blur, then saved', { timeout: 60_000 }, async () => {
    await page.getByTestId('counterparty-create').click();
    await page.getByTestId('party-name').focus();
    await page.getByTestId('party-name').blur();
    await expect.poll(() => dialog().getByText('Please enter the name').count()).toBe(1);
    expect(await page.getByTestId('party-save').isDisabled()).toBe(true);
    await page.getByTestId('party-name').fill(created);
    await page.getByTestId('party-add-bank').click();
    await page.getByTestId('party-bank-0-name').fill('Bank of Ningbo');
    await page.getByTestId('party-bank-0-accountName').fill(created);
    await page.getByTestId('party-bank-0-account').fill('12345');
    await page.getByTestId('party-bank-0-account').blur();
    await expect.poll(() => dialog().getByText('Please enter 9-24 characters').count()).toBe(1);
    await page.getByTestId('party-bank-0-account').fill('12345 678!');
    await page.getByTestId('party-bank-0-account').blur();
    await expect.poll(() => dialog().getByText('Please enter 9-24 characters').count()).toBe(1);
    expect(await page.getByTestId('party-save').isDisabled()).toBe(true);
    await page.getByTestId('party-bank-0-account').fill('ACC-2024_0001');
    await expect.poll(() => dialog().getByText('Please enter 9-24 characters').count()).toBe(0);
    await page.getByTestId('party-save').click();
    await expect.poll(() => dialog().count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => page.getByText('Operation successful!').count()).toBeGreaterThan(0);
    await search('Riverside');
    await expect.poll(() => table().locator('tbody tr').innerText(), { timeout: 20_000 }).toContain('ACC-2024_0001');
  });

  it('edits the party', { timeout: 60_000 }, async () => {
    await table().getByTestId('counterparty-edit').click();
    await expect.poll(() => page.getByTestId('party-name').inputValue(), { timeout: 20_000 }).toBe(created);
    await page.getByTestId('party-address').fill('12 Quay Road, Ningbo');
    await page.getByTestId('party-save').click();
    await expect.poll(() => dialog().count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => table().locator('tbody tr').innerText(), { timeout: 20_000 }).toContain('12 Quay Road, Ningbo');
  });

  it('opens the external detail in a new window with its rating label and remark', { timeout: 60_000 }, async () => {
    await search('Harbour');
    const link = page.getByTestId(`counterparty-row-${outer.id}`).getByRole('link');
    await link.waitFor({ timeout: 20_000 });
    const [detail] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    expect(detail.url()).toContain(`/manage/oppositeParty/externalDetail?id=${outer.id}`);
    await detail.getByTestId('external-detail').waitFor({ timeout: 20_000 });
    expect(await detail.getByTestId('external-detail-rating').innerText()).toBe('Blacklisted');
    expect(await detail.getByTestId('external-detail-rating-remark').innerText()).toContain('Late payments in 2025');
    expect(await detail.getByTestId('external-detail-basic').innerText()).toContain(outer.name);
    await detail.close();
  });

  it('scores the contract from the ledger (800 px, the form’s dialog) and the average score follows', { timeout: 60_000 }, async () => {
    await page.getByTestId('nav-ledger').click();
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    const row = page.locator('[data-testid=ledger-row]', { hasText: contract.name });
    await row.waitFor({ timeout: 20_000 });
    await row.getByTestId('ledger-score').click();
    const inputs = dialog().locator('input[id^=score-]');
    await expect.poll(() => inputs.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => dialog().evaluate((element) => element.getBoundingClientRect().width)).toBe(800);
    await inputs.first().fill('999');
    await inputs.first().blur();
    await expect.poll(() => dialog().getByText('The score cannot be greater than the full score').count()).toBe(1);
    await inputs.first().fill('');
    await inputs.first().blur();
    await expect.poll(() => dialog().getByText('This field cannot be empty').count()).toBe(1);
    for (let at = 0; at < (await inputs.count()); at += 1) await inputs.nth(at).fill('0');
    await dialog().getByPlaceholder(/please enter score explanation/i).fill('Scored from the ledger');
    await dialog().getByRole('button', { name: /confirm/i }).click();
    await expect.poll(() => dialog().count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => page.getByText(/operation successful/i).count()).toBeGreaterThan(0);

    await page.getByTestId('nav-counterparties').click();
    await page.getByTestId('tab-outer').click();
    await search('Harbour');
    await expect.poll(() => page.getByTestId(`counterparty-row-${outer.id}`).locator('td').nth(11).innerText(), { timeout: 20_000 }).toBe('0.0');
  });

  it('shows the cooperation figures on the detail and scores a contract from it; the figures follow', { timeout: 90_000 }, async () => {
    await search('Harbour');
    const link = page.getByTestId(`counterparty-row-${outer.id}`).getByRole('link');
    await link.waitFor({ timeout: 20_000 });
    const [detail] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await detail.getByTestId('external-detail').waitFor({ timeout: 20_000 });
    const expected = await onServer(stage, admin, 'counterpartExternalDetail', { params: { id: outer.id } });
    const figures = detail.getByTestId('external-detail-cooperation');
    expect(await figures.innerText()).toMatch(new RegExp(`Cooperation count\\s+${expected.cooperationCount}\\b`));
    expect(await figures.innerText()).toMatch(/Average score\s+0\.0/);
    expect(await figures.innerText()).toMatch(/Rating\s+Blacklisted/);
    expect(await figures.innerText()).toMatch(new RegExp(`Risk count\\s+${expected.riskCount}\\b`));
    expect(await detail.getByTestId('external-detail-contract').count()).toBe(expected.cooperationContracts.length);

    const row = detail.getByTestId('external-detail-contract').filter({ hasText: contract.name });
    await row.getByTestId('external-detail-score').click();
    const scoreDialog = detail.getByRole('dialog');
    const inputs = scoreDialog.locator('input[id^=score-]');
    await expect.poll(() => inputs.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => scoreDialog.evaluate((element) => element.getBoundingClientRect().width)).toBe(800);
    const scored = await onServer(stage, admin, 'scoreDetail', { params: { id: contract.id } });
    const criteria = scored.resultItems.flatMap((group) => group.children);
    for (const criterion of criteria) await scoreDialog.locator(`#score-${criterion.id}`).fill(String(criterion.maxScore));
    await scoreDialog.getByRole('button', { name: /confirm/i }).click();
    await expect.poll(() => scoreDialog.count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => detail.getByText(/operation successful/i).count()).toBeGreaterThan(0);
    // Full marks on the contract: its score and the party's average are 100.
    await expect.poll(async () => (await onServer(stage, admin, 'counterpartExternalDetail', { params: { id: outer.id } })).averageScore).toBe(100);
    await expect.poll(() => figures.innerText(), { timeout: 20_000 }).toMatch(/Average score\s+100\.0/);
    expect(await row.innerText()).toContain('100.0');
    await detail.close();
  });

  it('offline: the lists and the detail as last read with their time; every write refused at once', { timeout: 90_000 }, async () => {
    await stage.stopServer();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
    await page.getByTestId('tab-inner').click();
    await page.getByTestId('tab-outer').click();
    await search('Riverside');
    await expect.poll(() => page.getByTestId('counterparties-as-of').innerText(), { timeout: 20_000 }).toMatch(/Offline: as last read on/);
    expect(await table().locator('tbody tr').innerText()).toContain('12 Quay Road, Ningbo');

    await table().getByTestId('counterparty-edit').click();
    await expect.poll(() => page.getByTestId('party-name').inputValue(), { timeout: 20_000 }).toBe(created);
    await page.getByTestId('party-address').fill('Written on a plane');
    const started = Date.now();
    await page.getByTestId('party-save').click();
    await page.getByTestId('party-save-failure').waitFor({ timeout: 5_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await page.getByTestId('party-save-failure').innerText()).toMatch(/needs the contract server/);
    expect(await page.getByTestId('party-save').getAttribute('class')).not.toContain('bp6-loading');
    await page.keyboard.press('Escape');

    await page.goto(`${stage.edition.host.url}/manage/oppositeParty/externalDetail?id=${outer.id}`);
    await expect.poll(() => page.getByTestId('external-detail-as-of').innerText(), { timeout: 20_000 }).toMatch(/Offline: as last read on/);
    expect(await page.getByTestId('external-detail-rating').innerText()).toBe('Blacklisted');
    await stage.startServer();
  });
});
