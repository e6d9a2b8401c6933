import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterpartyMonitoringResults, counterpartyRisks } from '../../src-server/counterparties/schema';
import { contracts, counterparties } from '../../src-server/db/schema';
import { riskReminderPollMs } from '../../src-shared/rules/credit';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';

// The counterparty credit views against a real server (issues 13 and 14): the dashboard's risk
// reminders (polled every 10 minutes while online, "as of" offline), the ledger's credit-risk
// preview and monitoring table opening their pages in new windows, and all of them gone when the
// organisation's credit platform configuration is turned off.

let stage: E2eStage;
let page: Page;
const admin = { username: 'admin', password: 'admin123' };
const party = { id: '', name: 'Harbour Risk Trading Ltd' };
const contract = { id: '', name: 'Harbour credit 2026' };

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 12,
    seed: 21,
    seeded: async (db) => {
      const [row] = await db
        .select({ id: counterparties.id, contractId: contracts.id })
        .from(contracts)
        .innerJoin(counterparties, eq(counterparties.id, contracts.counterpartyId))
        .where(eq(counterparties.type, 2))
        .limit(1);
      party.id = row!.id;
      contract.id = row!.contractId;
      await db.update(contracts).set({ name: contract.name }).where(eq(contracts.id, contract.id));
      await db.update(counterparties).set({ name: party.name, rating: 40 }).where(eq(counterparties.id, party.id));
      await db.delete(counterpartyRisks).where(eq(counterpartyRisks.counterpartyId, party.id));
      await db.delete(counterpartyMonitoringResults).where(eq(counterpartyMonitoringResults.counterpartyId, party.id));
      await db.insert(counterpartyRisks).values([
        { id: 'e2e-risk-1', counterpartyId: party.id, dimensionName: 'Litigation', description: 'Sued by a supplier over unpaid invoices', occurredOn: '2026-02-03' },
        { id: 'e2e-risk-2', counterpartyId: party.id, dimensionName: 'Operations', description: 'Listed for abnormal operation', occurredOn: '2026-05-10' },
      ]);
      await db.insert(counterpartyMonitoringResults).values([
        { id: 'e2e-monitoring-1', counterpartyId: party.id, dimensionName: 'Litigation', info: 'New lawsuit registered', updateTime: new Date('2026-05-11T02:00:00Z') },
      ]);
    },
  });
  page = stage.page;
  // The page's timers run on a clock the test can move: the 10-minute poll without waiting 10 minutes.
  await page.clock.install();
});

afterAll(() => stage?.close());

const reminders = () => page.getByTestId('risk-reminders');
const reminder = (name: string) => page.getByTestId('risk-reminder').filter({ hasText: name });

async function openDashboard() {
  await page.getByTestId('scene-tab-dashboard').click();
  await page.getByTestId('performance-dashboard').waitFor({ timeout: 20_000 });
}

async function openContractsTab() {
  await page.getByTestId('scene-tab-contracts').click();
  await page.getByTestId('ledger-table').waitFor({ timeout: 20_000 });
}

/** Renames the party on the server (the reminders show the party's name as the server has it). */
async function renameParty(name: string) {
  const current = await onServer(stage, admin, 'counterpartyGet', { params: { id: party.id } });
  const { id: _id, updaterName: _updater, createTime: _created, updateTime: _updated, ...input } = current;
  await onServer(stage, admin, 'counterpartyUpdate', { params: { id: party.id }, body: { ...input, name } as never });
}

