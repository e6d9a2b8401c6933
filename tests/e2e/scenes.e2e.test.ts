import ExcelJS from 'exceljs';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, sceneColumnTexts, uiLanguages } from '../support/e2e-views';

// The ledger's scenes in the browser edition against the real server (issue 14): a scene made,
// made the default and another deleted while the server is down; after it is back, the server
// holds exactly what the screen showed. Filtering by a select field and sorting by a column; a
// sort kept in a scene with the server down (journey 3 step 1), still the scene's after a reload
// and after signing out and in, and the server's once it is back.

let stage: E2eStage;
let page: Page;

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 40, seed: 11 });
  page = stage.page;
});

afterAll(() => stage?.close());
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') await keepScreenshot(page, `failed-${task.name.slice(0, 40)}`);
});

/** The tabs' scene names, without the 'waiting to sync' tag of a scene edited offline. */
const tabNames = async () => (await page.locator('[role=tab][data-testid^="scene-tab-"]').allInnerTexts()).map((text) => text.split('\n')[0]!.trim());

async function signIn() {
  await page.fill('#signin-username', 'alice');
  await page.fill('#signin-password', 'alice123');
  await page.getByTestId('signin-submit').click();
}

async function serverScenes() {
  const client = createContractServerClient(stage.serverUrl);
  const { token } = await client.call('login', { body: { username: 'alice', password: 'alice123' } });
  return client.call('ledgerScenes', { token });
}

