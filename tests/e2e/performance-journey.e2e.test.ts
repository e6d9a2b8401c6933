import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { RunningServer } from '../../src-server';
import { TaskState } from '../../src-shared/domain/enums';
import type { TaskCard } from '../../src-shared/domain/performance';
import { boardRange } from '../../src-shared/rules/dashboard';
import { organisationDay } from '../../src-shared/rules/performance';
import { formatDay } from '../../src-renderer/i18n/format';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, keepScreenshot, screenSizes, uiLanguages, setChecked } from '../support/e2e-views';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';

// Journey 2 (and the scene part of journey 3) of JOURNEYS.md as issue 28's Tests section walks
// it, through the UI of the browser edition against a real server (REST only to check): an
// approved contract with no plan; with the server stopped, a payment plan of 12 monthly periods
// with prorated ends and an invoice row typed by hand are added on its performance tab; with the
// server back, REST has the plan and its 13 tasks once; the dashboard's counts and month board and
// a scene show them; one is finished from its scene row and restored from its contract's page;
// two of different amounts are batch-finished from the scene, each recording its own; two tasks
// are related with the server stopped and the finish warns offline and online; a quick task
// without a contract is made and finished on the dashboard. The walk is in English; its key
// screens are then looked at in English and Chinese at both laptop sizes.

let stage: E2eStage;
let page: Page;
let contractId = '';
/** The plan's tasks as the server has them once synced, in sheet order. */
let tasks: TaskCard[] = [];

const admin = { username: 'admin', password: 'admin123' };
const contractName = 'Warehouse lease 2026';
const invoiceName = 'Invoice for the deposit';
const quickName = 'Renew the fire permit';
const today = organisationDay(new Date());
const month = DateTime.fromISO(today);
/** The schedule: from the 15th of this month to the 20th eleven months on, so 12 periods with prorated ends. */
const schedule = { start: month.set({ day: 15 }).toISODate()!, end: month.plus({ months: 11 }).set({ day: 20 }).toISODate()!, total: 120_000 };
const thisMonth = { startDate: month.startOf('month').toISODate()!, endDate: month.endOf('month').toISODate()! };

const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');
const problems = () => page.getByTestId('sync-details').getAttribute('data-problems');
const screenshot = (name: string) => keepScreenshot(page, name);
const tabRow = (taskId: string) => page.locator(`[data-testid=contract-task][data-task-id="${taskId}"]`).first();
const sceneRow = (taskId: string) => page.locator(`[data-testid=scene-row][data-task-id="${taskId}"]`);
const dashboardCard = (name: string) => page.locator('[data-testid=dashboard-task]', { hasText: name }).first();
const ownAmount = (task: TaskCard) => (task.payableAmount ?? task.receivableAmount)!.amount;

/** The contract's tasks on the server, by id. */
async function serverTasks(): Promise<Map<string, TaskCard>> {
  const { list } = await onServer(stage, admin, 'performanceTasksByContract', { query: { contractID: contractId } });
  return new Map(list.map((task) => [task.id, task]));
}

/** A blank contract drafted, submitted and approved by REST before the desktop syncs: approved, with no plan. */
async function approvedContract(server: RunningServer): Promise<string> {
  const call = async <T,>(method: string, path: string, token: string, body: unknown): Promise<T> => {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { ...(token && { authorization: `Bearer ${token}` }), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: T }).data;
  };
  const { token } = await call<{ token: string }>('POST', '/auth/login', '', admin);
  const { id } = await call<{ id: string }>('POST', '/contracts', token, { name: contractName });
  await call('POST', `/contracts/${id}/submit`, token, {});
  await call('POST', `/contracts/${id}/approve`, token, {});
  return id;
}

async function openTab(on: Page = page) {
  await on.goto(`${stage.edition.host.url}/contractApproval/detail?${new URLSearchParams({ id: contractId, flowId: '0', tab: 'PERFORMANCE_TAB', active: '0' })}`);
  // A contract without a plan shows its empty state instead of the sheet.
  await on.getByTestId('performance-tab').or(on.getByTestId('contract-tasks-none')).first().waitFor({ timeout: 20_000 });
}