describe('counterparty credit views in the browser edition', () => {
  it('lists the risk reminders on the dashboard and opens the external detail in a new window', { timeout: 90_000 }, async () => {
    await signInOnPage(stage, admin.username, admin.password);
    await openDashboard();
    const expected = await onServer(stage, admin, 'counterpartRiskAlert');
    await expect.poll(() => page.getByTestId('risk-reminder').count(), { timeout: 20_000 }).toBe(expected.list.length);
    expect(await reminder(party.name).innerText()).toMatch(/2 risks\s+Operations/);
    expect(await page.getByTestId('risk-reminders-as-of').count()).toBe(0);

    const [detail] = await Promise.all([page.context().waitForEvent('page'), reminder(party.name).getByTestId('risk-reminder-open').click()]);
    await detail.waitForLoadState();
    expect(new URL(detail.url()).pathname + new URL(detail.url()).search).toBe(`/manage/oppositeParty/externalDetail?id=${party.id}`);
    await detail.getByTestId('external-detail').waitFor({ timeout: 20_000 });
    expect(await detail.locator('h2').innerText()).toBe(party.name);
    await detail.close();
  });

  it('asks the server again every 10 minutes while online', { timeout: 90_000 }, async () => {
    await renameParty('Harbour Risk Holdings Ltd');
    // Not asked again before the 10 minutes are up...
    await page.clock.fastForward(riskReminderPollMs - 60_000);
    await page.waitForTimeout(1500);
    expect(await reminder(party.name).count()).toBe(1);
    // ...and asked once they are.
    await page.clock.fastForward(61_000);
    await expect.poll(() => reminder('Harbour Risk Holdings Ltd').count(), { timeout: 20_000 }).toBe(1);
    await renameParty(party.name);
    await page.clock.fastForward(riskReminderPollMs);
    await expect.poll(() => reminder(party.name).count(), { timeout: 20_000 }).toBe(1);
  });

  it("previews a contract's credit risk (1000 px) and opens the detail with role and the page it came from", { timeout: 90_000 }, async () => {
    await openContractsTab();
    const row = page.getByTestId('ledger-row').filter({ hasText: contract.name });
    await row.getByTestId('ledger-credit-risk').click();
    const dialog = page.getByTestId('credit-risk-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    // Measured once the dialog's opening animation (a scale transform) has settled.
    await expect.poll(() => page.locator('.credit-dialog').evaluate((element) => element.getBoundingClientRect().width)).toBe(1000);
    expect(await dialog.getByTestId('credit-risk-name').innerText()).toBe(party.name);
    expect(await dialog.getByTestId('credit-risk-count').innerText()).toContain('2');
    expect(await dialog.getByTestId('credit-risk-row').allInnerTexts()).toEqual([
      expect.stringMatching(/^Operations\s+Listed for abnormal operation/),
      expect.stringMatching(/^Litigation\s+Sued by a supplier/),
    ]);
    const from = new URL(page.url());
    const [detail] = await Promise.all([page.context().waitForEvent('page'), dialog.getByTestId('credit-risk-detail').click()]);
    await detail.waitForLoadState();
    const opened = new URL(detail.url());
    expect(opened.pathname).toBe('/manage/oppositeParty/externalDetail');
    expect(opened.searchParams.get('id')).toBe(party.id);
    expect(opened.searchParams.get('role')).toBe('organization');
    expect(opened.searchParams.get('fromPagePathQuery')).toBe(from.pathname + from.search);
    await detail.getByTestId('external-detail').waitFor({ timeout: 20_000 });
    await detail.close();
  });

  it("shows the monitoring table, whose 'view' opens the monitoring page in a new window", { timeout: 90_000 }, async () => {
    await page.getByTestId('credit-risk-monitoring').click();
    const monitoring = page.getByTestId('monitoring-dialog');
    await monitoring.waitFor({ timeout: 20_000 });
    // The dialog opens before its rows are read: wait for them before reading them.
    await monitoring.getByTestId('monitoring-row').first().waitFor({ timeout: 20_000 });
    expect(await monitoring.getByTestId('monitoring-row').allInnerTexts()).toEqual([expect.stringMatching(/^Litigation\s+New lawsuit registered/)]);
    const { url } = await onServer(stage, admin, 'counterpartMonitoringUrl', { params: { id: party.id } });
    const [opened] = await Promise.all([page.context().waitForEvent('page'), monitoring.getByTestId('monitoring-view').click()]);
    await opened.waitForLoadState();
    expect(new URL(opened.url()).pathname + new URL(opened.url()).search).toBe(url);
    await opened.close();
    // Closed by their buttons: after the new window closes, the keyboard focus is not in the dialog.
    await page.locator('.monitoring-dialog .bp6-dialog-close-button').click();
    await monitoring.waitFor({ state: 'detached', timeout: 10_000 });
    await page.locator('.credit-dialog .bp6-dialog-close-button').click();
    await page.getByTestId('credit-risk-dialog').waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('offline: the reminders and the preview as last read, with their time', { timeout: 90_000 }, async () => {
    await stage.stopServer();
    await untilOffline(page);
    await page.reload();
    await openDashboard();
    await reminders().waitFor({ timeout: 20_000 });
    await page.getByTestId('risk-reminders-as-of').waitFor({ timeout: 20_000 });
    expect(await reminder(party.name).count()).toBe(1);
    // A poll offline asks nothing of the server: the kept answer stays, still "as of" its time.
    await page.clock.fastForward(riskReminderPollMs);
    await page.waitForTimeout(500);
    expect(await reminder(party.name).count()).toBe(1);
    expect(await page.getByTestId('risk-reminders-as-of').count()).toBe(1);

    await openContractsTab();
    await page.getByTestId('ledger-row').filter({ hasText: contract.name }).getByTestId('ledger-credit-risk').click();
    await page.getByTestId('credit-risk-as-of').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('credit-risk-row').count()).toBe(2);
    await page.keyboard.press('Escape');
  });

  it('hides every credit view once the configuration is off', { timeout: 120_000 }, async () => {
    await stage.startServer();
    await onServer(stage, admin, 'organisationSettingsUpdate', { body: { creditPlatformEnabled: false } });
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 30_000 }).toBe('true');
    await page.reload();
    await openContractsTab();
    await expect.poll(() => page.getByTestId('ledger-row').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('ledger-credit-risk').count()).toBe(0);
    await openDashboard();
    await page.getByTestId('dashboard-cards').waitFor();
    await page.waitForTimeout(1000);
    expect(await reminders().count()).toBe(0);

    // On again: shown again, from the server's answer.
    await onServer(stage, admin, 'organisationSettingsUpdate', { body: { creditPlatformEnabled: true } });
    await page.reload();
    await openDashboard();
    await expect.poll(() => reminder(party.name).count(), { timeout: 20_000 }).toBe(1);
  });

  it("configures a scene's performance task with the cascader, kept for offline editing", { timeout: 120_000 }, async () => {
    const { performanceList } = await onServer(stage, admin, 'performanceList');
    const chosen = performanceList.find((p) => p.type === 'payable') ?? performanceList[0]!;
    await page.getByTestId('scene-add').click();
    await page.fill('#scene-config-name', 'Payables by task');
    await page.getByTestId('performance-cascader-target').click();
    const option = (name: string) => page.getByTestId('performance-cascader-option').filter({ hasText: name });
    const typeLabel = { receivable: 'Receivable', collection: 'Collection', payable: 'Payable', payment: 'Payment', invoicing: 'Invoicing', expiration: 'Expiration', recall: 'Recall', custom: 'Custom' }[chosen.type];
    await option(typeLabel).first().click();
    await option(chosen.name).first().click();
    expect(await page.getByTestId('performance-cascader-target').innerText()).toBe(`${typeLabel} / ${chosen.name}`);
    await page.getByTestId('scene-config-save').click();
    await expect.poll(async () => (await onServer(stage, admin, 'ledgerScenes')).find((scene) => scene.name === 'Payables by task')?.performanceId, { timeout: 30_000 }).toBe(chosen.id);

    // Offline the dialog still shows the chosen task by name: the performances were kept.
    await stage.stopServer();
    await untilOffline(page);
    await page.getByTestId('scene-manage').click();
    await page.locator('[data-testid=manage-scenes] li').filter({ hasText: 'Payables by task' }).getByTestId('manage-scene-edit').click();
    await expect.poll(() => page.getByTestId('performance-cascader-target').innerText(), { timeout: 20_000 }).toBe(`${typeLabel} / ${chosen.name}`);
    await page.getByTestId('performance-cascader-as-of').waitFor({ timeout: 20_000 });
  });
});
