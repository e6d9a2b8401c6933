import { setChecked } from '../support/e2e-views';
import { readFileSync } from 'node:fs';
import { and, eq, isNotNull, or } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { contracts, users } from '../../src-server/db/schema';
import { performanceTasks } from '../../src-server/performance/schema';
import { TaskState } from '../../src-shared/domain/enums';
import { boardRange } from '../../src-shared/rules/dashboard';
import { organisationDay, organisationZone } from '../../src-shared/rules/performance';
import { call } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { submitSignIn } from '../support/manage-e2e';

// The performance dashboard in the browser edition against a real server (issue 13): counts as
// the server counts them; a quick task and a change of reminder settings made offline, shown at
// once, on the server exactly once after reconnecting; task cards open the contract's
// performance tab (a quick task cannot be opened); the board exported as an .ics file.

let stage: E2eStage;
let page: Page;

const user = { username: 'alice', password: 'alice123' };
const quickTaskName = 'Call the notary (offline)';
const today = organisationDay(new Date());
const dueDate = DateTime.fromISO(today).plus({ days: 2 });
const text = (testId: string) => page.getByTestId(testId).innerText();
const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');
const thisMonth = () => {
  const now = DateTime.now().setZone(organisationZone);
  return { startDate: now.startOf('month').toISODate()!, endDate: now.endOf('month').toISODate()! };
};

async function serverApi() {
  const client = createContractServerClient(stage.server!.url);
  const { token } = await client.call('login', { body: user });
  return { client, token };
}

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 60,
    seed: 13,
    core: { syncSoonMs: 100, syncBackoffMs: 300 },
    // The demo data's dates count back from a fixed day, the board's from today: a task of a
    // contract alice sees (hers or her department's) is made due in three days, so the week and month boards hold one on any day.
    seeded: async (db) => {
      const [alice] = await db.select({ id: users.id, departmentId: users.departmentId }).from(users).where(eq(users.username, user.username));
      const [task] = await db
        .select({ id: performanceTasks.id })
        .from(performanceTasks)
        .innerJoin(contracts, eq(contracts.id, performanceTasks.contractId))
        .where(and(or(eq(contracts.responsibleUserId, alice!.id), eq(contracts.departmentId, alice!.departmentId!)), isNotNull(performanceTasks.expirationTime)))
        .limit(1);
      await db
        .update(performanceTasks)
        .set({ expirationTime: DateTime.fromISO(today).plus({ days: 3 }).toISODate()!, state: TaskState.NotStarted, finishedAt: null, finishedBy: null, completionValues: null, finishedAmount: null })
        .where(eq(performanceTasks.id, task!.id));
    },
  });
  page = stage.page;
});

afterAll(() => stage?.close());

