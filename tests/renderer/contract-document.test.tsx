// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotices } from '../../src-renderer/app/toaster';
import { createAppStore } from '../../src-renderer/app/store';
import { ContractDocumentTab } from '../../src-renderer/features/contract-document/ContractDocumentTab';
import { TemplateDocumentPreview } from '../../src-renderer/features/contract-document/TemplateDocumentPreview';
import { DocumentMapping, TemplateDocumentSection } from '../../src-renderer/features/contract-document/TemplateDocumentSection';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { fillTemplateDocument } from '../../src-shared/contract-document/fill';
import { withBookmarkMapped } from '../../src-shared/contract-document/mapping';
import type { TemplateDocument } from '../../src-shared/contract-document/schema';
import type { Clause, FieldConfig } from '../../src-shared/domain/contract-forms';
import { catalogWords } from '../../src-shared/form/display-value';
import { labelled, sampleDocx } from '../../src-server/contract-document/sample-document';
import { fakeBridge, Refusal, type Answers } from './support/fake-bridge';

// The contract page's document tab and the template editor's document section (issue 29) on a
// fake core: the filled document rendered with docx-preview, its downloads, a refusal shown in the
// user's language; the editor's DOCX checked before upload, its bookmarks listed and mapped (chosen
// per bookmark; read-only on the approval page).

initI18n('en');
afterEach(cleanup);
// jsdom's Blob cannot give its bytes as a promise (browsers can): read through its FileReader.
Blob.prototype.arrayBuffer ??= function arrayBuffer(this: Blob) {
  return new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(this);
  });
};
afterAll(clearNotices, 10_000);
beforeEach(() => i18n.changeLanguage('en'));

const fields: FieldConfig[] = [
  { id: 'contractName', name: '合同名称', type: 'text', bookmarkNames: ['bm_name'] },
  { id: 'amount', name: '合同金额', type: 'money', bookmarkNames: ['bm_amount'] },
  { id: 'remark', name: '备注', type: 'textarea' },
  { id: 'payment', name: '付款条款', type: 'clause' },
];
const clauses: Clause[] = [
  { labelID: 'payment', name: '付款条款', isNullable: false, bookmarkName: 'bm_payment', statementList: [{ id: 1, name: '一次性', content: [[{ type: 'text', text: '一次性付清。' }]], fieldList: [], labelItemList: [] }] },
];
const template = sampleDocx([
  { segments: [{ text: '采购合同' }], style: 'Title' },
  labelled('合同名称', 'bm_name'),
  labelled('合同金额', 'bm_amount'),
  { segments: [{ bookmark: 'bm_payment', placeholder: '（付款条款）' }] },
  { segments: [{ bookmark: 'bm_signature' }] },
]);
const filled = fillTemplateDocument(template, {
  fields, clauses, words: catalogWords('zh-CN', ''),
  formValues: { contractName: '办公椅采购合同', amount: { amount: 8_800_000, unit: 'CNY' }, payment: { statementId: 1, fieldList: [], values: {} } },
});

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

function renderWith(answers: Answers, element: React.ReactElement) {
  const { bridge, calls } = fakeBridge(answers);
  render(
    <Provider store={createAppStore(bridge)}>
      <I18nextProvider i18n={i18n}>{element}</I18nextProvider>
    </Provider>,
  );
  return calls;
}

const documentAnswers = (bytes: Uint8Array): Answers => ({
  'contractDocument.produce': (request) => ({ size: bytes.length, name: `办公椅采购合同.${request.format}` }),
  'contractDocument.read': ({ offset }) => ({ data: base64(bytes.subarray(offset, offset + 4096)), size: bytes.length }),
});

