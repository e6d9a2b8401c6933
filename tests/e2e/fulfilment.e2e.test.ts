import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { TaskState } from '../../src-shared/domain/enums';
import type { TaskCard } from '../../src-shared/domain/performance';
import type { PlanSheet, SheetTask } from '../../src-shared/ipc/fulfilment';
import { formatDay } from '../../src-renderer/i18n/format';
import { call } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { inEachLanguageAndSize, keepScreenshot, setChecked } from '../support/e2e-views';
import { submitSignIn } from '../support/manage-e2e';

// The performance tab in the browser edition (issue 13): with the server stopped, a task is
// finished through the finish dialog with its extra fields, two are finished in a batch, a row is
// deleted and a finished task restored after the confirmation; each shows at once as waiting to
// sync. With the server back the queue drains, and the server's REST API has each effect once.

const contracts = 40;
let stage: E2eStage;
let page: Page;
const before = new Map<string, TaskCard>();

const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');
const row = (taskId: string) => page.locator(`[data-testid=contract-task][data-task-id="${taskId}"]`).first();

const screenshot = (name: string) => keepScreenshot(page, name);

async function restTasks(contractId: string): Promise<Map<string, TaskCard>> {
  const client = createContractServerClient(stage.server!.url);
  const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
  const response = await fetch(`${stage.server!.url}/api/v1/performances/task/by_contract?contractID=${contractId}`, { headers: { authorization: `Bearer ${token}` } });
  const { data } = (await response.json()) as { data: { list: TaskCard[] } };
  return new Map(data.list.map((task) => [task.id, task]));
}

const open = (task: SheetTask) => task.state !== TaskState.Success;
const firstOpen = (plan: PlanSheet, n: number) => {
  const start = plan.tasks.findIndex(open);
  const rows = start < 0 ? [] : plan.tasks.slice(start, start + n);
  return rows.length === n && rows.every(open) && rows.every((task) => task.state !== TaskState.Incomplete) ? rows : null;
};

interface Picked {
  contractId: string;
  tasks: SheetTask[];
}
const picked: Record<'single' | 'batch' | 'deleting' | 'restoring', Picked> = {} as never;
/** A plan edited row by row offline: a row is added through '+增加一行'. */
let edited: { contractId: string; planId: string };
const addedRow = 'Offline added row';

async function openTab(contractId: string) {
  await page.goto(`${stage.edition.host.url}/contractApproval/detail?${new URLSearchParams({ id: contractId, flowId: '0', tab: 'PERFORMANCE_TAB', active: '0' })}`);
  await page.getByTestId('performance-tab').waitFor({ timeout: 20_000 });
}

/** Fills the completion form's required date (the form's display format) and confirms. */
async function confirmFinish(extra?: () => Promise<void>) {
  const dialog = page.getByTestId('finish-dialog');
  await dialog.waitFor();
  await dialog.locator('#contract-form-input-finishDate').fill(formatDay('2026-11-20', 'en'));
  await dialog.locator('#contract-form-input-finishDate').press('Enter');
  const amount = dialog.locator('#contract-form-input-finishAmount');
  if ((await amount.count()) > 0) await amount.fill('1234.5');
  await extra?.();
  await screenshot('finish-dialog-1280x800-en');
  await dialog.getByTestId('finish-confirm').click();
  await dialog.waitFor({ state: 'detached' });
}

beforeAll(async () => {
  stage = await openE2eStage({ contracts, seed: 13, core: { syncSoonMs: 100, syncBackoffMs: 300 } });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
});

afterAll(() => stage?.close());

