import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdfText } from '../../src-main/core/archive/pdf-text';
import type { Core } from '../../src-main/core/core';
import { bookmarkTexts } from '../../src-shared/contract-document/text';
import type { TemplateDetail } from '../../src-shared/domain/contract-forms';
import type { DocumentFormat } from '../../src-shared/ipc/contract-document';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// Issue 29 in the core against the real server: the catalogue's template documents are kept on
// the device when the catalogue is fetched, so a contract drafted with the server stopped fills
// its document from the replica alone, as DOCX (its bookmarks hold the values) and as PDF (its
// text, Chinese included, extracted with pdfjs-dist); a template's document is handed as written.
// The values' words (currencies, days) follow the language the page shows, not the host's (issue 31).

const serverDir = tempDir('contract-desk-server-');
const desktop = tempDir('contract-desk-document-');
let server: RunningServer | null = null;
let core: Core;
let template: TemplateDetail;
/** The contract drafted with the server stopped. */
let draftedId = '';
const coreOptions = { syncSoonMs: 20, connectivityProbeMs: 100, syncBackoffMs: 50, catalogueStaleMs: 3_600_000 };

/** The files kept in the replica's documents folder. */
function keptDocuments(): string[] {
  const folder = readdirSync(desktop.path, { recursive: true, withFileTypes: true }).find((entry) => entry.isDirectory() && entry.name.endsWith('.documents'));
  return folder ? readdirSync(join(folder.parentPath, folder.name)) : [];
}

/** A document the core produced, read back piece by piece. */
async function readBack(documentId: string, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  for (let offset = 0; offset < size; ) {
    const piece = Buffer.from((await call(core, 'contractDocument.read', { documentId, offset })).data, 'base64');
    bytes.set(piece, offset);
    offset += piece.length;
  }
  return bytes;
}

async function produce(contractId: string, format: DocumentFormat): Promise<{ name: string; bytes: Uint8Array }> {
  const documentId = crypto.randomUUID();
  const { size, name } = await call(core, 'contractDocument.produce', { documentId, contractId, format });
  return { name, bytes: await readBack(documentId, size) };
}