async function toDashboard() {
  await page.goto(stage.edition.host.url);
  await page.getByTestId('scene-tab-dashboard').click({ timeout: 30_000 });
  await page.getByTestId('dashboard-cards').waitFor();
}

/** The default scene ('All performance records') narrowed to the journey's contract by its keyword. */
async function toScene() {
  await page.goto(stage.edition.host.url);
  await page.getByTestId('scene-row').first().waitFor({ timeout: 30_000 });
  await page.getByTestId('scene-filter-toggle').click();
  await page.getByTestId('scene-keyword').fill(contractName);
  await page.getByTestId('scene-search').click();
  await expect.poll(() => page.getByTestId('scene-row').count(), { timeout: 20_000 }).toBe(13);
}

/** Fills the finish dialog's date (and an amount when given) and confirms. */
async function confirmFinish(dialog: Locator, amounts: Record<string, number> = {}) {
  await dialog.locator('#contract-form-input-finishDate').fill(formatDay(today, 'en'));
  await dialog.locator('#contract-form-input-finishDate').press('Enter');
  for (const [id, amount] of Object.entries(amounts)) await dialog.locator(`#contract-form-input-${id}`).fill((amount / 100).toFixed(2));
}

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 30,
    seed: 28,
    core: { syncSoonMs: 100, syncBackoffMs: 300 },
    prepare: async (server) => {
      contractId = await approvedContract(server);
    },
  });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
});

afterAll(() => stage?.close());
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') await screenshot(`journey-failed-${task.name.slice(0, 40)}`);
});

