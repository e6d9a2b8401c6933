import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdfText } from '../../src-main/core/archive/pdf-text';
import { bookmarkTexts } from '../../src-shared/contract-document/text';
import type { TemplateDetail } from '../../src-shared/domain/contract-forms';
import { call, waitFor } from '../support/core';
import { onServer, signInOnPage } from '../support/manage-e2e';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages } from '../support/e2e-views';

// The contract document (issue 29) in the browser edition against a real server: the seeded
// purchase template carries a Word document with bookmarks, kept on the device with the drafting
// catalogue; a contract drafted from it with the server stopped shows its document on the
// contract page's Document tab with the values at their bookmarks and the chosen clause
// statement, in the app's language; it downloads as DOCX (read back: the bookmarks hold the
// values) and as PDF (its text, Chinese included, extracted with pdfjs-dist), offline and after
// the sync. Both languages, both laptop sizes.

let stage: E2eStage;
let page: Page;
let template: TemplateDetail;
let contractId = '';
let contractNumber = '';

const alice = { username: 'alice', password: 'alice123' };

/** The template documents kept in the replica's documents folder. */
function keptDocuments(): string[] {
  const folder = readdirSync(stage.desktopDir, { recursive: true, withFileTypes: true }).find((entry) => entry.isDirectory() && entry.name.endsWith('.documents'));
  return folder ? readdirSync(join(folder.parentPath, folder.name)).filter((name) => name.endsWith('.docx')) : [];
}

async function openDocumentTab() {
  await page.goto(`${stage.edition.host.url}/standingBook/detail?${new URLSearchParams({ id: contractId, tab: 'DOCUMENT_TAB' })}`);
  await page.getByTestId('contract-document').waitFor({ timeout: 20_000 });
  await expect.poll(() => page.getByTestId('contract-document').getAttribute('data-phase'), { timeout: 20_000 }).toBe('shown');
}

const pagesText = () => page.getByTestId('contract-document-pages').innerText();

async function download(testId: string): Promise<{ name: string; bytes: Uint8Array }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: file.suggestedFilename(), bytes: new Uint8Array(readFileSync((await file.path())!)) };
}

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 20, seed: 29, core: { syncSoonMs: 100, syncBackoffMs: 300 } });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  // Seeding and the first server start take long on a loaded machine.
}, 240_000);

afterAll(() => stage?.close());