beforeAll(async () => {
  await seedDemoData({ contracts: 20, seed: 29, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  core = testCore(desktop.path, { ...coreOptions, systemLocale: 'zh-CN' });
  await call(core, 'session.signIn', { serverUrl: server.url, username: 'alice', password: 'alice123' });
  await settledSync(core);
  const catalogue = await waitFor(async () => {
    const kept = await call(core, 'drafting.catalogue', {});
    return kept.refreshedAt === null ? undefined : kept;
  });
  template = await call(core, 'drafting.template', { id: catalogue.templates.find((t) => t.name === '采购合同标准模板')!.id });
}, 120_000);

afterAll(async () => {
  await core?.close();
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
  desktop.cleanup();
});

describe('the contract document offline', () => {
  it('keeps the documents of the catalogue and fills a contract drafted offline', async () => {
    expect(template.document?.bookmarks).toContain('bm_payment');
    // The purchase and sales templates' documents are kept once the catalogue is.
    await waitFor(() => (keptDocuments().length === 2 ? true : undefined));
    await server!.close();
    server = null;

    const formValues = {
      contractName: '办公椅采购合同',
      contractType: template.contractTypeId,
      counterparty: [{ id: 0, name: '上海云杉科技有限公司' }],
      amount: { amount: 8_800_000, unit: 'CNY' },
      paymentMethod: '1',
      signDate: '2026-04-01',
      subject: 'Ergonomic chairs, 200 units',
      payment: { statementId: 2, fieldList: [{ id: 'instalments', name: '分期数', required: true, positionName: 'payment_instalments_t1' }], values: { payment_instalments_t1: 3 } },
      dispute: { statementId: 1, fieldList: [], values: {} },
    };
    const drafted = await call(core, 'contract.create', { name: '办公椅采购合同', templateId: template.id, contractTypeId: template.contractTypeId, contractNumber: null, formValues });
    expect(drafted.numberProvisional).toBe(true);
    draftedId = drafted.id;

    const docx = await produce(drafted.id, 'docx');
    expect(docx.name).toBe('办公椅采购合同.docx');
    const held = bookmarkTexts(docx.bytes);
    expect(held.get('bm_contractName')).toBe('办公椅采购合同');
    expect(held.get('bm_contractNumber')).toBe(drafted.contractNumber);
    expect(held.get('bm_counterparty')).toBe('上海云杉科技有限公司');
    expect(held.get('bm_amount')).toBe('88,000.00 人民币');
    expect(held.get('bm_paymentMethod')).toBe('银行转账');
    expect(held.get('bm_signDate')).toBe('2026年04月01日');
    expect(held.get('bm_payment')).toBe('合同价款分3期支付，每期于验收后支付。');
    expect(held.get('bm_dispute')).toBe('因本合同引起的争议，由甲方所在地人民法院管辖。');

    const pdf = await produce(drafted.id, 'pdf');
    expect(pdf.name).toBe('办公椅采购合同.pdf');
    const { text, pages } = await extractPdfText(pdf.bytes, () => undefined);
    expect(pages).toBe(1);
    const flat = text.replace(/\s+/g, '');
    for (const expected of ['采购合同', '办公椅采购合同', drafted.contractNumber!, '上海云杉科技有限公司', '88,000.00人民币', '合同价款分3期支付', 'Ergonomicchairs,200units']) {
      expect(flat).toContain(expected.replace(/\s+/g, ''));
    }
  });

  it("writes the values' words in the language the page shows, not the host's: English on a Chinese host, Chinese on an English one", async () => {
    const words = async () => {
      const held = bookmarkTexts((await produce(draftedId, 'docx')).bytes);
      return [held.get('bm_amount'), held.get('bm_signDate')];
    };
    await call(core, 'app.pageLanguage', { language: 'en' });
    expect(await words()).toEqual(['88,000.00 CNY', '1 Apr 2026']);

    // The web host on an English machine, its page in a Chinese browser: the page's words again.
    await core.close();
    core = testCore(desktop.path, { ...coreOptions, systemLocale: 'en-US' });
    expect(await words()).toEqual(['88,000.00 CNY', '1 Apr 2026']);
    await call(core, 'app.pageLanguage', { language: 'zh-CN' });
    expect(await words()).toEqual(['88,000.00 人民币', '2026年04月01日']);
    // A language the app has no words in is refused and changes nothing.
    expect(await core.invoke('app.pageLanguage', { language: 'fr' } as never)).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await words()).toEqual(['88,000.00 人民币', '2026年04月01日']);
  });

  it("hands a template's document as written (its approval page inserts nothing), the kept copy offline", async () => {
    const documentId = crypto.randomUUID();
    const { size } = await call(core, 'contractDocument.template', { documentId, fileId: template.document!.fileId });
    const held = bookmarkTexts(await readBack(documentId, size));
    expect(held.get('bm_payment')).toBe('（付款条款）');
    expect(held.get('bm_contractName')).toBe('________');
    // A document this device never kept needs the server.
    const refused = await core.invoke('contractDocument.template', { documentId: crypto.randomUUID(), fileId: '0190c0de-0000-7000-8000-0000000000f9' });
    expect((refused as { error?: unknown }).error).toMatchObject({ code: 'offline', reason: { key: 'documentNotKept' } });
  });

  it('refuses a contract without a template document and one that is not on the device, with their reasons', async () => {
    const blank = await call(core, 'contract.create', { name: 'no template', templateId: null, contractTypeId: null, contractNumber: null, formValues: {} });
    const refusal = async (result: Promise<{ ok: boolean; error?: unknown }>) => ((await result) as { error?: unknown }).error;
    expect(await refusal(core.invoke('contractDocument.produce', { documentId: crypto.randomUUID(), contractId: blank.id, format: 'docx' }))).toMatchObject({
      code: 'bad_request', reason: { key: 'templateDocumentMissing' },
    });
    expect(await refusal(core.invoke('contractDocument.produce', { documentId: crypto.randomUUID(), contractId: 'no-such-contract', format: 'pdf' }))).toMatchObject({ code: 'not_found' });
    expect(await refusal(core.invoke('contractDocument.read', { documentId: crypto.randomUUID(), offset: 0 }))).toMatchObject({ code: 'not_found' });
  });
});
