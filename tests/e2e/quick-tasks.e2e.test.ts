import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { openDatabase } from '../../src-server';
import { performanceTasks } from '../../src-server/performance/schema';
import { TaskState } from '../../src-shared/domain/enums';
import type { TaskCard } from '../../src-shared/domain/performance';
import type { PlanSheet, SheetTask } from '../../src-shared/ipc/fulfilment';
import { organisationDay } from '../../src-shared/rules/performance';
import { formatDay } from '../../src-renderer/i18n/format';
import { call } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { inEachLanguageAndSize, keepScreenshot, setChecked } from '../support/e2e-views';
import { submitSignIn } from '../support/manage-e2e';

// Quick tasks without dead ends and batch finish amounts (issue 28 items 5 and 8), in the browser
// edition against a real server: a quick task without a contract is made on the dashboard,
// finished there with the completion form of its type, viewed, restored after the spec's
// confirmation and deleted, each on the server once synced; opening it still says it is a quick
// task. A batch finish of two tasks asks each one's completion amount and the server records each
// its own. A finish the server refuses when it applies it shows on the task's row, with the reason
// in the user's language.

let stage: E2eStage;
let page: Page;

const today = organisationDay(new Date());
const quickName = 'Renew the site insurance';
const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');
const screenshot = (name: string) => keepScreenshot(page, name);
const card = (name: string) => page.locator('[data-testid=dashboard-task]', { hasText: name }).first();

async function rest() {
  const client = createContractServerClient(stage.server!.url);
  const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
  return {
    /** The quick task as the server has it today, or undefined once deleted. */
    async quickTask(name: string): Promise<TaskCard | undefined> {
      const days = await client.call('performanceTaskScheduling', { token, query: { startDate: today, endDate: today } });
      return days.flatMap((day) => day.taskList).find((task) => task.taskName === name);
    },
    async contractTasks(contractId: string): Promise<Map<string, TaskCard>> {
      const { list } = await client.call('performanceTasksByContract', { token, query: { contractID: contractId } });
      return new Map(list.map((task) => [task.id, task]));
    },
    completionValues: async (taskId: string) => (await client.call('performanceTaskCompleteForm', { token, params: { id: taskId } })).values,
  };
}

async function toDashboard() {
  await page.goto(stage.edition.host.url);
  await page.getByTestId('scene-tab-dashboard').click({ timeout: 30_000 });
  await page.getByTestId('dashboard-cards').waitFor();
}

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 40, seed: 13, core: { syncSoonMs: 100, syncBackoffMs: 300 } });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
});

afterAll(() => stage?.close());

