import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { openBrowserEdition, type BrowserEdition } from '../support/browser';
import { testCore } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { inEachLanguageAndSize, keepScreenshot } from '../support/e2e-views';
import { tempDir } from '../support/temp';

// Issue 32, devices: alice signs in on two web hosts; an administrator revokes one of them. At its
// next sync that one erases its data and says why on a screen of its own; the other keeps working
// and lists both devices, itself marked and the other revoked.

let stage: E2eStage;
const secondDir = tempDir('device-revocation-second-');
let secondCore: Core;
let second: BrowserEdition;
const adminDir = tempDir('device-revocation-admin-');
let adminCore: Core;
let adminDesk: BrowserEdition;

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 30, seed: 29 });
  secondCore = testCore(secondDir.path, { serverUrl: stage.serverUrl, systemLocale: 'en-US', connectivityProbeMs: 300 });
  second = await openBrowserEdition(secondCore);
  adminCore = testCore(adminDir.path, { serverUrl: stage.serverUrl, systemLocale: 'en-US', connectivityProbeMs: 300 });
  adminDesk = await openBrowserEdition(adminCore);
}, 120_000);

afterAll(async () => {
  await adminDesk?.close();
  await adminCore?.close();
  adminDir.cleanup();
  await second?.close();
  await secondCore?.close();
  secondDir.cleanup();
  await stage?.close();
});

async function signIn(edition: BrowserEdition, username: string, password: string) {
  const page = edition.page;
  await page.goto(edition.host.url);
  await expect.poll(() => page.locator('#signin-server').inputValue()).not.toBe('');
  await page.locator('#signin-username').fill(username);
  await page.locator('#signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await page.getByTestId('user-menu').waitFor({ timeout: 30_000 });
}

it('the revoked host erases its data and shows why at its next sync; the other keeps working', { timeout: 240_000 }, async () => {
  await signIn(stage.edition, 'alice', 'alice123');
  await signIn(second, 'alice', 'alice123');

  const admin = createContractServerClient(stage.serverUrl);
  const { token } = await admin.call('login', { body: { username: 'admin', password: 'admin123' } });
  const secondId = (JSON.parse(readFileSync(join(secondDir.path, 'device.json'), 'utf8')) as { id: string }).id;
  const device = (await admin.call('adminDevices', { token })).find((row) => row.username === 'alice' && row.deviceId === secondId)!;

  // The administrator revokes it from the settings, filtered to alice, after confirming with a reason.
  await signIn(adminDesk, 'admin', 'admin123');
  const desk = adminDesk.page;
  await desk.getByTestId('nav-devices').click();
  await desk.getByTestId('devices-table').waitFor({ timeout: 30_000 });
  const alice = await desk.locator('#devices-user-filter option', { hasText: 'Alice' }).getAttribute('value');
  await desk.getByTestId('devices-user-filter').selectOption(alice!);
  await expect.poll(() => desk.getByTestId('device-row').count(), { timeout: 20_000 }).toBe(2);
  await desk.locator(`[data-testid="device-row"][data-device-id="${device.id}"]`).getByTestId('device-revoke').click();
  expect(await desk.getByTestId('device-revoke-confirm').isDisabled()).toBe(true);
  await desk.getByTestId('device-revoke-reason').fill('Laptop reported stolen');
  for (const size of [{ width: 1280, height: 800 }, { width: 1440, height: 900 }]) {
    await desk.setViewportSize(size);
    await keepScreenshot(desk, `admin-devices-revoke-${size.width}x${size.height}-en`);
  }
  await desk.getByTestId('device-revoke-confirm').click();
  await expect.poll(() => desk.locator(`[data-testid="device-row"][data-device-id="${device.id}"]`).innerText(), { timeout: 20_000 }).toContain('Revoked: Laptop reported stolen');

  // Its next sync is refused: it erases what it kept and says why.
  void secondCore.invoke('sync.now', {});
  await second.page.getByTestId('device-revoked').waitFor({ timeout: 60_000 });
  expect(await second.page.getByTestId('device-revoked-reason').innerText()).toContain('Laptop reported stolen');
  expect(readdirSync(join(secondDir.path, 'replicas'))).toEqual([]);
  for (const size of [{ width: 1280, height: 800 }, { width: 1440, height: 900 }]) {
    await second.page.setViewportSize(size);
    await keepScreenshot(second.page, `device-revoked-${size.width}x${size.height}-en`);
  }
  await second.page.getByTestId('device-revoked-continue').click();
  await second.page.getByTestId('signin-submit').waitFor();

  // The other host keeps working: it syncs, and lists both devices.
  const page = stage.page;
  await page.getByTestId('user-menu').click();
  await page.getByTestId('my-devices-menu').click();
  const rows = page.getByTestId('device-row');
  await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
  const revokedRow = page.locator(`[data-testid="device-row"][data-device-id="${device.id}"]`);
  expect(await revokedRow.innerText()).toContain('Revoked: Laptop reported stolen');
  expect(await page.locator('[data-testid="device-row"]:has([data-testid="this-device"])').count()).toBe(1);
  expect(await revokedRow.getByTestId('this-device').count()).toBe(0);
  const status = await stage.core.invoke('sync.now', {});
  expect(status.ok).toBe(true);
  await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
    await page.getByTestId('devices-table').waitFor();
    await keepScreenshot(page, `my-devices-${width}x${height}-${code}`);
  });
});