describe('the performance dashboard in the browser edition', () => {
  it('signs in and shows the counts the server counts for this month', async () => {
    await submitSignIn(stage, user.username, user.password);
    await expect.poll(() => queued(), { timeout: 20_000 }).toBe('0');
    await page.getByTestId('scene-tab-dashboard').click();
    const { client, token } = await serverApi();
    const counts = await client.call('performanceStatistics', { token, query: thisMonth() });
    for (const [field, value] of Object.entries(counts)) await expect.poll(() => text(`dashboard-count-${field}`), { timeout: 10_000 }).toBe(String(value));
  });

  it('opens a contract task on its performance tab in a new window, which offers a quick task for its contract', async () => {
    await page.getByText('Month', { exact: true }).click();
    const contractTask = page.locator('[data-testid=dashboard-task]').filter({ hasNot: page.getByText('Quick task', { exact: true }) }).first();
    await expect.poll(() => contractTask.count(), { timeout: 10_000 }).toBe(1);
    const [popup] = await Promise.all([page.waitForEvent('popup'), contractTask.click()]);
    await popup.waitForLoadState();
    const opened = new URL(popup.url());
    expect(opened.pathname).toBe('/contractApproval/detail');
    expect(Object.fromEntries(opened.searchParams)).toMatchObject({ flowId: '0', tab: 'PERFORMANCE_TAB', active: '0' });
    // The contract page offers a quick task related to its contract (the route's id).
    await popup.getByTestId('quick-task-open').click();
    await expect.poll(() => popup.getByTestId('quick-task-contract').inputValue()).toBe(await contractTask.locator('.dashboard-task__meta').first().innerText());
    await popup.close();
  });

  it('adds a quick task offline: refused without content or date, shown at once, queued, and cannot be opened', async () => {
    await stage.stopServer();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
    await page.getByText('Week', { exact: true }).click();
    await page.getByTestId('quick-task-open').click();
    expect(await page.getByTestId('quick-task-create').isDisabled()).toBe(true);
    await page.getByTestId('quick-task-name').focus();
    await page.getByTestId('quick-task-name').blur();
    await expect.poll(() => page.getByText('Please enter the performance content').count()).toBe(1);
    await page.getByTestId('quick-task-name').fill(quickTaskName);
    await page.getByTestId('quick-task-date').locator('input').fill(dueDate.setLocale('en').toFormat('d MMM yyyy'));
    await page.getByTestId('quick-task-name').click();
    await expect.poll(() => page.getByTestId('quick-task-create').isDisabled()).toBe(false);
    await page.getByTestId('quick-task-create').click();
    await expect.poll(() => page.getByText('Create success').count()).toBe(1);
    const card = page.locator('[data-testid=dashboard-task]', { hasText: quickTaskName });
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.innerText()).toContain('Waiting to sync');
    await expect.poll(() => queued()).toBe('1');
    await card.click();
    await expect.poll(() => page.getByText('This is a quick task.').count()).toBe(1);
  });

  it('changes reminder settings offline: at least one time node, then in effect at once', async () => {
    await page.getByTestId('reminder-settings-open').click();
    const kind = page.getByTestId('reminder-settings-receivableTask');
    await expect.poll(() => kind.count()).toBe(1);
    // Untick every time node: refused with the spec's message.
    for (const label of ['3 days before', '1 week before', 'On the due date', 'Other']) {
      await setChecked(kind.getByLabel(label, { exact: true }), false);
    }
    await expect.poll(() => kind.getByText('Please set the reminder for the date or the node time of performance').count()).toBe(1);
    expect(await page.getByTestId('reminder-settings-save').isDisabled()).toBe(true);
    await setChecked(kind.getByLabel('1 week before', { exact: true }));
    await setChecked(kind.getByLabel('Other', { exact: true }));
    for (const label of ['1 day before', '2 days before', '5 days before', '2 weeks before', '1 month before', '1 quarter before']) {
      await setChecked(kind.getByLabel(label, { exact: true }), false);
    }
    await setChecked(kind.getByLabel('2 months before', { exact: true }));
    await page.getByTestId('reminder-settings-save').click();
    await expect.poll(() => page.getByText('Reminder settings saved: reminders follow them now').count()).toBe(1);
    await expect.poll(() => queued()).toBe('2');
    // What the desktop reminders read (the scheduler's settings source) already holds the change.
    expect((await call(stage.core, 'performance.reminderSettings', {})).receivableTask.timeNode).toEqual({ reminderTypes: ['oneWeekBefore', 'other'], otherTimes: ['twoMonths'] });
  });

  it('after reconnecting, each effect is on the server exactly once', async () => {
    const before = await (async () => {
      await stage.startServer();
      const { client, token } = await serverApi();
      return { client, token };
    })();
    await expect.poll(() => queued(), { timeout: 20_000 }).toBe('0');
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
    await stage.core.invoke('sync.now', {});
    const { client, token } = before;
    const days = await client.call('performanceTaskScheduling', { token, query: { startDate: today, endDate: boardRange('week', today).endDate } });
    const made = days.flatMap((day) => day.taskList).filter((task) => task.taskName === quickTaskName);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ contractID: null, type: 'custom', expirationTime: dueDate.toISODate() });
    const settings = await client.call('performanceReminderSettings', { token });
    expect(settings.receivableTask.timeNode).toEqual({ reminderTypes: ['oneWeekBefore', 'other'], otherTimes: ['twoMonths'] });
    // The kinds not changed are as they were (the seeded or default settings of the other kinds).
    expect(settings.paymentTask.timeNode.reminderTypes.length).toBeGreaterThan(0);
    // The pulled task replaces the queued one on the board.
    const card = page.locator('[data-testid=dashboard-task]', { hasText: quickTaskName });
    await expect.poll(() => card.innerText(), { timeout: 10_000 }).not.toContain('Waiting to sync');
    expect(await card.count()).toBe(1);
  });

  it('exports the week as an .ics calendar: one event per task with its due date, contract and counterparty', async () => {
    await page.getByTestId('ics-export').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('ics-week').click()]);
    const ics = readFileSync((await download.path())!, 'utf8');
    const board = await call(stage.core, 'performance.board', { ...boardRange('week', today), perDay: 100_000 });
    const tasks = board.days.flatMap((day) => day.taskList);
    // Unfold the folded lines (RFC 5545), then read the events back.
    const events = ics.replace(/\r\n[ \t]/g, '').split('BEGIN:VEVENT').slice(1);
    expect(events).toHaveLength(tasks.length);
    const quick = events.find((event) => event.includes(`UID:${tasks.find((task) => task.name === quickTaskName)!.id}@contract-desk`));
    expect(quick).toContain(`DTSTART;VALUE=DATE:${dueDate.toFormat('yyyyMMdd')}`);
    expect(quick).toContain(`SUMMARY:${quickTaskName}`);
    // The contract task made due this week (beforeAll) is among them.
    const withContract = tasks.find((task) => task.contractName !== null)!;
    const event = events.find((e) => e.includes(`UID:${withContract.id}@contract-desk`))!;
    expect(event).toContain(`DTSTART;VALUE=DATE:${withContract.dueDate.replaceAll('-', '')}`);
    expect(event.replace(/\\,/g, ',')).toContain(`Contract: ${withContract.contractName}`);
  });
});
