import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdfText } from '../../src-main/core/archive/pdf-text';
import { formatDay } from '../../src-renderer/i18n/format';
import { labelled, sampleDocx } from '../../src-server/contract-document/sample-document';
import { bookmarkTexts } from '../../src-shared/contract-document/text';
import { call } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages } from '../support/e2e-views';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';

// Journey 1 of JOURNEYS.md (issue 29) walked in the browser edition against a real server,
// through the UI alone (REST and core calls only check what it did): an administrator writes a
// template in the app — contract type, fields, a clause with three statements whose content mixes
// text and a field, and a Word document whose bookmarks are mapped to them in the Document tab —
// and submits it; as approver finds it among the templates awaiting approval, opens the approval
// page from there, sees the document with its mapping and approves it with a comment; a drafter who had
// the catalogue before gets it at the next sync (the catalogue is far from stale), drafts a
// contract from it with the server stopped — counterparty picked, amount, date, a statement
// chosen — numbered provisionally by its contract type's rule, and sees the values and the
// statement in the contract's document; once synced, downloads it as DOCX (its bookmarks hold the
// values) and as PDF (pdfjs-dist finds them in its text). Offline, template saves are refused at
// once. The journey's screens in both languages at both laptop sizes.

const templateName = 'Consulting framework 2027';
const typeName = '咨询服务合同';
const contractName = 'Tax advisory 2027';
const admin = { username: 'admin', password: 'admin123' };
const alice = { username: 'alice', password: 'alice123' };
let stage: E2eStage;
let page: Page;
/** The drafter's second window (the ledger's create action opens one). */
let drafting: Page;
let templateId = '';
let contractId = '';
let expectedNumber = '';
let partyName = '';

/** The legal team's Word document: the key terms and the payment clause at their bookmarks. */
const wordDocument = Buffer.from(
  sampleDocx([
    { segments: [{ text: '咨询服务合同' }], style: 'Title' },
    labelled('合同名称', 'bm_name'),
    labelled('合同编号', 'bm_number'),
    labelled('相对方', 'bm_party'),
    labelled('合同金额', 'bm_amount'),
    labelled('签订日期', 'bm_signed'),
    labelled('付款方式', 'bm_method'),
    { segments: [{ text: '一、付款条款' }], style: 'Heading1' },
    { segments: [{ bookmark: 'bm_payment', placeholder: '（付款条款）' }] },
    { segments: [{ text: '本合同一式两份，双方各执一份。' }] },
  ]),
);
/** Each bookmark with what the administrator maps it to, as the mapping choice names it. */
const bookmarkMapping: Record<string, string> = {
  bm_name: 'Field: 合同名称',
  bm_number: 'Field: Contract number',
  bm_party: 'Field: Counterparty',
  bm_amount: 'Field: Contract amount',
  bm_signed: 'Field: Signing date',
  bm_method: 'Field: Payment method',
  bm_payment: 'Clause: Payment terms',
};

/** A screenshot once the notices of earlier steps have gone (they would hide the header). */
async function screenshot(on: Page, name: string) {
  await expect.poll(() => on.locator('.bp6-toast').count(), { timeout: 15_000 }).toBe(0);
  await keepScreenshot(on, name);
}
const toasted = (text: string) => page.locator('.bp6-toast', { hasText: text }).first().waitFor();
const queued = () => page.getByTestId('sync-details').getAttribute('data-queued');

async function signOut() {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('sign-out').click();
  await page.locator('#signin-username').waitFor({ timeout: 20_000 });
}

async function signInAgain(credentials: { username: string; password: string }) {
  await page.fill('#signin-username', credentials.username);
  await page.fill('#signin-password', credentials.password);
  await page.getByTestId('signin-submit').click();
  await page.getByTestId('scene-ledger').waitFor({ timeout: 30_000 });
}

/** The field card added last, after choosing its type. */
async function addField(type: string, name: string) {
  await page.getByTestId('template-new-field-type').selectOption(type);
  await page.getByTestId('template-add-field').click();
  const field = page.getByTestId('template-field').last();
  await field.getByTestId('template-field-name').fill(name);
  return field;
}