describe('the performance tab offline', () => {
  it('signs in, syncs, and finds the tasks to work on', async () => {
    await submitSignIn(stage, 'admin', 'admin123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('ledger-count-all').innerText(), { timeout: 30_000 }).toBe(String(contracts));
    await expect.poll(() => queued()).toBe('0');
    const list = [];
    for (let pageNum = 1; pageNum <= 1; pageNum += 1) list.push(...(await call(stage.core, 'ledger.contractPage', { pageSize: 50, pageNum })).list);
    const plans = [];
    for (const contract of list.filter((c) => c.status === 4)) {
      for (const plan of (await call(stage.core, 'fulfilment.contract', { contractId: contract.id })).plans) plans.push({ contractId: contract.id, plan });
    }
    const withOpen = plans.filter((p) => firstOpen(p.plan, 2) && p.plan.tasks.some((task) => task.state === TaskState.Success));
    expect(withOpen.length).toBeGreaterThanOrEqual(4);
    const [a, b, c, d] = withOpen;
    picked.single = { contractId: a!.contractId, tasks: firstOpen(a!.plan, 1)! };
    picked.batch = { contractId: b!.contractId, tasks: firstOpen(b!.plan, 2)! };
    picked.deleting = { contractId: c!.contractId, tasks: [firstOpen(c!.plan, 2)![1]!] };
    picked.restoring = { contractId: d!.contractId, tasks: [d!.plan.tasks.filter((task) => task.state === TaskState.Success).at(-1)!] };
    const used = new Set(Object.values(picked).map((p) => p.contractId));
    const editable = plans.find((p) => !used.has(p.contractId) && p.plan.conditionType !== 2 && p.plan.tasks.length > 0)!;
    edited = { contractId: editable.contractId, planId: editable.plan.id };
    for (const { contractId } of Object.values(picked)) for (const [id, task] of await restTasks(contractId)) before.set(id, task);
  }, 120_000);

  it('finishes, batch-finishes, deletes and restores with the server stopped: each shown at once, waiting to sync', async () => {
    await stage.stopServer();
    await openTab(picked.single.contractId);
    const single = picked.single.tasks[0]!;
    await row(single.id).getByTestId('task-finish').click();
    await confirmFinish(async () => {
      await page.locator('#contract-form-input-description').fill('Paid in full, offline');
    });
    await expect.poll(() => row(single.id).getAttribute('data-state')).toBe(String(TaskState.Success));
    expect(await row(single.id).getByTestId('task-pending').count()).toBe(1);
    await screenshot('performance-tab-offline-1280x800-en');

    await openTab(picked.batch.contractId);
    for (const task of picked.batch.tasks) await setChecked(row(task.id).getByRole('checkbox'));
    await page.locator('[data-testid=performance-plan]', { has: row(picked.batch.tasks[0]!.id) }).getByTestId('batch-finish').click();
    await confirmFinish();
    for (const task of picked.batch.tasks) await expect.poll(() => row(task.id).getAttribute('data-state')).toBe(String(TaskState.Success));

    await openTab(picked.deleting.contractId);
    const deleted = picked.deleting.tasks[0]!;
    await row(deleted.id).getByTestId('task-delete').click();
    // The confirmation's button, not a row's 'Delete' (the confirmation may still be opening).
    await page.locator('.bp6-alert').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => row(deleted.id).count()).toBe(0);

    await openTab(picked.restoring.contractId);
    const restored = picked.restoring.tasks[0]!;
    await row(restored.id).getByTestId('task-restore').click();
    expect(await page.getByTestId('restore-confirm').innerText()).toBe('Are you sure you want to restore this task?');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => row(restored.id).getAttribute('data-state')).not.toBe(String(TaskState.Success));

    await openTab(edited.contractId);
    const plan = page.locator(`[data-testid=performance-plan][data-plan-id="${edited.planId}"]`);
    await plan.getByTestId('sheet-edit').click();
    const rowsBefore = await plan.getByTestId('sheet-edit-row').count();
    await plan.getByTestId('sheet-add-row').click();
    const added = plan.getByTestId('sheet-edit-row').last();
    await added.getByTestId('sheet-edit-name').fill(addedRow);
    // Blueprint's date picker in the UI's language (UI.md), typed as it shows dates.
    await added.getByTestId('sheet-edit-date').locator('input').fill('15 Dec 2026');
    // The amount column of the plan's performance is required (spec 5): its cell is filled too.
    for (const column of ['receivableAmount', 'payableAmount']) {
      const amount = added.getByTestId(`sheet-edit-${column}`);
      if ((await amount.count()) > 0) await amount.fill('100');
    }
    await added.getByTestId('sheet-edit-name').click();
    expect(await plan.getByTestId('sheet-edit-row').count()).toBe(rowsBefore + 1);
    await screenshot('sheet-editor-1280x800-en');
    await plan.getByTestId('sheet-save').click();
    await plan.getByTestId('sheet-editor').waitFor({ state: 'detached' });
    await expect.poll(() => plan.getByTestId('contract-task').filter({ hasText: addedRow }).count()).toBe(1);
    expect(await plan.getByTestId('plan-pending').count()).toBe(1);
    await expect.poll(() => queued()).toBe('5');
  }, 120_000);

  it('drains once the server is back: each effect is on the server exactly once', async () => {
    await stage.startServer();
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
    const after = new Map<string, TaskCard>();
    for (const { contractId } of Object.values(picked)) for (const [id, task] of await restTasks(contractId)) after.set(id, task);
    const once = (id: string) => expect(after.get(id)!.version).toBe(before.get(id)!.version + 1);
    const single = picked.single.tasks[0]!.id;
    expect(after.get(single)!.taskState).toBe(TaskState.Success);
    once(single);
    for (const task of picked.batch.tasks) {
      expect(after.get(task.id)!.taskState).toBe(TaskState.Success);
      once(task.id);
    }
    expect(after.has(picked.deleting.tasks[0]!.id)).toBe(false);
    const restored = picked.restoring.tasks[0]!.id;
    expect(after.get(restored)!.taskState).not.toBe(TaskState.Success);
    once(restored);
    const sheet = [...(await restTasks(edited.contractId)).values()].filter((task) => task.taskName === addedRow);
    expect(sheet).toHaveLength(1);
    expect(sheet[0]!.expirationTime).toContain('2026-12-15');
  }, 60_000);

  it('shows the sheet and the finish dialog in English and Chinese at 1280×800 and 1440×900', async () => {
    // The seeded performances keep the default column and field names, which the server writes in
    // English: in Chinese no header or field label is left in Latin letters.
    const inLanguage = async (headers: Locator, code: string) => {
      // The sheet is read from the replica after the tab shows.
      await expect.poll(() => headers.count()).toBeGreaterThan(0);
      const shown = await headers.allInnerTexts();
      if (code === 'zh-CN') expect(shown.filter((text) => /[A-Za-z]/.test(text))).toEqual([]);
      else expect(shown.join(' ')).toMatch(/Performance (content|date)/);
    };
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await openTab(picked.batch.contractId);
      await screenshot(`performance-tab-${width}x${height}-${code}`);
      await inLanguage(page.getByTestId('contract-tasks').first().locator('th'), code);
      await row(picked.batch.tasks[0]!.id).getByTestId('task-view').click();
      await page.getByTestId('finish-dialog').waitFor();
      await screenshot(`finish-view-${width}x${height}-${code}`);
      const labels = page.getByTestId('finish-dialog').locator('.contract-form__row label');
      // The completion form comes from the replica after the dialog opens.
      await expect.poll(() => labels.count()).toBeGreaterThan(0);
      if (code === 'zh-CN') expect((await labels.allInnerTexts()).filter((text) => /[A-Za-z]/.test(text))).toEqual([]);
      else expect(await labels.allInnerTexts()).toContainEqual(expect.stringMatching(/^Completion date/));
      await page.getByTestId('finish-close').click();
      await openTab(edited.contractId);
      await page.locator(`[data-testid=performance-plan][data-plan-id="${edited.planId}"]`).getByTestId('sheet-edit').click();
      await screenshot(`sheet-editor-${width}x${height}-${code}`);
      await inLanguage(page.locator(`[data-testid=performance-plan][data-plan-id="${edited.planId}"] th`), code);
      await page.goto(stage.edition.host.url);
      await page.getByTestId('scene-tab-dashboard').click({ timeout: 30_000 });
      await page.getByTestId('dashboard-cards').waitFor();
      await screenshot(`dashboard-${width}x${height}-${code}`);
    });
  }, 120_000);
  it('offers no finish while an alteration of the contract waits to sync offline, and says why, in English and Chinese', async () => {
    await stage.stopServer();
    const { contractId } = picked.batch;
    await call(stage.core, 'contract.alter', { id: contractId, formValues: { remark: 'Changed on the train' }, reason: 'Offline change' });
    const texts: Record<string, string> = { en: 'An alteration of this contract is waiting to be sent to the server: its tasks can be finished once it has been sent.', 'zh-CN': '该合同有一项变更尚未发送到服务器，发送后才能完成其任务。' };
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await openTab(contractId);
      expect(await page.getByTestId('contract-alteration-queued').innerText()).toBe(texts[code]);
      expect(await page.getByTestId('batch-finish').first().isDisabled()).toBe(true);
      expect(await page.getByTestId('task-finish').count()).toBe(0);
      await screenshot(`performance-tab-alteration-queued-${width}x${height}-${code}`);
    });
  }, 120_000);
});
