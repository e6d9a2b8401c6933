import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '../../src-shared/domain/enums';
import type { SheetTask } from '../../src-shared/ipc/fulfilment';
import { call, settledSync } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { inEachLanguageAndSize, keepScreenshot, setChecked } from '../support/e2e-views';
import { onServer, signInOnPage } from '../support/manage-e2e';

// Predecessor tasks in the browser edition (issue 28 item 4, journey 2 step 3): a task is related
// to an earlier one of its contract through the relate dialog, the row shows its predecessor, and
// finishing it warns with the predecessor's name and offers no finish — with the server up (the
// server's check_front says the same) and with it stopped (a relation made offline warns at once).
// Back online, REST front_tasks holds each relation once.

const contracts = 40;
let stage: E2eStage;
let page: Page;
let contractId: string;
/** Three unfinished tasks of one plan in sheet order, none related to any task yet. */
let first: SheetTask;
let second: SheetTask;
let third: SheetTask;

const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');
const row = (taskId: string) => page.locator(`[data-testid=contract-task][data-task-id="${taskId}"]`).first();
const screenshot = (name: string) => keepScreenshot(page, name);

const admin = { username: 'admin', password: 'admin123' };
const frontTasks = async (taskId: string) => (await onServer(stage, admin, 'performanceTaskFrontTasks', { params: { id: taskId } })).list.map((task) => task.taskID);

async function openTab() {
  await page.goto(`${stage.edition.host.url}/contractApproval/detail?${new URLSearchParams({ id: contractId, flowId: '0', tab: 'PERFORMANCE_TAB', active: '0' })}`);
  await page.getByTestId('performance-tab').waitFor({ timeout: 20_000 });
}

/** Relates `task` to `front` through the relate dialog, found by searching its name. */
async function relate(task: SheetTask, front: SheetTask, shot?: string) {
  await row(task.id).getByTestId('task-relate').click();
  const dialog = page.getByTestId('relate-dialog');
  await dialog.waitFor();
  await expect.poll(() => dialog.getByTestId('relate-candidate').count()).toBeGreaterThan(0);
  await dialog.getByTestId('relate-search').fill(front.name);
  await setChecked(dialog.locator(`[data-testid=relate-candidate][data-task-id="${front.id}"]`).getByRole('checkbox'));
  if (shot) await screenshot(shot);
  await dialog.getByTestId('relate-confirm').click();
  await dialog.waitFor({ state: 'detached' });
  await expect.poll(() => row(task.id).locator(`[data-testid=task-predecessor][data-front-id="${front.id}"]`).count()).toBe(1);
}

/** Opens the finish dialog of `task`: its warning's text, and whether the finish is offered. */
async function finishWarning(task: SheetTask, shot?: string): Promise<{ warning: string; offered: boolean }> {
  await row(task.id).getByTestId('task-finish').click();
  const dialog = page.getByTestId('finish-dialog');
  await dialog.waitFor();
  const warning = dialog.getByTestId('predecessor-warning');
  await warning.waitFor({ timeout: 10_000 });
  if (shot) await screenshot(shot);
  const seen = { warning: await warning.innerText(), offered: !(await dialog.getByTestId('finish-confirm').isDisabled()) };
  await dialog.getByTestId('finish-cancel').click();
  await dialog.waitFor({ state: 'detached' });
  return seen;
}

beforeAll(async () => {
  stage = await openE2eStage({ contracts, seed: 13, core: { syncSoonMs: 100, syncBackoffMs: 300 } });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
});

afterAll(() => stage?.close());