describe('the contract document', () => {
  it('keeps the seeded templates’ documents on the device with the drafting catalogue', async () => {
    await signInOnPage(stage, alice.username, alice.password);
    const catalogue = await waitFor(async () => {
      const kept = await call(stage.core, 'drafting.catalogue', {});
      return kept.refreshedAt === null ? undefined : kept;
    }, 60_000);
    template = await call(stage.core, 'drafting.template', { id: catalogue.templates.find((t) => t.name === '采购合同标准模板')!.id });
    expect(template.document?.bookmarks).toEqual(expect.arrayContaining(['bm_amount', 'bm_payment', 'bm_dispute']));
    await waitFor(() => (keptDocuments().length === 2 ? true : undefined), 30_000);
  }, 120_000);

  it('shows the document of a contract drafted with the server stopped, values at their bookmarks, in each language', { timeout: 240_000 }, async () => {
    await stage.stopServer();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
    // Drafted through the core's drafting channel, as the form's save does.
    const drafted = await call(stage.core, 'contract.create', {
      name: '办公椅采购合同',
      templateId: template.id,
      contractTypeId: template.contractTypeId,
      contractNumber: null,
      formValues: {
        contractName: '办公椅采购合同',
        contractType: template.contractTypeId,
        counterparty: [{ id: 0, name: '上海云杉科技有限公司' }],
        amount: { amount: 8_800_000, unit: 'CNY' },
        paymentMethod: '2',
        signDate: '2026-04-01',
        deliveryPlace: 'Shanghai port, warehouse 3',
        payment: { statementId: 2, fieldList: [{ id: 'instalments', name: '分期数', required: true, positionName: 'payment_instalments_e2e' }], values: { payment_instalments_e2e: 3 } },
        dispute: { statementId: 1, fieldList: [], values: {} },
      },
    });
    contractId = drafted.id;
    contractNumber = drafted.contractNumber!;
    expect(drafted.numberProvisional).toBe(true);

    await openDocumentTab();
    await inEachLanguageAndSize(page, async (language, size) => {
      await expect.poll(() => page.getByTestId('contract-document').getAttribute('data-phase'), { timeout: 20_000 }).toBe('shown');
      const text = await pagesText();
      for (const value of ['办公椅采购合同', contractNumber, '上海云杉科技有限公司', 'Shanghai port, warehouse 3', '合同价款分3期支付，每期于验收后支付。', '因本合同引起的争议']) expect(text).toContain(value);
      // The document's words follow the app's language (the template's own text stays as written).
      expect(text).toContain(language.code === 'en' ? '88,000.00 CNY' : '88,000.00 人民币');
      // An option's label is the template's own.
      expect(text).toContain('承兑汇票');
      expect(await page.getByTestId('contract-tab-DOCUMENT_TAB').innerText()).toBe(language.code === 'en' ? 'Document' : '合同文本');
      expect(await page.getByTestId('contract-document-pdf').innerText()).toBe(language.code === 'en' ? 'Download PDF' : '下载 PDF');
      // The document's pages fit the content area: no sideways scroll at a laptop's width.
      const overflow = await page.getByTestId('contract-document-pages').evaluate((element) => element.scrollWidth - element.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await keepScreenshot(page, `contract-document-${language.code}-${size.width}x${size.height}`);
    });
    await chooseLanguage(page, uiLanguages[1]);
  });

  it('downloads the document as DOCX and as PDF while offline', { timeout: 120_000 }, async () => {
    const docx = await download('contract-document-docx');
    expect(docx.name).toBe('办公椅采购合同.docx');
    const held = bookmarkTexts(docx.bytes);
    expect(held.get('bm_contractName')).toBe('办公椅采购合同');
    expect(held.get('bm_contractNumber')).toBe(contractNumber);
    expect(held.get('bm_counterparty')).toBe('上海云杉科技有限公司');
    expect(held.get('bm_amount')).toBe('88,000.00 人民币');
    expect(held.get('bm_paymentMethod')).toBe('承兑汇票');
    expect(held.get('bm_signDate')).toBe('2026年04月01日');
    expect(held.get('bm_payment')).toBe('合同价款分3期支付，每期于验收后支付。');

    const pdf = await download('contract-document-pdf');
    expect(pdf.name).toBe('办公椅采购合同.pdf');
    const { text } = await extractPdfText(pdf.bytes, () => undefined);
    const flat = text.replace(/\s+/g, '');
    for (const value of ['采购合同', '办公椅采购合同', contractNumber, '上海云杉科技有限公司', '88,000.00人民币', '承兑汇票', '合同价款分3期支付']) expect(flat).toContain(value);
  });

  it('after the sync, the server has the contract and its document carries the confirmed number', { timeout: 120_000 }, async () => {
    await stage.startServer();
    await expect.poll(() => page.getByTestId('contract-pending').count(), { timeout: 60_000 }).toBe(0);
    const saved = await onServer(stage, alice, 'contractDetail', { params: { id: contractId } });
    expect(saved).toMatchObject({ name: '办公椅采购合同', templateId: template.id, formValues: { amount: { amount: 8_800_000, unit: 'CNY' } } });
    await openDocumentTab();
    expect(await pagesText()).toContain(saved.contractNumber!);
    const docx = await download('contract-document-docx');
    expect(bookmarkTexts(docx.bytes).get('bm_contractNumber')).toBe(saved.contractNumber);
  });
});
