import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { settledSync } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, keepScreenshot, uiLanguages } from '../support/e2e-views';
import { signInOnPage } from '../support/manage-e2e';
import { createContractServerClient } from '../../src-main/core/contract-server/client';

// Issue 32, the offline lock, in the browser edition: alice works signed in; the server stops and
// the laptop's clock moves past the organisation's 30 days. The open app locks by itself: the lock
// screen hides the app, names her, and asks for her password. A wrong one says how long to wait;
// the right one opens the ledger again, from the replica, the server still stopped. Then, the
// server back, an administrator shortens the organisation's days and alice's laptop's own.

const day = 24 * 60 * 60 * 1000;
/** The core's clock runs with the real one, moved ahead by `ahead` (a wait of a second still takes a second). */
let ahead = 0;
const clock = { now: () => new Date(Date.now() + ahead) };
const shotsDir = process.env.LOCK_SCREENSHOTS_DIR ?? '/tmp/shots-lock';
let stage: E2eStage;

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 30, seed: 32, core: { clock, offlineLockCheckMs: 200 } });
}, 120_000);

afterAll(async () => {
  await stage?.close();
});

it('past the days without the server the app locks; a wrong password shows the wait; the right one opens the ledger', { timeout: 240_000 }, async () => {
  const { page } = stage;
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInOnPage(stage, 'alice', 'alice123');
  await settledSync(stage.core, 60_000);

  await stage.stopServer();
  ahead = 30 * day + 60_000;
  const lock = page.getByTestId('offline-lock');
  await lock.waitFor({ timeout: 30_000 });
  // The app's chrome is hidden; the user is named.
  expect(await page.getByTestId('user-menu').count()).toBe(0);
  expect(await page.getByTestId('scene-ledger').count()).toBe(0);
  expect(await page.getByTestId('offline-lock-user').innerText()).toContain('Alice');
  expect(await page.getByTestId('offline-lock-user').innerText()).toContain('30 days');

  // The lock screen in both languages, kept for review.
  mkdirSync(shotsDir, { recursive: true });
  for (const language of uiLanguages) {
    await chooseLanguage(page, language);
    await page.screenshot({ path: join(shotsDir, `offline-lock-1280x800-${language.code}.png`), animations: 'disabled' });
  }
  await chooseLanguage(page, uiLanguages[0]);

  // A wrong password: refused, with the wait counted down and the button held until it ends.
  const password = page.getByTestId('offline-lock-password');
  const unlock = page.getByTestId('offline-lock-unlock');
  const refusal = page.getByTestId('offline-lock-refusal');
  await password.fill('alice12');
  await unlock.click();
  // Its one-second wait may be over by the time a loaded machine reads it: the longer ones are read below.
  await expect.poll(() => refusal.innerText(), { timeout: 20_000 }).toMatch(/^Wrong password\.( Try again in 1 s\.)?$/);
  expect(await password.inputValue()).toBe('');
  // Each wrong try waits twice as long (2 s, then 4 s), in either language.
  for (const [index, language] of uiLanguages.entries()) {
    await chooseLanguage(page, language);
    await password.fill('alice1');
    await unlock.click({ timeout: 30_000 });
    const seconds = 2 ** (index + 1);
    await expect.poll(() => refusal.innerText(), { timeout: 20_000 }).toContain(language.code === 'en' ? `Try again in ${seconds} s.` : `请 ${seconds} 秒后重试。`);
    await password.fill('alice123');
    expect(await unlock.isDisabled()).toBe(true);
    await page.screenshot({ path: join(shotsDir, `offline-lock-wait-1280x800-${language.code}.png`), animations: 'disabled' });
    await keepScreenshot(page, `offline-lock-wait-1280x800-${language.code}`);
    await expect.poll(() => unlock.isEnabled(), { timeout: 30_000 }).toBe(true);
  }
  await chooseLanguage(page, uiLanguages[0]);

  // The right one, once the wait is over, opens the ledger, the server still stopped.
  await password.fill('alice123');
  await unlock.click({ timeout: 30_000 });
  await page.getByTestId('scene-ledger').waitFor({ timeout: 30_000 });
  await page.getByTestId('user-menu').waitFor();
  expect(stage.server).toBeNull();
  expect(await lock.count()).toBe(0);
});

it("an administrator sets the organisation's days and shortens a device's, never past the organisation's", { timeout: 240_000 }, async () => {
  const { page } = stage;
  await stage.startServer();
  await page.getByTestId('user-menu').click();
  await page.getByTestId('sign-out').click();
  await signInOnPage(stage, 'admin', 'admin123');

  // Settings → Organisation: 10 days.
  await page.getByTestId('nav-organisation').click();
  const days = page.getByTestId('offline-lock-days');
  await expect.poll(() => days.inputValue(), { timeout: 30_000 }).toBe('30');
  await days.fill('400');
  expect(await page.getByTestId('offline-lock-days-save').isDisabled()).toBe(true);
  await days.fill('10');
  await page.getByTestId('offline-lock-days-save').click();
  const admin = createContractServerClient(stage.serverUrl);
  const { token } = await admin.call('login', { body: { username: 'admin', password: 'admin123' } });
  await expect.poll(async () => (await admin.call('organisationSettings', { token })).offlineLockDays, { timeout: 20_000 }).toBe(10);
  for (const language of uiLanguages) {
    await chooseLanguage(page, language);
    await page.screenshot({ path: join(shotsDir, `organisation-offline-lock-1280x800-${language.code}.png`), animations: 'disabled' });
  }
  await chooseLanguage(page, uiLanguages[0]);

  // Settings → Devices: alice's laptop, 20 days refused (longer than the organisation's), 5 kept.
  const laptop = (await admin.call('adminDevices', { token })).find((device) => device.username === 'alice')!;
  await page.getByTestId('nav-devices').click();
  const row = page.locator(`[data-testid="device-row"][data-device-id="${laptop.id}"]`);
  await expect.poll(() => row.getByTestId('device-offline-lock').innerText(), { timeout: 30_000 }).toBe("10 days (the organisation's)");
  const dialog = page.getByTestId('device-offline-lock-dialog');
  for (const language of uiLanguages) {
    await chooseLanguage(page, language);
    await row.getByTestId('device-offline-lock-edit').click();
    await page.getByTestId('device-offline-lock-days').fill('20');
    expect(await page.getByTestId('device-offline-lock-save').isDisabled()).toBe(true);
    await page.screenshot({ path: join(shotsDir, `device-offline-lock-1280x800-${language.code}.png`), animations: 'disabled' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }
  await chooseLanguage(page, uiLanguages[0]);
  await row.getByTestId('device-offline-lock-edit').click();
  await page.getByTestId('device-offline-lock-days').fill('5');
  await page.getByTestId('device-offline-lock-save').click();
  await expect.poll(() => row.getByTestId('device-offline-lock').innerText(), { timeout: 20_000 }).toBe('5 days');
  expect((await admin.call('adminDevices', { token })).find((device) => device.id === laptop.id)?.offlineLockDays).toBe(5);
});