describe('journey 2: performance tracking from the start', () => {
  it('signs in and syncs; the approved contract has no plan yet', async () => {
    await signInOnPage(stage, admin.username, admin.password);
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    // Online once, so the tab has the organisation's performances for the dialog offline.
    await openTab();
    expect(await page.getByTestId('contract-tasks-none').count()).toBe(1);
    expect(await page.getByTestId('plan-add').isDisabled()).toBe(false);
  }, 120_000);

  it('adds a 12-month payment plan with prorated ends and an invoice row by hand with the server stopped', async () => {
    await stage.stopServer();
    await untilOffline(page);
    await openTab();
    await page.getByTestId('plan-add').click();
    const dialog = page.getByTestId('plan-create-dialog');
    await dialog.waitFor();
    await dialog.locator('#plan-create-performance').selectOption({ label: '付款履约' });
    await setChecked(dialog.locator('.bp6-switch input'));
    await dialog.locator('#plan-create-cycle').selectOption('month');
    for (const [testId, day] of [['plan-create-start', schedule.start], ['plan-create-end', schedule.end]] as const) {
      await dialog.getByTestId(testId).locator('input').fill(formatDay(day, 'en'));
      await dialog.getByTestId(testId).locator('input').press('Enter');
    }
    await dialog.getByTestId('plan-create-amount').fill(String(schedule.total));
    await expect.poll(() => dialog.getByTestId('schedule-period').count()).toBe(12);
    const prorated = await dialog.getByTestId('schedule-period').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-prorated')));
    expect(prorated).toEqual(['true', ...Array<string>(10).fill('false'), 'true']);
    await dialog.getByTestId('sheet-add-row').click();
    const row = dialog.getByTestId('sheet-edit-row').last();
    await row.getByTestId('sheet-edit-name').fill(invoiceName);
    await row.getByTestId('sheet-edit-date').locator('input').fill(formatDay(today, 'en'));
    // The payment performance's amount column is required: saved without it, the row is refused.
    await row.getByTestId('sheet-edit-name').click();
    await dialog.getByTestId('sheet-save').click();
    expect(await dialog.isVisible()).toBe(true);
    await row.getByTestId('sheet-edit-payableAmount').fill('500');
    await row.getByTestId('sheet-edit-name').click();
    await screenshot('journey-plan-dialog-offline-1280x800-en');
    await dialog.getByTestId('sheet-save').click();
    await dialog.waitFor({ state: 'detached' });

    const plan = page.getByTestId('performance-plan');
    await expect.poll(() => plan.getByTestId('contract-task').count()).toBe(13);
    expect(await plan.getByTestId('task-pending').count()).toBe(13);
    await expect.poll(() => queued()).toBe('1');
    await screenshot('journey-plan-added-offline-1280x800-en');
  }, 120_000);

  it('reaches the server exactly once when it is back: REST has the plan and its 13 tasks', async () => {
    const shown = await page.getByTestId('contract-task').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task-id')!));
    await stage.startServer();
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await problems()).toBe('0');
    const onServerTasks = [...(await serverTasks()).values()];
    expect(onServerTasks.map((task) => task.id).sort()).toEqual([...shown].sort());
    expect(new Set(onServerTasks.map((task) => task.planID)).size).toBe(1);
    const performanceId = onServerTasks[0]!.performanceID!;
    const { plan } = await onServer(stage, admin, 'performanceForm', { params: { id: performanceId }, query: { contractID: contractId } });
    expect(plan?.id).toBe(onServerTasks[0]!.planID);
    tasks = onServerTasks.sort((a, b) => a.rowIndex - b.rowIndex);
    const generated = tasks.filter((task) => task.taskName !== invoiceName);
    expect(generated).toHaveLength(12);
    expect(generated.reduce((sum, task) => sum + ownAmount(task), 0)).toBe(schedule.total * 100);
    expect(tasks.find((task) => task.taskName === invoiceName)).toMatchObject({ expirationTime: expect.stringContaining(today), payableAmount: { amount: 50_000 } });
    await openTab();
    await expect.poll(() => page.getByTestId('task-pending').count(), { timeout: 20_000 }).toBe(0);
    expect(await page.getByTestId('contract-task').count()).toBe(13);
  }, 90_000);

  it("shows the new tasks on the dashboard's counts and month board, and in a scene", async () => {
    await toDashboard();
    const counts = await onServer(stage, admin, 'performanceStatistics', { query: thisMonth });
    for (const [field, value] of Object.entries(counts)) await expect.poll(() => page.getByTestId(`dashboard-count-${field}`).innerText(), { timeout: 10_000 }).toBe(String(value));
    await page.getByText('Month', { exact: true }).click();
    const board = boardRange('month', today);
    const due = tasks.filter((task) => task.expirationTime! >= board.startDate && task.expirationTime! <= board.endDate);
    expect(due.length).toBeGreaterThan(0);
    for (const task of due) await expect.poll(() => page.locator(`[data-testid=dashboard-task][data-task-id="${task.id}"]`).count()).toBe(1);
    await screenshot('journey-dashboard-month-1280x800-en');

    await toScene();
    const shown = await page.getByTestId('scene-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task-id')!));
    expect(shown.sort()).toEqual(tasks.map((task) => task.id).sort());
    await screenshot('journey-scene-1280x800-en');
  }, 90_000);

  it('finishes the invoice row from its scene row with its amount, and restores it from its contract page', async () => {
    const invoice = tasks.find((task) => task.taskName === invoiceName)!;
    await sceneRow(invoice.id).getByTestId('scene-row-finish').click();
    const dialog = page.getByTestId('finish-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    await expect.poll(() => dialog.locator('.bp6-spinner').count(), { timeout: 20_000 }).toBe(0);
    expect(await dialog.getByTestId('predecessor-warning').count()).toBe(0);
    await confirmFinish(dialog, { finishAmount: ownAmount(invoice) });
    await screenshot('journey-scene-finish-1280x800-en');
    await dialog.getByTestId('finish-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => sceneRow(invoice.id).getAttribute('data-state'), { timeout: 20_000 }).toBe(String(TaskState.Success));
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await problems()).toBe('0');
    expect((await serverTasks()).get(invoice.id)).toMatchObject({ taskState: TaskState.Success, finishedAmount: ownAmount(invoice) });

    // A finished row offers its details; restoring is the contract page's, opened by 'view'.
    const [contractPage] = await Promise.all([page.context().waitForEvent('page'), sceneRow(invoice.id).getByTestId('scene-row-view').click()]);
    await contractPage.getByTestId('contract-detail').waitFor({ timeout: 20_000 });
    await openTab(contractPage);
    await contractPage.locator(`[data-testid=contract-task][data-task-id="${invoice.id}"]`).getByTestId('task-restore').click();
    expect(await contractPage.getByTestId('restore-confirm').innerText()).toBe('Are you sure you want to restore this task?');
    await contractPage.locator('.bp6-alert').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(async () => (await serverTasks()).get(invoice.id)?.taskState, { timeout: 30_000 }).toBe(TaskState.InProgress);
    await contractPage.close();
  }, 120_000);

  it('batch-finishes two rows of different amounts from the scene: each records its own', async () => {
    const [first, second] = tasks.filter((task) => task.taskName !== invoiceName);
    expect(ownAmount(first!)).not.toBe(ownAmount(second!));
    await toScene();
    for (const task of [first!, second!]) await setChecked(sceneRow(task.id).getByTestId('scene-select-row'));
    await page.getByTestId('scene-batch-finish').click();
    const dialog = page.getByTestId('finish-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    await expect.poll(() => dialog.locator(`#contract-form-input-finishAmount-${first!.id}`).inputValue(), { timeout: 20_000 }).toBe((ownAmount(first!) / 100).toFixed(2));
    expect(await dialog.locator(`#contract-form-input-finishAmount-${second!.id}`).inputValue()).toBe((ownAmount(second!) / 100).toFixed(2));
    await confirmFinish(dialog);
    await screenshot('journey-scene-batch-finish-1280x800-en');
    await dialog.getByTestId('finish-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await problems()).toBe('0');
    const onServerTasks = await serverTasks();
    for (const task of [first!, second!]) expect(onServerTasks.get(task.id)).toMatchObject({ taskState: TaskState.Success, finishedAmount: ownAmount(task) });
    for (const task of [first!, second!]) expect(await sceneRow(task.id).getAttribute('data-state')).toBe(String(TaskState.Success));
  }, 120_000);

  it('relates two tasks with the server stopped: the finish warns offline, and online once synced', async () => {
    const [, , third, fourth] = tasks.filter((task) => task.taskName !== invoiceName);
    const warning = `This task cannot be finished before its predecessor tasks: "${third!.taskName}".`;
    const finishWarning = async () => {
      await tabRow(fourth!.id).getByTestId('task-finish').click();
      const dialog = page.getByTestId('finish-dialog');
      await dialog.getByTestId('predecessor-warning').waitFor({ timeout: 10_000 });
      const seen = { warning: await dialog.getByTestId('predecessor-warning').innerText(), offered: !(await dialog.getByTestId('finish-confirm').isDisabled()) };
      await dialog.getByTestId('finish-cancel').click();
      await dialog.waitFor({ state: 'detached' });
      return seen;
    };
    await stage.stopServer();
    await untilOffline(page);
    await openTab();
    await tabRow(fourth!.id).getByTestId('task-relate').click();
    const relate = page.getByTestId('relate-dialog');
    await relate.waitFor();
    await relate.getByTestId('relate-search').fill(third!.taskName);
    await setChecked(relate.locator(`[data-testid=relate-candidate][data-task-id="${third!.id}"]`).getByRole('checkbox'));
    await relate.getByTestId('relate-confirm').click();
    await relate.waitFor({ state: 'detached' });
    await expect.poll(() => tabRow(fourth!.id).locator(`[data-testid=task-predecessor][data-front-id="${third!.id}"]`).count()).toBe(1);
    await expect.poll(() => queued()).toBe('1');
    expect(await finishWarning()).toEqual({ warning, offered: false });
    await screenshot('journey-predecessor-offline-1280x800-en');

    await stage.startServer();
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await problems()).toBe('0');
    expect((await onServer(stage, admin, 'performanceTaskFrontTasks', { params: { id: fourth!.id } })).list.map((task) => task.taskID)).toEqual([third!.id]);
    await openTab();
    await expect.poll(() => tabRow(fourth!.id).getByTestId('task-pending').count(), { timeout: 20_000 }).toBe(0);
    expect(await finishWarning()).toEqual({ warning, offered: false });
  }, 120_000);

  it('makes a quick task without a contract on the dashboard and finishes it there', async () => {
    await toDashboard();
    await page.getByTestId('quick-task-open').click();
    await page.getByTestId('quick-task-name').fill(quickName);
    await page.getByTestId('quick-task-date').locator('input').fill(formatDay(today, 'en'));
    await page.getByTestId('quick-task-name').click();
    await expect.poll(() => page.getByTestId('quick-task-create').isDisabled()).toBe(false);
    await page.getByTestId('quick-task-create').click();
    await expect.poll(() => dashboardCard(quickName).count()).toBe(1);
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    const quickTask = async () => {
      const days = await onServer(stage, admin, 'performanceTaskScheduling', { query: { startDate: today, endDate: today } });
      return days.flatMap((day) => day.taskList).find((task) => task.taskName === quickName);
    };
    await expect.poll(async () => (await quickTask())?.contractID, { timeout: 20_000 }).toBeNull();
    await expect.poll(() => dashboardCard(quickName).getByTestId('task-finish').count(), { timeout: 20_000 }).toBe(1);
    await dashboardCard(quickName).getByTestId('task-finish').click();
    const dialog = page.getByTestId('finish-dialog');
    await dialog.waitFor();
    await confirmFinish(dialog);
    await screenshot('journey-quick-task-finish-1280x800-en');
    await dialog.getByTestId('finish-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await quickTask())?.taskState, { timeout: 30_000 }).toBe(TaskState.Success);
    await expect.poll(() => dashboardCard(quickName).getByTestId('task-restore').count(), { timeout: 20_000 }).toBe(1);
  }, 120_000);

  it('shows its key screens in English and Chinese at 1280×800 and 1440×900: the plan, the month board, the scene and the warning', async () => {
    const [, , third, fourth] = tasks.filter((task) => task.taskName !== invoiceName);
    const words = {
      en: { warning: `This task cannot be finished before its predecessor tasks: "${third!.taskName}".`, state: 'Task state', completed: 'Completed', month: 'Month' },
      'zh-CN': { warning: `该任务须在前置任务完成后才能完成：“${third!.taskName}”。`, state: '任务状态', completed: '已完成', month: '月' },
    };
    // Each screen is opened once per language and looked at in both sizes, to keep the file short.
    for (const language of uiLanguages) {
      const { code } = language;
      await chooseLanguage(page, language);
      const look = async (name: string) => {
        for (const { width, height } of screenSizes) {
          await page.setViewportSize({ width, height });
          await screenshot(`journey-${name}-${width}x${height}-${code}`);
        }
      };
      await openTab();
      await expect.poll(() => page.getByTestId('contract-task').count(), { timeout: 20_000 }).toBe(13);
      expect(await page.locator('[data-testid=contract-task][data-state="4"]').first().innerText()).toContain(words[code].completed);
      await look('plan');
      await tabRow(fourth!.id).getByTestId('task-finish').click();
      const dialog = page.getByTestId('finish-dialog');
      await dialog.getByTestId('predecessor-warning').waitFor({ timeout: 10_000 });
      expect(await dialog.getByTestId('predecessor-warning').innerText()).toBe(words[code].warning);
      await look('predecessor-warning');
      await dialog.getByTestId('finish-cancel').click();
      await dialog.waitFor({ state: 'detached' });

      await toDashboard();
      await page.getByText(words[code].month, { exact: true }).click();
      await expect.poll(() => page.locator('[data-testid=dashboard-task]', { hasText: quickName }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await look('dashboard-month');

      await toScene();
      expect(await page.getByTestId('scene-column-taskState').innerText()).toContain(words[code].state);
      expect(await page.locator('[data-testid=scene-row][data-state="4"]').first().innerText()).toContain(words[code].completed);
      if (code === 'zh-CN') expect(await page.locator('[data-testid=scene-table] th').allInnerTexts()).not.toContainEqual(expect.stringMatching(/[A-Za-z]{3}/));
      await look('scene');
    }
    await page.setViewportSize(screenSizes[0]);
    await chooseLanguage(page, uiLanguages[0]);
  }, 240_000);
});