describe('predecessor tasks on the performance tab', () => {
  it('signs in, syncs, and finds three unfinished tasks of a plan with no relations', async () => {
    await signInOnPage(stage, admin.username, admin.password);
    await settledSync(stage.core, 60_000);
    const { list } = await call(stage.core, 'ledger.contractPage', { pageSize: 50, pageNum: 1 });
    const open = (task: SheetTask) => task.state === TaskState.NotStarted || task.state === TaskState.InProgress || task.state === TaskState.Overdue;
    for (const contract of list.filter((c) => c.status === 4)) {
      const { plans } = await call(stage.core, 'fulfilment.contract', { contractId: contract.id });
      const related = plans.some((plan) => plan.tasks.some((task) => task.predecessors.length > 0));
      const rows = plans.flatMap((plan) => plan.tasks.filter(open).slice(0, 3));
      if (related || rows.length < 3 || plans.length !== 1) continue;
      contractId = contract.id;
      [first, second, third] = rows as [SheetTask, SheetTask, SheetTask];
      break;
    }
    expect(contractId).toBeDefined();
  }, 120_000);

  it('relates a task to an earlier one online: the row shows it, finishing it warns as the server checks', async () => {
    await openTab();
    await relate(second, first, 'relate-dialog-online-1280x800-en');
    await expect.poll(() => queued(), { timeout: 20_000 }).toBe('0');
    expect(await row(second.id).getByTestId('task-predecessor').innerText()).toBe(first.name);
    const { warning, offered } = await finishWarning(second, 'predecessor-warning-online-1280x800-en');
    expect(warning).toBe(`This task cannot be finished before its predecessor tasks: "${first.name}".`);
    expect(offered).toBe(false);
    // The server's own check names the same task.
    const check = await onServer(stage, admin, 'performanceTaskCheckFront', { query: { contractID: contractId, currentTaskID: second.id } });
    expect(check.list.flatMap((group) => group.taskList.map((task) => task.taskID))).toEqual([first.id]);
  }, 120_000);

  it('relates another with the server stopped: shown at once, waiting to sync, and its finish warns offline', async () => {
    await stage.stopServer();
    await openTab();
    await relate(third, second);
    expect(await row(third.id).getByTestId('task-pending').count()).toBe(1);
    await expect.poll(() => queued()).toBe('1');
    const { warning, offered } = await finishWarning(third, 'predecessor-warning-offline-1280x800-en');
    expect(warning).toBe(`This task cannot be finished before its predecessor tasks: "${second.name}".`);
    expect(offered).toBe(false);
    // The relation made online still holds offline.
    expect((await finishWarning(second)).warning).toContain(first.name);
  }, 120_000);

  it('after the server restarts, REST front_tasks holds each relation exactly once', async () => {
    await stage.startServer();
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
    expect(await frontTasks(third.id)).toEqual([second.id]);
    expect(await frontTasks(second.id)).toEqual([first.id]);
    // The pulled relation replaces the queued one on the row.
    await expect.poll(() => row(third.id).getByTestId('task-pending').count(), { timeout: 20_000 }).toBe(0);
    expect(await row(third.id).getByTestId('task-predecessor').innerText()).toBe(second.name);
  }, 120_000);

  it('removes a relation after confirming', async () => {
    await openTab();
    await row(third.id).getByTestId('predecessor-remove').click();
    expect(await page.getByTestId('unrelate-confirm').innerText()).toBe(`Remove "${second.name}" from the predecessor tasks of "${third.name}"?`);
    await page.locator('.bp6-alert').getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => row(third.id).getByTestId('task-predecessor').count()).toBe(0);
    await expect.poll(() => queued(), { timeout: 20_000 }).toBe('0');
    expect(await frontTasks(third.id)).toEqual([]);
  }, 120_000);

  it('shows the relate dialog and the warning in English and Chinese at 1280×800 and 1440×900', async () => {
    const warnings: Record<string, string> = {
      en: `This task cannot be finished before its predecessor tasks: "${first.name}".`,
      'zh-CN': `该任务须在前置任务完成后才能完成：“${first.name}”。`,
    };
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await openTab();
      await row(third.id).getByTestId('task-relate').click();
      const dialog = page.getByTestId('relate-dialog');
      await expect.poll(() => dialog.getByTestId('relate-candidate').count()).toBeGreaterThanOrEqual(2);
      await setChecked(dialog.locator(`[data-testid=relate-candidate][data-task-id="${first.id}"]`).getByRole('checkbox'));
      if (code === 'zh-CN') expect(await dialog.getByTestId('relate-confirm').innerText()).toBe('关联（1）');
      await screenshot(`relate-dialog-${width}x${height}-${code}`);
      await dialog.getByTestId('relate-cancel').click();
      await dialog.waitFor({ state: 'detached' });
      await screenshot(`performance-tab-predecessors-${width}x${height}-${code}`);
      const { warning } = await finishWarning(second, `predecessor-warning-${width}x${height}-${code}`);
      expect(warning).toBe(warnings[code]);
    });
  }, 180_000);
});