/** Fills the last statement: its name, one paragraph of text around a field of its own, or text alone. */
async function fillStatement(name: string, parts: { before: string; field?: string; after?: string }) {
  const statement = page.getByTestId('template-statement').last();
  await statement.getByTestId('template-statement-name').fill(name);
  if (parts.field) {
    await statement.getByTestId('template-add-statement-field').click();
    const field = statement.getByTestId('template-field').last();
    await field.getByTestId('template-field-name').fill(parts.field);
    await field.getByTestId('template-field-type').selectOption('number');
  }
  const paragraph = statement.getByTestId('template-paragraph').first();
  await paragraph.getByTestId('template-add-text').click();
  await paragraph.getByTestId('template-text-part').last().fill(parts.before);
  if (parts.field) {
    await paragraph.getByTestId('template-add-field-part').click();
    await paragraph.getByTestId('template-add-text').click();
    await paragraph.getByTestId('template-text-part').last().fill(parts.after ?? '');
  }
}

/** A field of the drafting form and its input. */
const formField = (id: string) => drafting.getByTestId(`field-${id}`);
const formInput = (id: string) => drafting.locator(`#contract-form-input-${id}`);

async function download(testId: string): Promise<{ name: string; bytes: Uint8Array }> {
  const [file] = await Promise.all([drafting.waitForEvent('download'), drafting.getByTestId(testId).click()]);
  return { name: file.suggestedFilename(), bytes: new Uint8Array(readFileSync((await file.path())!)) };
}

async function documentShown() {
  await expect.poll(() => drafting.getByTestId('contract-document').getAttribute('data-phase'), { timeout: 20_000 }).toBe('shown');
  return drafting.getByTestId('contract-document-pages').innerText();
}

beforeAll(async () => {
  // The catalogue is an hour from stale: only the approval can bring the template at the next sync.
  stage = await openE2eStage({ contracts: 8, seed: 29, core: { syncSoonMs: 100, syncBackoffMs: 300, catalogueStaleMs: 3_600_000 } });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
}, 300_000);

afterAll(() => stage?.close());

