import { and, eq, isNotNull, or } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { contracts, users } from '../../src-server/db/schema';
import { performanceTasks } from '../../src-server/performance/schema';
import { TaskState } from '../../src-shared/domain/enums';
import { kindSettings, settingsForAll } from '../main/reminders-fixtures';
import { call } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages } from '../support/e2e-views';
import { submitSignIn } from '../support/manage-e2e';

// Reminders in the browser edition (issue 28 item 9) against a real server: a task of hers due
// in three days raises a reminder in the top bar's list and, with the permission granted, a
// browser notification; 'remind me in 1 hour' takes it off and brings it back an hour later;
// 'open' opens the contract's performance tab; a click on the notification opens it in the app.

let stage: E2eStage;
let page: Page;

const user = { username: 'alice', password: 'alice123' };
const taskName = 'Collect the deposit (reminder e2e)';
const today = DateTime.utc().startOf('day');
const dueDate = today.plus({ days: 3 }).toISODate()!;
let contractId = '';
/** The core's clock runs this far ahead: the test moves it past a snooze. */
let aheadMs = 0;

/** What the page's Notification calls showed (recorded by the init script). */
type Shown = { title: string; body: string; tag: string };
const notifications = () => page.evaluate(() => (window as unknown as { shownNotifications: Shown[] }).shownNotifications);
const myItem = () => page.locator('[data-testid=reminder-item]', { hasText: taskName });
const bellCount = async () => Number(await page.getByTestId('reminder-bell').getAttribute('data-count'));

async function openList() {
  if (await page.getByTestId('reminder-list').isVisible()) return;
  await page.getByTestId('reminder-bell').click();
  await page.getByTestId('reminder-list').waitFor();
}

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 40,
    seed: 13,
    core: { syncSoonMs: 100, syncBackoffMs: 300, timeZone: () => 'UTC', clock: { now: () => new Date(Date.now() + aheadMs) } },
    // One task of a contract she is responsible for, led by her, made due in three days under a name of its own.
    seeded: async (db) => {
      const [alice] = await db.select({ id: users.id, departmentId: users.departmentId }).from(users).where(eq(users.username, user.username));
      const [task] = await db
        .select({ id: performanceTasks.id, contractId: performanceTasks.contractId })
        .from(performanceTasks)
        .innerJoin(contracts, eq(contracts.id, performanceTasks.contractId))
        .where(and(or(eq(contracts.responsibleUserId, alice!.id), eq(contracts.departmentId, alice!.departmentId!)), isNotNull(performanceTasks.expirationTime)))
        .limit(1);
      contractId = task!.contractId!;
      await db
        .update(performanceTasks)
        .set({ name: taskName, leaderUserId: alice!.id, expirationTime: dueDate, state: TaskState.NotStarted, finishedAt: null, finishedBy: null, completionValues: null, finishedAmount: null })
        .where(eq(performanceTasks.id, task!.id));
    },
    // Her reminders: three days before and on the due date, at midnight, so today's is due whenever the test runs.
    prepare: async (server) => {
      const client = createContractServerClient(server.url);
      const { token } = await client.call('login', { body: user });
      const atMidnight = kindSettings({ timeNode: { reminderTypes: ['threeDaysBefore', 'onDue'], otherTimes: [] }, reminderTime: '00:00' });
      await client.call('performanceReminderSettingsSave', { token, body: settingsForAll(atMidnight) });
    },
  });
  page = stage.page;
  await page.context().grantPermissions(['notifications'], { origin: stage.edition.host.url });
  // Records every notification the app shows, and keeps it so the test can click it.
  await page.addInitScript(() => {
    const Real = window.Notification;
    const shown: { title: string; body: string; tag: string }[] = [];
    const made: Notification[] = [];
    Object.assign(window, { shownNotifications: shown, madeNotifications: made });
    function Recording(title: string, options?: NotificationOptions) {
      shown.push({ title, body: options?.body ?? '', tag: options?.tag ?? '' });
      const notification = new Real(title, options);
      made.push(notification);
      return notification;
    }
    Object.defineProperty(Recording, 'permission', { get: () => Real.permission });
    Object.assign(Recording, { requestPermission: Real.requestPermission.bind(Real) });
    Object.assign(window, { Notification: Recording });
  });
  await page.setViewportSize({ width: 1280, height: 800 });
});

afterAll(() => stage?.close());