describe('ledger scenes in the browser edition', () => {
  it('opens on the default scene with its rows', async () => {
    await page.goto(stage.edition.host.url);
    await signIn();
    await page.getByTestId('scene-row').first().waitFor({ timeout: 30_000 });
    expect(await tabNames()).toEqual(['Performance statistics', 'Contracts', 'All performance records', 'Receivables and payables', 'my receivables']);
    expect(await page.locator('[role=tab][aria-selected=true][data-testid^="scene-tab-"]').innerText()).toBe('All performance records');
  });

  it('filters by a select field and sorts by a column', async () => {
    await page.getByTestId('scene-filter-toggle').click();
    await page.selectOption('#scene-filter-taskType', 'payable');
    await page.getByTestId('scene-search').click();
    await expect.poll(async () => new Set(await page.locator('[data-testid=scene-row] td:nth-child(3)').allInnerTexts())).toEqual(new Set(['Payable']));
    await page.locator('[data-testid=scene-column-expirationTime] button').click();
    await expect.poll(() => page.getByTestId('scene-column-expirationTime').getAttribute('aria-sort')).toBe('ascending');
    // The header shows the order at once; the rows follow when the sorted page arrives.
    // Shown as 'd MMM yyyy' (the first column is the row's selection box).
    const dueDates = async () =>
      (await page.locator('[data-testid=scene-row] td:nth-child(5)').allInnerTexts()).filter((d) => d !== '--').map((d) => DateTime.fromFormat(d, 'd MMM yyyy').toISODate()!);
    await expect.poll(async () => {
      const shown = await dueDates();
      return shown.length > 0 && shown.join() === [...shown].sort().join();
    }).toBe(true);
    const dates = await dueDates();
    expect(dates).toEqual([...dates].sort());
  });

  it('exports the filtered, sorted scene to Excel: the file holds its columns and every row in its order', async () => {
    const headers = (await page.locator('[data-testid=scene-table] thead th:not(.scene-table__select):not(.scene-table__operation)').allInnerTexts()).map((text) => text.trim());
    const shownNames = await page.locator('[data-testid=scene-row] td:nth-child(2)').allInnerTexts();
    const total = Number(/\d+/.exec(await page.getByTestId('pager-total').innerText())![0]);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('scene-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^All performance records-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    const sheet = workbook.worksheets[0]!;
    const values = (row: number) => (sheet.getRow(row).values as unknown[]).slice(1);
    expect(values(1)).toEqual(headers);
    expect(sheet.rowCount - 1).toBe(total);
    const names = Array.from({ length: total }, (_, i) => String(values(i + 2)[0]));
    expect(names.slice(0, shownNames.length)).toEqual(shownNames);
    // Every row is a payable, in the ascending order of its due date.
    const typeColumn = headers.indexOf('Task type');
    const dueColumn = headers.indexOf('Expiration time');
    expect(new Set(Array.from({ length: total }, (_, i) => values(i + 2)[typeColumn]))).toEqual(new Set(['Payable']));
    const dues = Array.from({ length: total }, (_, i) => values(i + 2)[dueColumn]).filter((due) => due !== undefined && due !== null) as string[];
    expect(dues).toEqual([...dues].sort());
    await page.getByTestId('scene-export-progress').waitFor({ state: 'detached' });
  });

  it('makes, defaults and deletes scenes offline; the server ends with exactly that list', async () => {
    await stage.stopServer();
    await page.getByTestId('scene-add').click();
    await page.getByTestId('scene-config-save').click();
    expect(await page.getByTestId('scene-config').innerText()).toContain('Scene name cannot be empty');
    await page.fill('#scene-config-name', 'my receivables');
    await page.getByTestId('scene-config-save').click();
    expect(await page.getByTestId('scene-config').innerText()).toContain('Filter scene name duplicated');
    await page.fill('#scene-config-name', 'Overdue offline');
    await page.getByTestId('scene-config-save').click();
    await expect.poll(tabNames).toContain('Overdue offline');

    await page.getByTestId('scene-manage').click();
    const rows = page.locator('[data-testid=manage-scenes] li');
    await rows.filter({ hasText: 'Overdue offline' }).getByTestId('manage-scene-default').click();
    await rows.filter({ hasText: 'my receivables' }).getByTestId('manage-scene-delete').click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rows.allInnerTexts()).toHaveLength(3);
    await page.keyboard.press('Escape');
    expect(await tabNames()).toEqual(['Performance statistics', 'Contracts', 'All performance records', 'Receivables and payables', 'Overdue offline']);

    await stage.startServer();
    await expect.poll(async () => (await serverScenes()).map((s) => [s.name, s.isDefault]), { timeout: 30_000 }).toEqual([
      ['all performance records', false],
      ['receivables and payables', false],
      ['Overdue offline', true],
    ]);
  });

  it('keeps a sort in the scene with the server stopped: sorted so after a reload and after signing out and in, and on the server once back', async () => {
    await stage.stopServer();
    const tab = page.locator('[role=tab][data-testid^="scene-tab-"]', { hasText: 'Receivables and payables' });
    const header = page.getByTestId('scene-column-expirationTime');
    const keep = page.getByTestId('scene-keep-sort');
    /** The due dates shown, as days ('d MMM yyyy' in English). */
    const dueDates = async () => (await sceneColumnTexts(page, 'expirationTime')).filter((d) => d !== '--').map((d) => DateTime.fromFormat(d, 'd MMM yyyy').toISODate()!);
    const openedSorted = async () => {
      await tab.click();
      await page.getByTestId('scene-row').first().waitFor({ timeout: 30_000 });
      await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
      expect(await page.getByTestId('scene-sort-shown').innerText()).toBe('Sorted by Expiration time, descending');
      await expect.poll(async () => {
        const shown = await dueDates();
        return shown.length > 1 && shown.join() === [...shown].sort().reverse().join();
      }).toBe(true);
      expect(await keep.count()).toBe(0);
    };

    await tab.click();
    await page.getByTestId('scene-row').first().waitFor();
    expect(await header.getAttribute('aria-sort')).toBe('none');
    expect(await keep.count()).toBe(0);
    await header.locator('button').click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    await header.locator('button').click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    await inEachLanguageAndSize(page, async (language, { width, height }) => {
      await keep.waitFor();
      await keepScreenshot(page, `scene-sort-unkept-${width}x${height}-${language.code}`);
    });
    await chooseLanguage(page, uiLanguages[0]);
    await keep.click();
    await page.locator('.bp6-toast', { hasText: 'The sort is kept in the scene' }).first().waitFor();
    await keep.waitFor({ state: 'detached' });

    await page.reload();
    await openedSorted();
    await inEachLanguageAndSize(page, async (language, { width, height }) => {
      await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
      await keepScreenshot(page, `scene-sort-kept-${width}x${height}-${language.code}`);
    });
    await chooseLanguage(page, uiLanguages[0]);

    await stage.startServer();
    await expect
      .poll(async () => (await serverScenes()).find((scene) => scene.name === 'receivables and payables')?.sortField, { timeout: 30_000 })
      .toEqual({ id: 'expirationTime', key: -1 });
    await page.getByTestId('user-menu').click();
    await page.getByTestId('sign-out').click();
    await signIn();
    await openedSorted();
  }, 180_000);
});