describe('the document tab', () => {
  it('renders the filled document in place and downloads it as DOCX and PDF', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:document';
    });
    URL.revokeObjectURL = vi.fn();
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const calls = renderWith(documentAnswers(filled), <ContractDocumentTab contractId="c1" revision="1" hasDocument active />);
    const pages = await screen.findByTestId('contract-document-pages');
    await waitFor(() => expect(screen.getByTestId('contract-document').dataset.phase).toBe('shown'));
    expect(pages.textContent).toContain('办公椅采购合同');
    expect(pages.textContent).toContain('88,000.00 人民币');
    expect(pages.textContent).toContain('一次性付清。');
    expect(calls('contractDocument.produce')).toEqual([expect.objectContaining({ contractId: 'c1', format: 'docx' })]);
    // The whole document was read back, piece by piece.
    expect(calls('contractDocument.read').length).toBe(Math.ceil(filled.length / 4096));

    fireEvent.click(screen.getByTestId('contract-document-pdf'));
    await waitFor(() => expect(clicks).toHaveBeenCalledTimes(1));
    expect(calls('contractDocument.produce').at(-1)).toEqual(expect.objectContaining({ format: 'pdf' }));
    expect(created.at(-1)?.type).toBe('application/pdf');
    fireEvent.click(screen.getByTestId('contract-document-docx'));
    await waitFor(() => expect(clicks).toHaveBeenCalledTimes(2));
    expect(created.at(-1)?.type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(created.at(-1)?.size).toBe(filled.length);
    clicks.mockRestore();
  });

  it('fills nothing until the tab is shown, and says so when the template has no document', async () => {
    const calls = renderWith(documentAnswers(filled), <ContractDocumentTab contractId="c1" revision="1" hasDocument active={false} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls('contractDocument.produce')).toEqual([]);
    cleanup();
    await i18n.changeLanguage('zh-CN');
    renderWith(documentAnswers(filled), <ContractDocumentTab contractId="c1" revision="1" hasDocument={false} active />);
    expect(screen.getByTestId('contract-document-none').textContent).toContain('该合同的模板没有合同文本');
  });

  it("shows the core's refusal in the user's language", async () => {
    await i18n.changeLanguage('zh-CN');
    renderWith(
      { 'contractDocument.produce': () => new Refusal({ code: 'offline', message: 'the template document is not kept on this device', reason: { key: 'documentNotKept' } }) },
      <ContractDocumentTab contractId="c1" revision="1" hasDocument active />,
    );
    const failed = await screen.findByTestId('contract-document-failed');
    expect(failed.textContent).toContain('无法显示合同文本');
    expect(failed.textContent).toContain('本机尚未保存该模板文档');
  });
});

describe("a template's document as written (the template approval page)", () => {
  it('renders the template as its author wrote it, bookmarks holding their placeholders', async () => {
    const calls = renderWith(
      {
        'contractDocument.template': () => ({ size: template.length, name: 'f-1.docx' }),
        'contractDocument.read': ({ offset }) => ({ data: base64(template.subarray(offset, offset + 4096)), size: template.length }),
      },
      <TemplateDocumentPreview fileId="0190c0de-0000-7000-8000-0000000000f1" />,
    );
    await waitFor(() => expect(screen.getByTestId('template-document-preview').dataset.phase).toBe('shown'));
    const pages = screen.getByTestId('template-document-pages').textContent;
    expect(pages).toContain('采购合同');
    expect(pages).toContain('（付款条款）');
    expect(calls('contractDocument.template')).toEqual([expect.objectContaining({ fileId: '0190c0de-0000-7000-8000-0000000000f1' })]);
  });
});