describe('reminders in the browser edition', () => {
  it('a task due in three days raises a reminder in the in-app list and a browser notification', async () => {
    await submitSignIn(stage, user.username, user.password);
    await expect.poll(() => page.getByTestId('sync-details').getAttribute('data-queued'), { timeout: 30_000 }).toBe('0');
    await expect.poll(() => bellCount(), { timeout: 20_000 }).toBeGreaterThan(0);
    await openList();
    await expect.poll(() => myItem().count(), { timeout: 10_000 }).toBe(1);
    expect(await myItem().getByTestId('reminder-task').innerText()).toBe(taskName);
    const contractName = (await call(stage.core, 'contract.detail', { id: contractId })).name;
    expect(await myItem().getByTestId('reminder-contract').innerText()).toBe(contractName);
    expect(await myItem().getByTestId('reminder-due').innerText()).toBe(`Due ${DateTime.fromISO(dueDate).setLocale('en').toFormat('d MMM yyyy')}`);
    expect(await myItem().innerText()).toContain('Performance task due soon');
    expect(await page.getByTestId('reminder-notifications').getAttribute('data-access')).toBe('granted');
    expect(await bellCount()).toBe(await page.locator('[data-testid=reminder-item]').count());

    const shown = (await notifications()).filter((notification) => notification.body.includes(taskName));
    expect(shown).toEqual([{ title: 'Performance task due soon', body: expect.stringContaining(`: ${taskName}, due ${DateTime.fromISO(dueDate).setLocale('en').toFormat('d MMM yyyy')}\n${contractName}`), tag: expect.stringContaining('|threeDaysBefore|') }]);
  });

  it('shows the list in both languages at both sizes, with no English in the Chinese UI', async () => {
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await openList();
      await expect.poll(() => myItem().count()).toBe(1);
      const text = await page.getByTestId('reminder-list').innerText();
      if (code === 'zh-CN') {
        expect(text).toContain('到期提醒');
        expect(text).toContain('履约任务即将到期');
        expect(text).toContain(`到期日 ${DateTime.fromISO(dueDate).toFormat('yyyy年MM月dd日')}`);
        expect(text).toContain('1 小时后提醒');
        // Only the tasks' and contracts' own names may be in Latin letters.
        const names = await page.locator('[data-testid=reminder-task], [data-testid=reminder-contract]').allInnerTexts();
        const rest = names.reduce((left, name) => left.replace(name, ''), text);
        expect(rest).not.toMatch(/[A-Za-z]{3,}/);
      }
      await keepScreenshot(page, `browser-reminders-list-${width}x${height}-${code}`);
    });
    await chooseLanguage(page, uiLanguages[0]);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('remind me in 1 hour: off the list at once, back an hour later with a new notification', async () => {
    await openList();
    const before = await bellCount();
    await myItem().getByTestId('reminder-snooze-oneHour').click();
    await expect.poll(() => page.getByText('You will be reminded again in an hour.').count()).toBe(1);
    await expect.poll(() => myItem().count()).toBe(0);
    expect(await bellCount()).toBe(before - 1);
    expect((await call(stage.core, 'reminders.list', {})).some((reminder) => reminder.taskName === taskName)).toBe(false);

    // Half an hour on, still snoozed; an hour on, due again (the scheduler's snooze).
    aheadMs = 30 * 60 * 1000;
    stage.core.reminders.refresh();
    aheadMs = 61 * 60 * 1000;
    stage.core.reminders.refresh();
    await expect.poll(() => myItem().count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await notifications()).filter((notification) => notification.body.includes(taskName)).length).toBe(2);
  });

  it("'open' opens the contract's performance tab in a new window and takes the reminder off the list", async () => {
    await openList();
    const [popup] = await Promise.all([page.waitForEvent('popup'), myItem().getByTestId('reminder-open').click()]);
    await popup.waitForLoadState();
    const opened = new URL(popup.url());
    expect(opened.pathname).toBe('/contractApproval/detail');
    expect(Object.fromEntries(opened.searchParams)).toEqual({ id: contractId, flowId: '0', tab: 'PERFORMANCE_TAB', active: '0' });
    await popup.getByTestId('performance-tab').waitFor({ timeout: 20_000 });
    await expect.poll(() => popup.getByTestId('performance-tab').getByText(taskName).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await popup.close();
    await expect.poll(() => myItem().count()).toBe(0);
  });

  it("a click on the browser notification brings the app forward on the task's performance tab", async () => {
    await page.keyboard.press('Escape');
    await page.evaluate((name) => {
      const { shownNotifications, madeNotifications } = window as unknown as { shownNotifications: Shown[]; madeNotifications: Notification[] };
      const index = shownNotifications.findLastIndex((notification) => notification.body.includes(name));
      madeNotifications[index]!.onclick!(new Event('click'));
    }, taskName);
    await page.getByTestId('performance-tab').waitFor({ timeout: 20_000 });
    const here = new URL(page.url());
    expect(here.pathname).toBe('/contractApproval/detail');
    expect(here.searchParams.get('id')).toBe(contractId);
    expect(here.searchParams.get('tab')).toBe('PERFORMANCE_TAB');
  });
});
