import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src-server';
import { TaskState } from '../../src-shared/domain/enums';
import type { TaskCard } from '../../src-shared/domain/performance';
import { formatDay } from '../../src-renderer/i18n/format';
import { call } from '../support/core';
import { signInOnPage } from '../support/manage-e2e';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages, setChecked } from '../support/e2e-views';

// Journey 2, step 1 (issue 28 item 2) in the browser edition: an approved contract with no plan;
// with the server stopped, a payment plan of 12 monthly periods with prorated ends and an invoice
// row typed by hand is added through the performance tab's dialog and shows at once, waiting to
// sync; with the server back, REST has the plan and its 13 tasks exactly once, with the ids the
// tab showed. A contract still drafting says why it takes no plan. The dialog in both languages
// at both laptop sizes.

const contracts = 30;
let stage: E2eStage;
let page: Page;
/** The approved contract made for the journey (no plan), and a seeded one still drafting. */
let approvedId = '';
let draftingId = '';
let shownIds: string[] = [];

const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');
const screenshot = (name: string) => keepScreenshot(page, name);

async function rest<T>(server: { url: string }, method: string, path: string, token: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

const login = async (server: { url: string }) => (await rest<{ token: string }>(server, 'POST', '/auth/login', '', { username: 'admin', password: 'admin123' })).token;

/** A blank contract drafted, submitted and approved by REST: approved, with no plan. */
async function approvedContract(server: RunningServer): Promise<string> {
  const token = await login(server);
  const { id } = await rest<{ id: string }>(server, 'POST', '/contracts', token, { name: 'Office lease 2027' });
  await rest(server, 'POST', `/contracts/${id}/submit`, token, {});
  await rest(server, 'POST', `/contracts/${id}/approve`, token, {});
  return id;
}

async function openTab(contractId: string) {
  await page.goto(`${stage.edition.host.url}/contractApproval/detail?${new URLSearchParams({ id: contractId, flowId: '0', tab: 'PERFORMANCE_TAB', active: '0' })}`);
  await page.getByTestId('plan-add').waitFor({ timeout: 20_000 });
}

/** Types a day into one of the dialog's date pickers, as it shows days in `language`. */
async function typeDay(testId: string, day: string, language: string) {
  const input = page.getByTestId('plan-create-dialog').getByTestId(testId).locator('input');
  await input.fill(formatDay(day, language));
  await input.press('Enter');
}

/** Opens the dialog, picks `performance` and fills the 12-month schedule of the journey. */
async function fillSchedule(performance: string, language: string) {
  await page.getByTestId('plan-add').click();
  const dialog = page.getByTestId('plan-create-dialog');
  await dialog.waitFor();
  await dialog.locator('#plan-create-performance').selectOption({ label: performance });
  await setChecked(dialog.locator('.bp6-switch input'));
  await dialog.locator('#plan-create-cycle').selectOption('month');
  await typeDay('plan-create-start', '2027-01-15', language);
  await typeDay('plan-create-end', '2027-12-20', language);
  await dialog.getByTestId('plan-create-amount').fill('120000');
  await expect.poll(() => dialog.getByTestId('schedule-period').count()).toBe(12);
  return dialog;
}

beforeAll(async () => {
  stage = await openE2eStage({
    contracts,
    seed: 28,
    core: { syncSoonMs: 100, syncBackoffMs: 300 },
    prepare: async (server) => {
      approvedId = await approvedContract(server);
    },
  });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
});

afterAll(() => stage?.close());

describe('adding a performance plan offline', () => {
  it('signs in and syncs; the approved contract has no plan, a drafting one says it takes none', async () => {
    await signInOnPage(stage, 'admin', 'admin123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('ledger-count-all').innerText(), { timeout: 30_000 }).toBe(String(contracts + 1));
    await expect.poll(() => queued()).toBe('0');
    const list = (await call(stage.core, 'ledger.contractPage', { pageSize: 50, pageNum: 1 })).list;
    draftingId = list.find((c) => c.status === 1)!.id;
    expect((await call(stage.core, 'fulfilment.contract', { contractId: approvedId })).plans).toEqual([]);

    await openTab(draftingId);
    expect(await page.getByTestId('plan-add').isDisabled()).toBe(true);
    expect(await page.getByTestId('plan-add-note').innerText()).toBe('Performance plans can be added to approved or archived contracts only.');
    // Online, the tab reads the organisation's performances: the dialog has them offline too.
    await openTab(approvedId);
    expect(await page.getByTestId('contract-tasks-none').count()).toBe(1);
    expect(await page.getByTestId('plan-add').isDisabled()).toBe(false);
  }, 120_000);

  it('adds a 12-month payment plan and an invoice row by hand with the server stopped: 13 rows at once, waiting to sync', async () => {
    await stage.stopServer();
    await openTab(approvedId);
    const dialog = await fillSchedule('付款履约', 'en');
    // Only the first and the last period are prorated by days (17 of 31, 20 of 31 days).
    const prorated = await dialog.getByTestId('schedule-period').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-prorated')));
    expect(prorated).toEqual(['true', ...Array<string>(10).fill('false'), 'true']);
    expect(await dialog.getByTestId('as-of-note').count()).toBe(1);
    await dialog.getByTestId('sheet-add-row').click();
    const row = dialog.getByTestId('sheet-edit-row').last();
    await row.getByTestId('sheet-edit-name').fill('Invoice for the deposit');
    await row.getByTestId('sheet-edit-date').locator('input').fill(formatDay('2027-02-10', 'en'));
    // The payment performance's amount column is required (the sheet's rules): the row names one.
    await row.getByTestId('sheet-edit-payableAmount').fill('500');
    await row.getByTestId('sheet-edit-name').click();
    await screenshot('plan-create-dialog-offline-1280x800-en');
    await dialog.getByTestId('sheet-save').click();
    await dialog.waitFor({ state: 'detached' });

    const plan = page.getByTestId('performance-plan');
    await expect.poll(() => plan.getByTestId('contract-task').count()).toBe(13);
    expect(await plan.getByTestId('task-pending').count()).toBe(13);
    expect(await plan.getByTestId('contract-task').filter({ hasText: 'Invoice for the deposit' }).count()).toBe(1);
    shownIds = await plan.getByTestId('contract-task').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task-id')!));
    await expect.poll(() => queued()).toBe('1');
    await screenshot('performance-tab-plan-added-offline-1280x800-en');
  }, 120_000);

  it('reaches the server exactly once when it is back: REST has the plan and its 13 tasks, with the ids the tab showed', async () => {
    const server = await stage.startServer();
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
    const token = await login(server);
    const tasks = (await rest<{ list: TaskCard[] }>(server, 'GET', `/performances/task/by_contract?contractID=${approvedId}`, token)).list;
    expect(tasks).toHaveLength(13);
    expect(tasks.map((task) => task.id).sort()).toEqual([...shownIds].sort());
    expect(new Set(tasks.map((task) => task.planID)).size).toBe(1);
    const generated = tasks.filter((task) => task.taskName !== 'Invoice for the deposit');
    expect(generated).toHaveLength(12);
    expect(generated.reduce((sum, task) => sum + task.payableAmount!.amount, 0)).toBe(12_000_000);
    expect(tasks.find((task) => task.taskName === 'Invoice for the deposit')).toMatchObject({ expirationTime: expect.stringContaining('2027-02-10'), taskState: TaskState.InProgress });
    // The tab shows the server's rows now: the same 13, none waiting.
    await openTab(approvedId);
    const plan = page.getByTestId('performance-plan');
    await expect.poll(() => plan.getByTestId('task-pending').count(), { timeout: 20_000 }).toBe(0);
    expect(await plan.getByTestId('contract-task').count()).toBe(13);
  }, 90_000);

  it('shows the dialog with its schedule preview in English and Chinese at 1280×800 and 1440×900', async () => {
    const texts: Record<string, { title: string; periodic: string }> = {
      en: { title: 'Add performance plan', periodic: 'Generate a periodic schedule' },
      'zh-CN': { title: '添加履约计划', periodic: '按周期生成' },
    };
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await openTab(approvedId);
      // The contract has its payment plan: the dialog offers the other performances.
      const dialog = await fillSchedule('收款履约', code);
      expect(await dialog.locator('#plan-create-performance option').allInnerTexts()).not.toContain('付款履约');
      expect(await page.locator('.bp6-dialog-header').innerText()).toContain(texts[code]!.title);
      expect(await dialog.innerText()).toContain(texts[code]!.periodic);
      if (code === 'zh-CN') expect(await dialog.locator('label, th, h5').allInnerTexts()).not.toContainEqual(expect.stringMatching(/[A-Za-z]{3}/));
      await screenshot(`plan-create-dialog-${width}x${height}-${code}`);
      await dialog.getByTestId('sheet-cancel').click();
      await dialog.waitFor({ state: 'detached' });
    });
  }, 180_000);

  it('removes the plan after a confirmation, offline, and the server has it gone once back', async () => {
    await chooseLanguage(page, uiLanguages[0]);
    await stage.stopServer();
    await openTab(approvedId);
    const plan = page.getByTestId('performance-plan');
    await plan.getByTestId('plan-remove').click();
    expect(await page.getByTestId('plan-remove-confirm').innerText()).toBe('Remove the plan "付款履约" and its 13 rows? This cannot be undone.');
    await page.locator('.bp6-alert').getByRole('button', { name: 'Remove plan', exact: true }).click();
    await expect.poll(() => plan.count()).toBe(0);
    expect(await page.getByTestId('contract-tasks-none').count()).toBe(1);
    await expect.poll(() => queued()).toBe('1');
    const server = await stage.startServer();
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
    const token = await login(server);
    expect((await rest<{ list: TaskCard[] }>(server, 'GET', `/performances/task/by_contract?contractID=${approvedId}`, token)).list).toEqual([]);
  }, 90_000);
});
