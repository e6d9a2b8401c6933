import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages } from '../support/e2e-views';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';

// Intellectual property against the real server (issue 15): the organisations (create with the
// name required, edit, delete), the rights list with pages, a right's page: edit with the
// server's messages, status change, transfer, history entries (add, edit, delete), delete;
// offline, the list as last read with its time and a write refused at once. Issue 31: a right
// created, edited and deleted in the app; the import's template and errors in the user's language.

let stage: E2eStage;
let page: Page;
const admin = { username: 'admin', password: 'admin123' };
const dialog = () => page.getByRole('dialog');
const submit = () => page.getByTestId('dialog-submit').click();
let rightId = '';

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 10, seed: 17 });
  page = stage.page;
});

afterAll(() => stage?.close());

async function typeDate(id: string, text: string) {
  await page.fill(`#${id}`, text);
  await page.press(`#${id}`, 'Tab');
}

describe('intellectual property', () => {
  it('creates an organisation (the name is required) and edits it', { timeout: 90_000 }, async () => {
    await signInOnPage(stage, admin.username, admin.password);
    await page.getByTestId('nav-intellectualProperty').click();
    await page.getByRole('tab', { name: 'Organizations' }).click();
    await page.getByTestId('ip-org-create').click();
    await submit();
    await expect.poll(() => dialog().getByText('Please enter the name').count()).toBe(1);
    await page.fill('#ip-org-name', 'E2E Holder Ltd');
    await page.fill('#ip-org-contactName', 'Zhang San');
    await submit();
    await expect.poll(() => dialog().count()).toBe(0);
    const row = page.getByTestId('ip-org-row').filter({ hasText: 'E2E Holder Ltd' });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'Edit' }).click();
    await page.fill('#ip-org-name', 'E2E Holder Co');
    await submit();
    await expect.poll(() => page.getByTestId('ip-org-row').filter({ hasText: 'E2E Holder Co' }).count()).toBe(1);
    expect((await onServer(stage, admin, 'ipOrganizationList', { query: { q: 'E2E Holder' } })).list).toEqual([
      expect.objectContaining({ name: 'E2E Holder Co', contactName: 'Zhang San' }),
    ]);
  });

  it('lists the rights with pages and opens one', { timeout: 60_000 }, async () => {
    await page.getByRole('tab', { name: 'Rights' }).click();
    const all = await onServer(stage, admin, 'ipList', { query: { pageSize: '20' } });
    await expect.poll(() => page.getByTestId('ip-row').count(), { timeout: 20_000 }).toBe(Math.min(20, all.count));
    expect(await page.getByTestId('pager-total').innerText()).toContain(String(all.count));
    // One whose status can still change (a filed or registered right).
    const first = all.list.find((right) => right.status === 'filed' || right.status === 'registered')!;
    rightId = first.id;
    await page.getByTestId('ip-row').nth(all.list.indexOf(first)).getByRole('button', { name: first.name }).click();
    await expect.poll(() => page.getByTestId('ip-name').innerText()).toBe(first.name);
  });

  it('edits the right with the spec’s messages, then saves it', { timeout: 60_000 }, async () => {
    await page.getByTestId('ip-edit').click();
    await page.fill('#ip-registrationNumber', '');
    await typeDate('ip-applicationDate', '10 Mar 2024');
    await typeDate('ip-expirationDate', '1 Jan 2024');
    await submit();
    await expect.poll(() => dialog().getByText('Please enter the registration number').count()).toBe(1);
    expect(await dialog().getByText('The expiration date cannot be earlier than the application date').count()).toBe(1);
    await page.fill('#ip-registrationNumber', 'E2E-REG-001');
    await typeDate('ip-expirationDate', '10 Mar 2034');
    await page.fill('#ip-remark', 'Checked by the e2e test');
    await submit();
    await expect.poll(() => dialog().count()).toBe(0);
    const saved = await onServer(stage, admin, 'ipGet', { params: { id: rightId } });
    expect(saved).toMatchObject({ registrationNumber: 'E2E-REG-001', applicationDate: '2024-03-10', expirationDate: '2034-03-10', remark: 'Checked by the e2e test' });
  });

  it('transfers the right and changes its status', { timeout: 60_000 }, async () => {
    await page.getByTestId('ip-transfer').click();
    await submit();
    await expect.poll(() => dialog().getByText('Please enter the transfer date').count()).toBe(1);
    await page.selectOption('#ip-transfer-to', { label: 'E2E Holder Co' });
    await typeDate('ip-transfer-date', '1 Nov 2026');
    await page.fill('#ip-transfer-reason', 'Group restructuring');
    await submit();
    await expect.poll(() => page.getByTestId('ip-transfer-row').filter({ hasText: 'E2E Holder Co' }).count()).toBe(1);
    expect((await onServer(stage, admin, 'ipGet', { params: { id: rightId } })).ownerOrganizationName).toBe('E2E Holder Co');

    await page.getByTestId('ip-status').click();
    // The dialog opens on the next render: its options are waited for, not read at once.
    await expect.poll(() => page.locator('#ip-new-status option').allInnerTexts()).toContain('Invalidated');
    await page.selectOption('#ip-new-status', 'invalidated');
    await submit();
    await expect.poll(async () => (await onServer(stage, admin, 'ipGet', { params: { id: rightId } })).status).toBe('invalidated');
    await expect.poll(() => page.getByTestId('ip-facts').innerText()).toContain('Invalidated');
  });

  it('adds, edits and deletes a history entry', { timeout: 60_000 }, async () => {
    const before = (await onServer(stage, admin, 'ipGet', { params: { id: rightId } })).records.length;
    await page.getByTestId('ip-add-record').click();
    await submit();
    await expect.poll(() => dialog().getByText('Please enter the title').count()).toBe(1);
    await page.selectOption('#ip-record-kind', 'annual_fee');
    await typeDate('ip-record-date', '5 Nov 2026');
    await page.fill('#ip-record-title', 'Annual fee 2026');
    await submit();
    const entry = page.getByTestId('ip-record').filter({ hasText: 'Annual fee 2026' });
    await expect.poll(() => entry.count()).toBe(1);
    await entry.getByRole('button', { name: 'Edit' }).click();
    await page.fill('#ip-record-title', 'Annual fee 2026 paid');
    await submit();
    await expect.poll(() => page.getByTestId('ip-record').filter({ hasText: 'Annual fee 2026 paid' }).count()).toBe(1);
    const records = (await onServer(stage, admin, 'ipGet', { params: { id: rightId } })).records;
    expect(records).toHaveLength(before + 1);
    expect(records).toContainEqual(expect.objectContaining({ kind: 'annual_fee', recordDate: '2026-11-05', title: 'Annual fee 2026 paid' }));
    await page.getByTestId('ip-record').filter({ hasText: 'Annual fee 2026 paid' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('ip-record').filter({ hasText: 'Annual fee 2026 paid' }).count()).toBe(0);
    expect((await onServer(stage, admin, 'ipGet', { params: { id: rightId } })).records).toHaveLength(before);
  });

  it('deletes the right and the organisation', { timeout: 60_000 }, async () => {
    await page.getByTestId('ip-delete').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.url()).toMatch(/\/ip$/);
    await expect(onServer(stage, admin, 'ipGet', { params: { id: rightId } })).rejects.toMatchObject({ error: { code: 'not_found' } });
    await page.getByRole('tab', { name: 'Organizations' }).click();
    const row = page.getByTestId('ip-org-row').filter({ hasText: 'E2E Holder Co' });
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await onServer(stage, admin, 'ipOrganizationList', { query: { q: 'E2E Holder' } })).list).toEqual([]);
  });

  it('imports from a file: two bad rows previewed with their errors, nothing written until confirmed, then only the good rows', { timeout: 90_000 }, async () => {
    // The server takes an import all or nothing; the dialog sends only the rows its preview found good.
    const owner = (await onServer(stage, admin, 'ipOrganizationList')).list[0]!.name;
    const csv = [
      'name,type,registrationNumber,ownerOrganizationName,status,applicationDate,registrationDate,expirationDate,remark',
      `E2E import one,patent,E2E-IMP-1,${owner},filed,2024-01-10,,,`,
      `,patent,E2E-IMP-2,${owner},filed,2024-01-11,,,`,
      `E2E import three,trademark,E2E-IMP-3,No Such Holder,registered,2023-01-01,2024-01-01,2034-01-01,`,
      `E2E import four,software_copyright,E2E-IMP-4,${owner},registered,2023-05-01,2023-06-01,,`,
    ].join('\r\n');
    const imported = async () => (await onServer(stage, admin, 'ipList', { query: { q: 'E2E-IMP', pageSize: '50' } })).list.map((right) => right.registrationNumber).sort();
    await page.getByRole('tab', { name: 'Rights' }).click();
    await page.getByTestId('ip-import').click();
    await page.selectOption('#ip-import-template-type', 'trademark');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('ip-import-template').click()]);
    expect(download.suggestedFilename()).toBe('Intellectual property import template (Trademark).csv');
    expect(readFileSync((await download.path())!, 'utf8')).toMatch(/^\uFEFFName,Type,Registration number,Owner,Status,.*\r\n.*,Trademark,/);
    await page.setInputFiles('#ip-import-file', { name: 'rights.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`) });
    await expect.poll(() => page.getByTestId('ip-import-row').count()).toBe(4);
    expect(await page.getByTestId('ip-import-summary').innerText()).toBe('4 rows: 2 ready, 2 with errors. Rows with errors are not imported.');
    const bad = page.locator('[data-testid="ip-import-row"][data-valid="false"]');
    expect(await bad.count()).toBe(2);
    expect(await bad.nth(0).innerText()).toContain('Name: Please enter the name');
    expect(await bad.nth(1).innerText()).toContain('Owner: Unknown organization “No Such Holder”');
    // Previewed, not written.
    expect(await imported()).toEqual([]);

    await page.getByTestId('ip-import-confirm').click();
    await expect.poll(() => page.getByTestId('ip-import-result').innerText(), { timeout: 20_000 }).toBe('2 rights imported; rows with errors skipped: 2.');
    expect(await imported()).toEqual(['E2E-IMP-1', 'E2E-IMP-4']);
    await page.getByTestId('ip-import-close').click();

    // The same file again: the preview cannot know the register, the server refuses the whole import and names the rows.
    await page.getByTestId('ip-import').click();
    await page.setInputFiles('#ip-import-file', { name: 'rights.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByTestId('ip-import-row').count()).toBe(4);
    await page.getByTestId('ip-import-confirm').click();
    await expect.poll(() => page.getByTestId('ip-import-result').innerText(), { timeout: 20_000 }).toContain('Nothing was written');
    expect(await page.locator('[data-testid="ip-import-row"][data-valid="false"]').count()).toBe(4);
    expect(await page.getByTestId('ip-import-row').nth(3).innerText()).toContain('Registration number: Already registered');
    expect(await page.getByTestId('ip-import-confirm').isDisabled()).toBe(true);
    expect(await imported()).toEqual(['E2E-IMP-1', 'E2E-IMP-4']);
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('creates a right in the app (the owner is required), edits it on its page and deletes it', { timeout: 90_000 }, async () => {
    const owner = (await onServer(stage, admin, 'ipOrganizationList')).list[0]!.name;
    await page.getByRole('tab', { name: 'Rights' }).click();
    await page.getByTestId('ip-create').click();
    await page.fill('#ip-name', 'E2E created patent');
    await page.fill('#ip-registrationNumber', 'E2E-NEW-1');
    await submit();
    await expect.poll(() => dialog().getByText('Please select an organization').count()).toBeGreaterThan(0);
    await page.selectOption('#ip-owner', { label: owner });
    await page.selectOption('#ip-type', 'utility_model');
    await typeDate('ip-applicationDate', '1 Feb 2025');
    await submit();
    await expect.poll(() => page.getByTestId('ip-name').innerText(), { timeout: 10_000 }).toBe('E2E created patent');
    const [created] = (await onServer(stage, admin, 'ipList', { query: { q: 'E2E-NEW-1' } })).list;
    expect(created).toMatchObject({ name: 'E2E created patent', type: 'utility_model', ownerOrganizationName: owner, status: 'filed', applicationDate: '2025-02-01' });
    expect(page.url()).toMatch(new RegExp(`/ip/${created!.id}$`));

    await page.getByTestId('ip-edit').click();
    await page.fill('#ip-name', 'E2E created patent (renamed)');
    await submit();
    await expect.poll(() => page.getByTestId('ip-name').innerText()).toBe('E2E created patent (renamed)');
    expect((await onServer(stage, admin, 'ipGet', { params: { id: created!.id } })).name).toBe('E2E created patent (renamed)');

    await page.getByTestId('ip-delete').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.url()).toMatch(/\/ip$/);
    expect((await onServer(stage, admin, 'ipList', { query: { q: 'E2E-NEW-1' } })).count).toBe(0);
  });

  it('in Chinese: the template has Chinese headers and labels, a Chinese file is read, and each row’s errors are Chinese', { timeout: 90_000 }, async () => {
    const owner = (await onServer(stage, admin, 'ipOrganizationList')).list[0]!.name;
    await chooseLanguage(page, uiLanguages[1]);
    await page.getByRole('tab').first().click();
    await page.getByTestId('ip-import').click();
    await page.selectOption('#ip-import-template-type', 'patent');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('ip-import-template').click()]);
    expect(download.suggestedFilename()).toBe('知识产权导入模板（发明专利）.csv');
    const template = readFileSync((await download.path())!, 'utf8');
    expect(template).toMatch(/^\uFEFF名称,类型,登记号,权利人,状态,申请日期,登记日期,到期日期,备注\r\n.*,发明专利,.*,已登记,/);
    const csv = [
      template.replace(/^\uFEFF/, '').split('\r\n')[0],
      `中文导入一,商标,E2E-ZH-1,${owner},已申请,2024-01-10,,,`,
      `中文导入二,软件,E2E-ZH-2,${owner},审查中,2024-13-01,,,`,
    ].join('\r\n');
    await page.setInputFiles('#ip-import-file', { name: '权利.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByTestId('ip-import-row').count()).toBe(2);
    const bad = page.locator('[data-testid="ip-import-row"][data-valid="false"]');
    await expect.poll(() => bad.getByTestId('ip-import-issues').innerText()).toContain('类型：请从列表中选择类型');
    const issues = await bad.getByTestId('ip-import-issues').innerText();
    expect(issues).toContain('状态：请从列表中选择状态');
    expect(issues).toContain('申请日期：请按 2024-01-31 的格式填写日期');
    expect(issues).not.toMatch(/[A-Za-z]{2,}/);
    expect(await page.locator('[data-testid="ip-import-row"][data-valid="true"]').innerText()).toContain('商标');
    await page.getByTestId('ip-import-confirm').click();
    await expect.poll(() => page.getByTestId('ip-import-result').innerText(), { timeout: 20_000 }).toBe('已导入 1 项权利；跳过 1 行有错误的数据。');
    expect((await onServer(stage, admin, 'ipList', { query: { q: 'E2E-ZH' } })).list).toEqual([expect.objectContaining({ type: 'trademark', status: 'filed' })]);
    await page.getByTestId('ip-import-close').click();
    await chooseLanguage(page, uiLanguages[0]);
  });

  it('shows the new right and import dialogs whole in both languages at both sizes', { timeout: 120_000 }, async () => {
    const viewport = page.viewportSize()!;
    const badFile = 'name,type,registrationNumber\r\nx,nonsense,N-1';
    await inEachLanguageAndSize(page, async (language, { width, height }) => {
      await page.getByRole('tab').first().click();
      await page.getByTestId('ip-create').click();
      await submit();
      await expect.poll(() => dialog().locator('.bp6-form-helper-text').count()).toBeGreaterThan(0);
      const box = (await dialog().boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      await keepScreenshot(page, `ip-create-dialog-${language.code}-${width}x${height}`);
      await dialog().getByRole('button').filter({ hasText: language.code === 'en' ? 'Cancel' : '取消' }).click();
      await page.getByTestId('ip-import').click();
      await page.setInputFiles('#ip-import-file', { name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(badFile) });
      await expect.poll(() => page.getByTestId('ip-import-issues').count()).toBe(1);
      await keepScreenshot(page, `ip-import-dialog-${language.code}-${width}x${height}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog().count()).toBe(0);
    });
    await chooseLanguage(page, uiLanguages[0]);
    await page.setViewportSize(viewport);
  });

  it('offline: shows the rights as last read with the time, and refuses a new organisation at once', { timeout: 60_000 }, async () => {
    await page.getByRole('tab', { name: 'Rights' }).click();
    await expect.poll(() => page.getByTestId('ip-row').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await stage.stopServer();
    await untilOffline(page);
    await page.getByTestId('nav-ledger').click();
    await page.getByTestId('nav-intellectualProperty').click();
    await expect.poll(() => page.getByTestId('as-of-note').innerText(), { timeout: 20_000 }).toMatch(/^Offline: as last read on .*\d/);
    expect(await page.getByTestId('ip-row').count()).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'Organizations' }).click();
    await page.getByTestId('ip-org-create').click();
    await page.fill('#ip-org-name', 'Never written');
    const clicked = Date.now();
    await submit();
    await expect.poll(() => dialog().getByTestId('dialog-failure').innerText(), { timeout: 2_000 }).toContain('cannot be reached now');
    expect(Date.now() - clicked).toBeLessThan(2_000);
    await stage.startServer();
  });
});
