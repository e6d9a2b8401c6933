import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { ContractStatus } from '../../src-shared/domain/enums';
import { call } from '../support/core';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages } from '../support/e2e-views';

// Issue 30 items 1 and 2 in the browser edition (journey 4, a day on a train): with the server
// stopped, an approver attaches a 5 MB scan to a new blank contract and archives an approved
// contract with its signed PDF. The field shows the scan as waiting to upload; the contract shows
// 'archive pending'. With the server back, REST shows the contract with its attachment and the
// archive, each exactly once; with the server stopped again, the archived PDF is found offline.

const admin = { username: 'admin', password: 'admin123' };
const contractName = 'Scan on a train';
const pdfWord = 'Wombatclause';
let stage: E2eStage;
let page: Page;
let approved = { id: '', name: '' };
const scan = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(5 * 1024 * 1024 - 8)]);
let pdf: Buffer;

const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');
const attachmentField = () => page.getByTestId('field-attachment');

async function signedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([420, 300]).drawText(`Signed under the ${pdfWord}.`, { x: 30, y: 200, size: 14, font });
  return Buffer.from(await doc.save());
}

const detailOf = (id: string) => `${stage.edition.host.url}/standingBook/detail?id=${id}`;

beforeAll(async () => {
  pdf = await signedPdf();
  stage = await openE2eStage({ contracts: 20, seed: 30, core: { syncSoonMs: 100, syncBackoffMs: 300 } });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
}, 240_000);

afterAll(() => stage?.close());

describe('attachments and archiving with the server stopped', () => {
  it('signs in as an approver and syncs', async () => {
    const list = (await onServer(stage, admin, 'contractList', { query: { pageNum: '1', pageSize: '100' } })).list;
    const found = list.find((contract) => contract.status === ContractStatus.Approved)!;
    approved = { id: found.id, name: found.name };
    await signInOnPage(stage, admin.username, admin.password);
    await expect.poll(() => queued(), { timeout: 30_000 }).toBe('0');
  }, 120_000);

  it('attaches a 5 MB scan to a new contract offline: the field shows it waiting to upload, with its name', async () => {
    await page.goto(`${stage.edition.host.url}/standingBook/create?mode=contract`);
    const chooser = page.getByTestId('contract-template');
    await expect.poll(() => chooser.locator('option[value="blank"]').count(), { timeout: 20_000 }).toBe(1);
    await chooser.selectOption('blank');
    await page.getByTestId('contract-draft').waitFor();
    await stage.stopServer();
    await untilOffline(page);

    await page.getByTestId('contract-name').fill(contractName);
    await page.locator('#contract-form-input-attachment').setInputFiles({ name: 'signed scan.png', mimeType: 'image/png', buffer: scan });
    await expect.poll(() => attachmentField().getByTestId('upload-queued').innerText(), { timeout: 60_000 }).toBe('Waiting to upload');
    expect(await attachmentField().innerText()).toContain('signed scan.png');
    await attachmentField().scrollIntoViewIfNeeded();
    await keepScreenshot(page, 'upload-waiting-form-1280x800-en');
    await page.getByTestId('contract-save').click();
    await page.waitForURL(/\/standingBook\/detail\?id=/);
    await expect.poll(() => queued()).toBe('1');
    expect((await call(stage.core, 'files.queue', {})).files).toMatchObject([{ name: 'signed scan.png', size: scan.length, state: 'waiting' }]);
  }, 120_000);

  it("archives an approved contract offline: the dialog takes the PDF, the contract shows 'archive pending'", async () => {
    await page.goto(detailOf(approved.id));
    await page.getByTestId('archive-open').click();
    const dialog = page.locator('.archive-dialog');
    await dialog.waitFor();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'signed.pdf', mimeType: 'application/pdf', buffer: pdf });
    await expect.poll(() => page.getByTestId('archive-confirm').isEnabled(), { timeout: 20_000 }).toBe(true);
    await keepScreenshot(page, 'archive-dialog-offline-1280x800-en');
    await page.getByTestId('archive-confirm').click();
    await page.locator('.bp6-toast', { hasText: 'The archive is kept on this device' }).first().waitFor();
    await page.getByTestId('contract-archive-pending').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('archive-view').count()).toBe(1);
    await expect.poll(() => queued()).toBe('2');
  }, 90_000);

  it('shows the waiting file and the pending archive in English and Chinese at both sizes', async () => {
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await page.goto(detailOf(approved.id));
      await page.getByTestId('contract-archive-pending').waitFor({ timeout: 20_000 });
      await keepScreenshot(page, `archive-pending-${width}x${height}-${code}`);
      const drafted = (await call(stage.core, 'ledger.contractPage', { pageNum: 1, pageSize: 5, q: contractName })).list[0]!;
      await page.goto(`${detailOf(drafted.id)}&mode=contract`);
      await page.getByTestId('contract-edit').click();
      await attachmentField().getByTestId('upload-queued').waitFor({ timeout: 20_000 });
      expect(await attachmentField().getByTestId('upload-queued').innerText()).toBe(code === 'en' ? 'Waiting to upload' : '等待上传');
      await attachmentField().scrollIntoViewIfNeeded();
      await keepScreenshot(page, `upload-waiting-${width}x${height}-${code}`);
    });
    await chooseLanguage(page, uiLanguages[0]);
  }, 180_000);

  it('sends both once the server is back: REST shows each exactly once', async () => {
    await stage.startServer();
    await expect.poll(() => queued(), { timeout: 120_000 }).toBe('0');
    expect(await page.getByTestId('sync-details').getAttribute('data-problems')).toBe('0');
    expect((await call(stage.core, 'files.queue', {})).files).toEqual([]);

    const client = createContractServerClient(stage.serverUrl);
    const { token } = await client.call('login', { body: admin });
    const listed = await client.call('contractList', { token, query: { pageNum: 1, pageSize: 5, q: contractName } });
    expect(listed.count).toBe(1);
    const detail = await client.call('contractDetail', { token, params: { id: listed.list[0]!.id } });
    const attachment = detail.formValues.attachment as { id: string; name: string };
    expect(attachment.name).toBe('signed scan.png');
    expect(Buffer.from(await (await client.downloadFile(attachment.id, token)).arrayBuffer()).equals(scan)).toBe(true);

    const archived = await client.call('contractDetail', { token, params: { id: approved.id } });
    expect(archived.status).toBe(ContractStatus.Archived);
    expect(Buffer.from(await (await client.downloadFile(archived.archiveFileId!, token)).arrayBuffer()).equals(pdf)).toBe(true);
    // One stored file each, nothing half-uploaded left on the server.
    const stored = readdirSync(join(stage.serverDir, 'files'));
    expect(stored.filter((name) => name === attachment.id || name === archived.archiveFileId)).toHaveLength(2);
    expect(stored.filter((name) => name.endsWith('.upload') || name.endsWith('.chunk'))).toEqual([]);
    await expect.poll(() => page.getByTestId('contract-archive-pending').count(), { timeout: 20_000 }).toBe(0);
  }, 180_000);

  it('finds the archived PDF offline', async () => {
    await stage.stopServer();
    await untilOffline(page);
    await page.goto(stage.edition.host.url);
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await page.getByTestId('ledger-table').waitFor();
    const box = page.getByTestId('full-text-search');
    await box.fill(pdfWord.toLowerCase());
    const hit = page.getByTestId('full-text-hit');
    await expect.poll(() => hit.count(), { timeout: 20_000 }).toBe(1);
    expect(await hit.innerText()).toContain(approved.name);
  }, 90_000);
});