describe("the template editor's document section", () => {
  const kept: TemplateDocument = { fileId: 'f-1', name: 'purchase.docx', size: template.length, bookmarks: ['bm_name', 'bm_amount', 'bm_payment', 'bm_signature'] };

  /** The section as the editor holds it: the document, the fields and the clauses its mapping changes. */
  function Section({ initial, changes, mapped = [] }: { initial: TemplateDocument | null; changes: (TemplateDocument | null)[]; mapped?: { fields: FieldConfig[]; clauses: Clause[] }[] }) {
    const [document, setDocument] = useState(initial);
    const [form, setForm] = useState({ fields, clauses });
    return (
      <TemplateDocumentSection
        fields={form.fields}
        clauses={form.clauses}
        document={document}
        onChange={(next) => {
          changes.push(next);
          setDocument(next);
        }}
        onMap={(bookmark, owner) => {
          const next = withBookmarkMapped(form.fields, form.clauses, bookmark, owner);
          mapped.push(next);
          setForm(next);
        }}
      />
    );
  }

  const mapSelect = (bookmark: string) => within(document.querySelector<HTMLElement>(`[data-bookmark="${bookmark}"]`)!).getByRole<HTMLSelectElement>('combobox');

  const choose = (bytes: Uint8Array, name = 'contract.docx') => {
    const input = document.querySelector<HTMLInputElement>('#template-document-file')!;
    fireEvent.change(input, { target: { files: [new File([bytes as Uint8Array<ArrayBuffer>], name)] } });
  };

  it('lists the bookmarks with what each maps to, and warns of those that map to nothing and fields without one', () => {
    renderWith({}, <Section initial={kept} changes={[]} />);
    expect(screen.getByTestId('template-document-name').textContent).toContain('purchase.docx');
    const rows = within(screen.getByTestId('template-document-bookmarks')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelector('td')!.textContent)).toEqual(['bm_name', 'bm_amount', 'bm_payment', 'bm_signature']);
    const chosen = (bookmark: string) => mapSelect(bookmark).selectedOptions[0]!.textContent;
    expect(['bm_name', 'bm_amount', 'bm_payment', 'bm_signature'].map(chosen)).toEqual(['Field: 合同名称', 'Field: 合同金额', 'Clause: 付款条款', 'Nothing']);
    // Every field but the clause's own, and every clause, can be chosen.
    expect([...mapSelect('bm_signature').options].map((option) => option.textContent)).toEqual(['Nothing', 'Field: 合同名称', 'Field: 合同金额', 'Field: 备注', 'Clause: 付款条款']);
    const warnings = screen.getByTestId('template-document-warnings').textContent;
    expect(warnings).toContain('Bookmarks that map to nothing: bm_signature');
    expect(warnings).toContain('Fields that map to no bookmark: 备注');
  });

  it('maps a bookmark to the field chosen for it, taking it from whoever had it, until every one maps', () => {
    const mapped: { fields: FieldConfig[]; clauses: Clause[] }[] = [];
    renderWith({}, <Section initial={kept} changes={[]} mapped={mapped} />);
    fireEvent.change(mapSelect('bm_signature'), { target: { value: 'field:remark' } });
    expect(mapped.at(-1)!.fields.find((field) => field.id === 'remark')!.bookmarkNames).toEqual(['bm_signature']);
    expect(screen.getByTestId('template-document-warnings').textContent).toBe('Every bookmark maps to a field or clause, and every field and clause to a bookmark.');
    // The amount's bookmark given to the remark: the amount has none left, and says so.
    fireEvent.change(mapSelect('bm_amount'), { target: { value: 'field:remark' } });
    const { fields: after } = mapped.at(-1)!;
    expect(after.find((field) => field.id === 'remark')!.bookmarkNames).toEqual(['bm_signature', 'bm_amount']);
    expect(after.find((field) => field.id === 'amount')!.bookmarkNames).toBeUndefined();
    expect(screen.getByTestId('template-document-warnings').textContent).toBe('Fields that map to no bookmark: 合同金额');
    // A clause taken off its bookmark has none.
    fireEvent.change(mapSelect('bm_payment'), { target: { value: '' } });
    expect(mapped.at(-1)!.clauses[0]!.bookmarkName).toBeNull();
    expect(mapSelect('bm_payment').value).toBe('');
  });

  it('shows the mapping without choices where it cannot be changed (the template approval page)', () => {
    renderWith({}, <DocumentMapping fields={fields} clauses={clauses} document={kept} />);
    const rows = within(screen.getByTestId('template-document-bookmarks')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['bm_nameField: 合同名称', 'bm_amountField: 合同金额', 'bm_paymentClause: 付款条款', 'bm_signatureNothing']);
    expect(screen.queryAllByRole('combobox')).toEqual([]);
  });

  it('refuses a file that is not a DOCX and colliding bookmark names before anything is uploaded', async () => {
    const changes: (TemplateDocument | null)[] = [];
    const calls = renderWith({}, <Section initial={null} changes={changes} />);
    expect(screen.getByTestId('template-document-none')).toBeTruthy();
    choose(new TextEncoder().encode('%PDF-1.7'));
    expect((await screen.findByTestId('template-document-problem')).textContent).toContain('must be a Word document (.docx)');
    choose(sampleDocx([labelled('a', 'Amount'), labelled('b', 'AMOUNT')]));
    await waitFor(() => expect(screen.getByTestId('template-document-problem').textContent).toContain('Amount / AMOUNT'));
    expect(calls('files.uploadBegin')).toEqual([]);
    expect(changes).toEqual([]);
  });

  it('uploads a good document as the template purpose and hands the editor its bookmarks; removing it hands null', async () => {
    const changes: (TemplateDocument | null)[] = [];
    const calls = renderWith(
      {
        'files.uploadBegin': () => ({ uploadId: '0190c0de-0000-7000-8000-0000000000a1' }),
        'files.uploadChunk': (request) => ({ received: Buffer.from(request.data, 'base64').length }),
        'files.uploadFinish': () => ({ id: 'f-2', name: 'new.docx', file: '/api/v1/files/f-2' }),
      },
      <Section initial={null} changes={changes} />,
    );
    choose(template, 'new.docx');
    await waitFor(() => expect(changes).toHaveLength(1));
    expect(calls('files.uploadBegin')).toEqual([expect.objectContaining({ name: 'new.docx', purpose: 'template', size: template.length })]);
    expect(changes[0]).toEqual({ fileId: 'f-2', name: 'new.docx', size: template.length, bookmarks: ['bm_name', 'bm_amount', 'bm_payment', 'bm_signature'] });
    expect(screen.getByTestId('template-document-bookmarks')).toBeTruthy();
    fireEvent.click(screen.getByTestId('template-document-remove'));
    expect(changes[1]).toBeNull();
    expect(screen.getByTestId('template-document-none')).toBeTruthy();
  });

  it("shows the core's refusal of an upload (offline) in the user's language", async () => {
    await i18n.changeLanguage('zh-CN');
    renderWith(
      { 'files.uploadBegin': () => new Refusal({ code: 'offline', message: 'offline' }) },
      <Section initial={null} changes={[]} />,
    );
    choose(template);
    const problem = await screen.findByTestId('template-document-problem');
    expect(problem.textContent).toBe(i18n.t('errors.offline'));
  });
});