describe('journey 1: from template to contract document', () => {
  it('a drafter has the catalogue of approved templates, without the one still to be written', async () => {
    await signInOnPage(stage, alice.username, alice.password);
    await expect.poll(async () => (await call(stage.core, 'drafting.catalogue', {})).refreshedAt, { timeout: 30_000 }).not.toBeNull();
    expect((await call(stage.core, 'drafting.catalogue', {})).templates.map((template) => template.name)).not.toContain(templateName);
    await signOut();
  }, 120_000);

  it('an administrator writes a template with fields, a clause of three statements and a Word document mapped to them, and submits it', async () => {
    await signInAgain(admin);
    await page.getByTestId('nav-templates').click();
    await page.getByTestId('template-row').first().waitFor({ timeout: 20_000 });
    await page.getByTestId('templates-create').click();
    await page.getByTestId('template-name').fill(templateName);
    // The contract types come from the server: chosen once they are read.
    await expect.poll(() => page.getByTestId('template-contract-type').locator('option', { hasText: typeName }).count()).toBe(1);
    await page.getByTestId('template-contract-type').selectOption({ label: typeName });

    await page.getByTestId('template-tab-fields').click();
    await addField('text', '合同名称');
    await addField('contractNumber', 'Contract number');
    await addField('inputSelectV2', 'Counterparty');
    const amount = await addField('money', 'Contract amount');
    await amount.getByTestId('template-field-settings').click();
    await amount.getByText('Show the amount in words').click();
    await addField('date', 'Signing date');
    const method = await addField('select', 'Payment method');
    await method.getByTestId('template-field-settings').click();
    await method.getByTestId('template-option').first().fill('Bank transfer');
    await method.getByTestId('template-add-option').click();
    await method.getByTestId('template-option').last().fill('Letter of credit');
    // The preview is the drafting form itself: the fields appear as they are written.
    const preview = page.getByTestId('template-preview');
    await expect.poll(() => preview.innerText()).toContain('Payment method');

    await page.getByTestId('template-tab-clauses').click();
    await page.getByTestId('template-add-clause').click();
    const clause = page.getByTestId('template-clause');
    await clause.getByTestId('template-clause-name').fill('Payment terms');
    await clause.getByText('May be left out').click();
    await fillStatement('Pay at once', { before: 'The client pays within ', field: 'Days', after: ' days of signing.' });
    await clause.getByTestId('template-add-statement').click();
    await fillStatement('Instalments', { before: 'The fee is paid in ', field: 'Instalments', after: ' instalments.' });
    await clause.getByTestId('template-add-statement').click();
    await fillStatement('On delivery', { before: 'The client pays on delivery of the report.' });
    await expect.poll(() => preview.innerText()).toContain('Payment terms');
    await screenshot(page, 'template-editor-writing-1280x800-en');

    // The Word document: uploaded, its bookmarks listed, each mapped to its field or the clause.
    await page.getByTestId('template-tab-document').click();
    await page.locator('#template-document-file').setInputFiles({ name: 'consulting.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: wordDocument });
    const bookmarks = page.getByTestId('template-document-bookmarks');
    await bookmarks.waitFor({ timeout: 20_000 });
    expect(await bookmarks.locator('tbody td:first-child').allInnerTexts()).toEqual(Object.keys(bookmarkMapping));
    expect(await page.getByTestId('template-document-warnings').innerText()).toContain('Bookmarks that map to nothing: bm_name');
    for (const [bookmark, owner] of Object.entries(bookmarkMapping)) {
      await bookmarks.locator(`[data-bookmark="${bookmark}"]`).getByTestId('template-document-map').selectOption({ label: owner });
    }
    expect(await page.getByTestId('template-document-warnings').innerText()).toBe('Every bookmark maps to a field or clause, and every field and clause to a bookmark.');
    await screenshot(page, 'template-editor-document-mapped-1280x800-en');

    await page.getByTestId('template-save').click();
    await toasted('The template is created.');
    await expect.poll(() => new URL(page.url()).searchParams.get('id')).not.toBeNull();
    templateId = new URL(page.url()).searchParams.get('id')!;
    const saved = await onServer(stage, admin, 'templateDetail', { params: { id: templateId } });
    expect(saved.fields.map((field) => [field.type, field.bookmarkNames])).toEqual([
      ['text', ['bm_name']],
      ['contractNumber', ['bm_number']],
      ['inputSelectV2', ['bm_party']],
      ['money', ['bm_amount']],
      ['date', ['bm_signed']],
      ['select', ['bm_method']],
      ['clause', undefined],
    ]);
    expect(saved.fields[3]!.fieldConfig).toEqual({ money: { isWordAmount: true } });
    expect(saved.fields[5]!.options).toEqual([{ id: '1', name: 'Bank transfer' }, { id: '2', name: 'Letter of credit' }]);
    expect(saved.document).toMatchObject({ name: 'consulting.docx', size: wordDocument.length, bookmarks: Object.keys(bookmarkMapping) });
    const [payment] = saved.clauses;
    expect(payment).toMatchObject({ name: 'Payment terms', isNullable: true, labelID: saved.fields[6]!.id, bookmarkName: 'bm_payment' });
    expect(payment!.statementList.map((statement) => statement.name)).toEqual(['Pay at once', 'Instalments', 'On delivery']);
    const days = payment!.statementList[0]!.fieldList[0]!;
    expect(days).toMatchObject({ name: 'Days', type: 'number' });
    expect(payment!.statementList[0]!.content).toEqual([
      [{ type: 'text', text: 'The client pays within ' }, { type: 'field', fieldId: days.id }, { type: 'text', text: ' days of signing.' }],
    ]);
    // Numbered by the template numbering rule, as the number input said it would be.
    expect(saved.templateNumber).toMatch(/^MB-/);
    await expect.poll(() => page.getByTestId('template-number').inputValue()).toBe(saved.templateNumber);

    await page.getByTestId('approval-submit').click();
    await page.getByTestId('approval-confirm-button').click();
    await toasted('The template is submitted for approval.');
    await expect.poll(() => page.getByTestId('template-editor-status').getByTestId('contract-status').getAttribute('data-status')).toBe('2');
    expect(await page.getByTestId('template-read-only').innerText()).toContain('under approval');
  }, 240_000);

  it('the approver finds it awaiting approval, opens the approval page from there, sees what its document prints and approves it with a comment', async () => {
    await page.getByTestId('nav-templates').click();
    await page.getByTestId('templates-tab-pending').click();
    const row = page.getByTestId('template-row').filter({ hasText: templateName });
    await row.waitFor({ timeout: 20_000 });
    await screenshot(page, 'templates-pending-one-1280x800-en');
    await row.getByTestId('template-review').click();
    await page.getByTestId('template-approval-header').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/templateApproval/detail');
    expect(new URL(page.url()).searchParams.get('id')).toBe(templateId);
    const review = page.getByTestId('template-approval-document');
    expect(await review.getByTestId('template-document-name').innerText()).toContain('consulting.docx');
    expect(await review.locator('tbody tr').allInnerTexts()).toEqual(Object.entries(bookmarkMapping).map(([bookmark, owner]) => `${bookmark}\t${owner}`));
    // The document as written: its bookmarks still hold the author's placeholders (spec 4).
    await expect.poll(() => review.getByTestId('template-document-preview').getAttribute('data-phase'), { timeout: 20_000 }).toBe('shown');
    const pages = await review.getByTestId('template-document-pages').innerText();
    for (const text of ['咨询服务合同', '合同名称：________', '（付款条款）']) expect(pages).toContain(text);
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      expect(await review.locator('h4').innerText()).toBe(code === 'en' ? 'Contract document' : '合同文本');
      expect(await review.locator('tbody tr').first().innerText()).toBe(code === 'en' ? 'bm_name\tField: 合同名称' : 'bm_name\t字段：合同名称');
      await screenshot(page, `template-approval-${width}x${height}-${code}`);
      await review.getByTestId('template-document-pages').scrollIntoViewIfNeeded();
      await screenshot(page, `template-approval-document-${width}x${height}-${code}`);
      await page.getByTestId('template-approval-header').scrollIntoViewIfNeeded();
    });
    await chooseLanguage(page, uiLanguages[0]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('approval-approve').click();
    await page.getByTestId('approval-comment').fill('Terms and document checked with the legal team.');
    await page.getByTestId('approval-confirm-button').click();
    await toasted('The template is approved.');
    expect((await onServer(stage, admin, 'templateDetail', { params: { id: templateId } })).status).toBe(4);
    // Nothing waits for approval any more.
    await page.getByTestId('nav-templates').click();
    await page.getByTestId('templates-tab-pending').click();
    await expect.poll(() => page.getByTestId('template-row').filter({ hasText: templateName }).count()).toBe(0);
  }, 120_000);

  it('the drafter gets it at the next sync and drafts a contract from it offline, numbered by its type’s rule', async () => {
    await signOut();
    await signInAgain(alice);
    const saved = await onServer(stage, alice, 'templateDetail', { params: { id: templateId } });
    expectedNumber = (await onServer(stage, alice, 'contractNumberAutoPreview', { query: { contractTypeID: saved.contractTypeId! } })).list[0]!.format;
    expect(expectedNumber).toMatch(/^CA-\d{4}-\d{4}$/);
    partyName = (await call(stage.core, 'drafting.searchParties', { keyword: '', partyType: 2, pageNum: 1, pageSize: 5 })).list[0]!.name;

    await page.getByTestId('sync-now').click();
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    const opened = page.context().waitForEvent('page');
    await page.getByTestId('ledger-create').click();
    drafting = await opened;
    await drafting.setViewportSize({ width: 1280, height: 800 });
    const option = drafting.getByTestId('contract-template').locator('option', { hasText: templateName });
    await expect.poll(() => option.count(), { timeout: 30_000 }).toBe(1);

    await stage.stopServer();
    await untilOffline(page);
    await drafting.getByTestId('contract-template').selectOption((await option.getAttribute('value'))!);
    await drafting.getByTestId('contract-draft').waitFor();
    await formInput('text1').fill(contractName);
    // A staff member's number is the contract type's rule's, shown before the save and locked.
    await expect.poll(() => formInput('contractNumber').getAttribute('placeholder'), { timeout: 20_000 }).toBe(`Numbered automatically: ${expectedNumber}`);
    expect(await formInput('contractNumber').isDisabled()).toBe(true);
    await formInput('counterparty').fill(partyName.slice(0, 2));
    await formField('counterparty').locator('.bp6-menu-item .bp6-fill').filter({ hasText: partyName }).first().click();
    await formInput('amount').fill('12345.67');
    await formInput('date1').fill(formatDay('2026-11-20', 'en'));
    await formInput('date1').press('Enter');
    await formInput('select1').selectOption({ label: 'Letter of credit' });
    await formField('clause1').getByRole('combobox').selectOption({ label: 'Instalments' });
    await formField('clause1').getByLabel('Instalments').fill('3');
    await expect.poll(() => formField('clause1').innerText()).toContain('The fee is paid in 3 instalments.');
    await screenshot(drafting, 'journey-draft-offline-1280x800-en');
    await drafting.getByTestId('contract-save').click();

    await drafting.waitForURL(/\/standingBook\/detail\?id=/);
    contractId = new URL(drafting.url()).searchParams.get('id')!;
    expect(await drafting.getByTestId('contract-detail-name').innerText()).toBe(contractName);
    expect(await drafting.getByTestId('contract-detail-number').innerText()).toBe(expectedNumber);
    await drafting.getByTestId('contract-number-provisional').waitFor();
    expect(await drafting.getByTestId('contract-detail-counterparty').innerText()).toBe(partyName);
    await expect.poll(() => queued()).toBe('1');
  }, 180_000);

  it('the contract’s document shows the values at their bookmarks and the chosen statement, offline, in each language', async () => {
    await drafting.getByTestId('contract-tab-DOCUMENT_TAB').click();
    await inEachLanguageAndSize(drafting, async (language, size) => {
      const text = await documentShown();
      for (const value of [contractName, expectedNumber, partyName, 'The fee is paid in 3 instalments.', '本合同一式两份']) expect(text).toContain(value);
      // The statements not chosen are not in the document.
      expect(text).not.toContain('The client pays');
      expect(text).toContain(language.code === 'en' ? '12,345.67 CNY' : '12,345.67 人民币');
      expect(text).toContain(formatDay('2026-11-20', language.code));
      expect(text).toContain('Letter of credit');
      await screenshot(drafting, `journey-contract-document-${size.width}x${size.height}-${language.code}`);
    });
    await chooseLanguage(drafting, uiLanguages[0]);
    await drafting.setViewportSize({ width: 1280, height: 800 });
  }, 120_000);

  it('after the sync, downloads the document as DOCX (the bookmarks hold the values) and as PDF', async () => {
    await stage.startServer();
    await page.getByTestId('sync-now').click();
    await expect.poll(() => queued(), { timeout: 60_000 }).toBe('0');
    await expect.poll(() => drafting.getByTestId('contract-number-provisional').count(), { timeout: 20_000 }).toBe(0);
    const saved = await onServer(stage, alice, 'contractDetail', { params: { id: contractId } });
    expect(saved).toMatchObject({ name: contractName, contractNumber: expectedNumber, templateId, formValues: { amount: { amount: 1_234_567, unit: 'CNY' } } });
    await documentShown();

    const docx = await download('contract-document-docx');
    expect(docx.name).toBe(`${contractName}.docx`);
    expect(Object.fromEntries(bookmarkTexts(docx.bytes))).toEqual({
      bm_name: contractName,
      bm_number: expectedNumber,
      bm_party: partyName,
      bm_amount: '12,345.67 CNY',
      bm_signed: formatDay('2026-11-20', 'en'),
      bm_method: 'Letter of credit',
      bm_payment: 'The fee is paid in 3 instalments.',
    });

    const pdf = await download('contract-document-pdf');
    expect(pdf.name).toBe(`${contractName}.pdf`);
    const flat = (await extractPdfText(pdf.bytes, () => undefined)).text.replace(/\s+/g, '');
    for (const value of ['咨询服务合同', contractName, expectedNumber, partyName, '12,345.67CNY', 'Thefeeispaidin3instalments.']) expect(flat).toContain(value.replace(/\s+/g, ''));
    await drafting.close();
  }, 120_000);

  it('offline, shows the templates as last read and refuses a save at once with the offline message', async () => {
    await signOut();
    await signInAgain(admin);
    await page.getByTestId('nav-templates').click();
    await page.getByTestId('template-row').filter({ hasText: templateName }).waitFor({ timeout: 20_000 });
    await stage.stopServer();
    await untilOffline(page);
    await page.getByTestId('nav-ledger').click();
    await page.getByTestId('nav-templates').click();
    await page.getByTestId('as-of-note').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('template-row').filter({ hasText: templateName }).count()).toBe(1);
    await page.getByTestId('templates-create').click();
    await page.getByTestId('template-name').fill('Written offline');
    await page.getByTestId('template-save').click();
    expect(await page.getByTestId('template-save-failure').innerText()).toBe('This needs the contract server, which cannot be reached now. It works again once you are back online.');
    await stage.startServer();
    const { list } = await onServer(stage, admin, 'templateList', { query: { q: 'Written offline' } });
    expect(list).toEqual([]);
  }, 120_000);

  it('shows the templates screen and the editor with its document in English and Chinese at 1280×800 and 1440×900', async () => {
    const titles: Record<string, { list: string; pending: string }> = {
      en: { list: 'Templates', pending: 'Awaiting approval' },
      'zh-CN': { list: '合同模板', pending: '待审批' },
    };
    await page.getByTestId('nav-ledger').click();
    await inEachLanguageAndSize(page, async ({ code }, { width, height }) => {
      await page.getByTestId('nav-templates').click();
      const row = page.getByTestId('template-row').filter({ hasText: templateName });
      await row.waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('templates').locator('h2').innerText()).toBe(titles[code]!.list);
      await screenshot(page, `templates-${width}x${height}-${code}`);
      await page.getByTestId('templates-tab-pending').click();
      expect(await page.getByTestId('templates-tab-pending').innerText()).toBe(titles[code]!.pending);
      await screenshot(page, `templates-pending-${width}x${height}-${code}`);
      await page.getByTestId('templates-tab-all').click();
      await row.getByTestId('template-view').click();
      await page.getByTestId('template-editor').waitFor({ timeout: 20_000 });
      await page.getByTestId('template-tab-fields').click();
      await page.getByTestId('template-field').first().waitFor();
      await screenshot(page, `template-editor-fields-${width}x${height}-${code}`);
      await page.getByTestId('template-tab-clauses').click();
      await page.getByTestId('template-statement').first().waitFor();
      if (code === 'zh-CN') {
        // Labels are the catalog's, never raw keys; the template's own words stay as written.
        const labels = await page.getByTestId('template-editor').locator('label, .bp6-tab, h4, h5, h6').allInnerTexts();
        expect(labels.filter((label) => /templates\.|[a-z]+\.[a-z]+/.test(label))).toEqual([]);
      }
      await screenshot(page, `template-editor-clauses-${width}x${height}-${code}`);
      await page.getByTestId('template-tab-document').click();
      await page.getByTestId('template-document-bookmarks').waitFor();
      await screenshot(page, `template-editor-document-${width}x${height}-${code}`);
    });
    await chooseLanguage(page, uiLanguages[0]);
  }, 300_000);
});