describe('quick tasks on the dashboard', () => {
  it('signs in and makes a quick task without a contract from the dashboard', async () => {
    await submitSignIn(stage, 'admin', 'admin123');
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    await page.getByTestId('scene-tab-dashboard').click();
    await page.getByTestId('quick-task-open').click();
    await page.getByTestId('quick-task-name').fill(quickName);
    await page.getByTestId('quick-task-date').locator('input').fill(DateTime.fromISO(today).setLocale('en').toFormat('d MMM yyyy'));
    await page.getByTestId('quick-task-name').click();
    await expect.poll(() => page.getByTestId('quick-task-create').isDisabled()).toBe(false);
    await page.getByTestId('quick-task-create').click();
    await expect.poll(() => card(quickName).count()).toBe(1);
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    const server = await rest();
    await expect.poll(async () => (await server.quickTask(quickName))?.contractID, { timeout: 20_000 }).toBeNull();
  }, 120_000);

  it('finishes it there with the completion form of its type, views it, restores it after confirmation and deletes it', async () => {
    const server = await rest();
    // Synced, the card is the server's task: its actions are offered; opening it says it is a quick task.
    await expect.poll(() => card(quickName).getByTestId('task-finish').count(), { timeout: 20_000 }).toBe(1);
    await card(quickName).locator('.dashboard-task__name').click();
    await expect.poll(() => page.getByText('This is a quick task.').count()).toBeGreaterThan(0);

    await card(quickName).getByTestId('task-finish').click();
    const dialog = page.getByTestId('finish-dialog');
    await dialog.waitFor();
    await dialog.locator('#contract-form-input-finishDate').fill(formatDay(today, 'en'));
    await dialog.locator('#contract-form-input-finishDate').press('Enter');
    await dialog.locator('#contract-form-input-description').fill('Renewed for a year');
    await screenshot('quick-task-finish-1280x800-en');
    await dialog.getByTestId('finish-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByText('Task finished on this device; it is sent when the server can be reached.').count()).toBeGreaterThan(0);
    await expect.poll(async () => (await server.quickTask(quickName))?.taskState, { timeout: 30_000 }).toBe(TaskState.Success);
    const id = (await server.quickTask(quickName))!.id;
    expect(await server.completionValues(id)).toMatchObject({ finishDate: today, description: 'Renewed for a year' });

    await expect.poll(() => card(quickName).getByTestId('task-view').count(), { timeout: 20_000 }).toBe(1);
    await card(quickName).getByTestId('task-view').click();
    await expect.poll(() => page.getByTestId('finish-dialog').innerText()).toContain('Renewed for a year');
    await page.getByTestId('finish-close').click();

    await card(quickName).getByTestId('task-restore').click();
    expect(await page.getByTestId('restore-confirm').innerText()).toBe('Are you sure you want to restore this task?');
    await page.locator('.bp6-alert').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(async () => (await server.quickTask(quickName))?.taskState, { timeout: 30_000 }).toBe(TaskState.InProgress);

    await expect.poll(() => card(quickName).getByTestId('task-delete').count(), { timeout: 20_000 }).toBe(1);
    await card(quickName).getByTestId('task-delete').click();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => card(quickName).count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(async () => server.quickTask(quickName), { timeout: 30_000 }).toBeUndefined();
  }, 120_000);
});

describe('a batch finish of tasks with different amounts', () => {
  const open = (task: SheetTask) => task.state !== TaskState.Success && task.state !== TaskState.Incomplete;
  let batch: { contractId: string; tasks: SheetTask[] };

  async function openTab(contractId: string) {
    await page.goto(`${stage.edition.host.url}/contractApproval/detail?${new URLSearchParams({ id: contractId, flowId: '0', tab: 'PERFORMANCE_TAB', active: '0' })}`);
    await page.getByTestId('performance-tab').waitFor({ timeout: 20_000 });
  }

  /** The approved contracts' plans with two open rows carrying amounts, whose completion form asks an amount. */
  async function plansWithAmounts(): Promise<{ contractId: string; tasks: SheetTask[] }[]> {
    const { list } = await call(stage.core, 'ledger.contractPage', { pageSize: 50, pageNum: 1 });
    const found = [];
    for (const contract of list.filter((c) => c.status === 4)) {
      const { plans } = await call(stage.core, 'fulfilment.contract', { contractId: contract.id });
      for (const plan of plans as PlanSheet[]) {
        const rows = plan.tasks.filter((task) => open(task) && (task.receivableAmount ?? task.payableAmount));
        if (rows.length >= 2 && ['receivable', 'collection', 'payable', 'payment'].includes(plan.performanceType)) found.push({ contractId: contract.id, tasks: rows.slice(0, 2) });
      }
    }
    return found;
  }

  it('asks each task its own completion amount, and the server records each its own', async () => {
    const candidates = await plansWithAmounts();
    expect(candidates.length).toBeGreaterThanOrEqual(2);
    batch = candidates[0]!;
    const [first, second] = batch.tasks;
    await openTab(batch.contractId);
    for (const task of batch.tasks) await setChecked(page.locator(`[data-testid=contract-task][data-task-id="${task.id}"]`).getByRole('checkbox'));
    await page.locator('[data-testid=performance-plan]', { has: page.locator(`[data-task-id="${first!.id}"]`) }).getByTestId('batch-finish').click();
    const dialog = page.getByTestId('finish-dialog');
    await dialog.waitFor();
    await dialog.locator('#contract-form-input-finishDate').fill(formatDay(today, 'en'));
    await dialog.locator('#contract-form-input-finishDate').press('Enter');
    const own = (task: SheetTask) => (task.receivableAmount ?? task.payableAmount)!;
    // Each amount starts from the task's own; the second is changed.
    await expect.poll(() => dialog.locator(`#contract-form-input-finishAmount-${first!.id}`).inputValue()).toBe((own(first!).amount / 100).toFixed(2));
    expect(await dialog.locator('#contract-form-input-finishAmount').count()).toBe(0);
    const changed = own(second!).amount - 10_000;
    await dialog.locator(`#contract-form-input-finishAmount-${second!.id}`).fill((changed / 100).toFixed(2));
    await screenshot('batch-finish-amounts-1280x800-en');
    await dialog.getByTestId('finish-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByText('Tasks finished on this device; they are sent when the server can be reached.').count()).toBeGreaterThan(0);
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    const server = await rest();
    const tasks = await server.contractTasks(batch.contractId);
    expect(tasks.get(first!.id)).toMatchObject({ taskState: TaskState.Success, finishedAmount: own(first!).amount });
    expect(tasks.get(second!.id)).toMatchObject({ taskState: TaskState.Success, finishedAmount: changed });
    expect((await server.completionValues(first!.id))?.finishAmount).toEqual(own(first!));
    expect((await server.completionValues(second!.id))?.finishAmount).toEqual({ amount: changed, unit: own(second!).unit });
  }, 120_000);

  it('shows the batch dialog, a quick task card with its actions and the restore confirmation in English and Chinese at 1280×800 and 1440×900', async () => {
    const other = (await plansWithAmounts()).find((candidate) => candidate.contractId !== batch.contractId)!;
    const shown = 'Call the surveyor';
    await call(stage.core, 'performance.quickTask', { payload: { name: shown, type: 'custom', fieldList: [{ id: 'performanceDate', name: 'performance date', type: 'date', required: true, value: today }] } });
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    const texts = {
      en: { quick: 'This is a quick task.', restore: 'Are you sure you want to restore this task?', cancel: 'Cancel', amount: 'Completion amount: ', note: 'Each task records its own completion amount, starting from its own amount.' },
      'zh-CN': { quick: '此任务为快捷任务！', restore: '确定要恢复该任务吗？', cancel: '取消', amount: '完成金额：', note: '每个任务记录各自的完成金额，默认为任务本身的金额。' },
    };
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await openTab(other.contractId);
      for (const task of other.tasks) await setChecked(page.locator(`[data-testid=contract-task][data-task-id="${task.id}"]`).getByRole('checkbox'));
      await page.locator('[data-testid=performance-plan]', { has: page.locator(`[data-task-id="${other.tasks[0]!.id}"]`) }).getByTestId('batch-finish').click();
      const dialog = page.getByTestId('finish-dialog');
      await expect.poll(() => dialog.getByTestId('finish-amounts-note').count()).toBe(1);
      expect(await dialog.getByTestId('finish-amounts-note').innerText()).toBe(texts[code].note);
      // Each task's amount is labelled with its name, in the language's words.
      await expect.poll(() => dialog.locator('.contract-form__row label', { hasText: other.tasks[1]!.name }).innerText()).toContain(texts[code].amount);
      await screenshot(`batch-finish-dialog-${width}x${height}-${code}`);
      await dialog.getByTestId('finish-cancel').click();
      await dialog.waitFor({ state: 'detached' });

      await toDashboard();
      await expect.poll(() => card(shown).getByTestId('task-finish').count(), { timeout: 20_000 }).toBe(1);
      await card(shown).locator('.dashboard-task__name').click();
      await expect.poll(() => page.getByText(texts[code].quick).count()).toBeGreaterThan(0);
      await screenshot(`dashboard-quick-task-${width}x${height}-${code}`);
      await page.getByText('List', { exact: true }).or(page.getByText('列表', { exact: true })).first().click();
      await expect.poll(() => page.getByTestId('dashboard-list').locator('[data-testid=dashboard-task]', { hasText: shown }).getByTestId('task-finish').count()).toBe(1);
      await screenshot(`dashboard-quick-task-list-${width}x${height}-${code}`);
    });
    // A finished quick task asks the spec's confirmation before it is restored, in each language.
    const id = (await (await rest()).quickTask(shown))!.id;
    await call(stage.core, 'fulfilment.finish', { id, configFields: { finishDate: today } });
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await toDashboard();
      await expect.poll(() => card(shown).getByTestId('task-restore').count(), { timeout: 20_000 }).toBe(1);
      await card(shown).getByTestId('task-restore').click();
      expect(await page.getByTestId('restore-confirm').innerText()).toBe(texts[code].restore);
      await screenshot(`quick-task-restore-confirm-${width}x${height}-${code}`);
      await page.locator('.bp6-alert').getByRole('button', { name: texts[code].cancel }).click();
    });
  }, 240_000);

  it('shows a finish the server refused on its row, with the reason in the user\'s language, until it is dismissed', async () => {
    const target = (await plansWithAmounts()).at(-1)!;
    const task = target.tasks[0]!;
    await stage.stopServer();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
    await call(stage.core, 'fulfilment.finish', { id: task.id, configFields: { finishDate: today } });
    // Meanwhile the task was finished elsewhere: the server has it finished when the queued finish arrives.
    const database = await openDatabase({ dataDir: stage.serverDir });
    try {
      await database.db.update(performanceTasks).set({ state: TaskState.Success }).where(eq(performanceTasks.id, task.id));
    } finally {
      await database.close();
    }
    await stage.startServer();
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    const reasons = { en: `The task "${task.name}" is already finished.`, 'zh-CN': `任务“${task.name}”已完成。` };
    const refusal = () => page.locator(`[data-testid=contract-task][data-task-id="${task.id}"]`).getByTestId('task-refused');
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await openTab(target.contractId);
      await expect.poll(() => refusal().getByTestId('task-refused-reason').innerText(), { timeout: 20_000 }).toBe(reasons[code]);
      await screenshot(`performance-tab-refused-${width}x${height}-${code}`);
    });
    await refusal().getByTestId('task-refused-dismiss').click();
    await expect.poll(() => refusal().count()).toBe(0);
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
  }, 180_000);
});
