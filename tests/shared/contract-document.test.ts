import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import { readDocumentBookmarks } from '../../src-shared/contract-document/docx';
import { maxTemplateDocumentBytes } from '../../src-shared/contract-document/schema';
import { fillTemplateDocument, type FillInput } from '../../src-shared/contract-document/fill';
import { mapDocument, refuseCollidingClaims, withBookmarkMapped } from '../../src-shared/contract-document/mapping';
import { bookmarkTexts, documentParagraphs } from '../../src-shared/contract-document/text';
import type { Clause, FieldConfig } from '../../src-shared/domain/contract-forms';
import { catalogWords } from '../../src-shared/form/display-value';
import { AppFailure } from '../../src-shared/errors';
import { labelled, sampleDocx } from '../../src-server/contract-document/sample-document';

// The template document (issue 29): its bookmarks read, mapped to fields and clauses, filled with
// a contract's values (read back: the bookmarks hold them), and bad documents refused.

const text = (t: string) => ({ type: 'text' as const, text: t });

const fields: FieldConfig[] = [
  { id: 'contractName', name: '合同名称', type: 'text', bookmarkNames: ['bm_name'] },
  { id: 'amount', name: '合同金额', type: 'money', bookmarkNames: ['bm_amount', 'bm_amount_again'] },
  { id: 'signDate', name: '签订日期', type: 'date', fieldConfig: { date: { dateFormat: 'yyyy年MM月dd日' } }, bookmarkNames: ['bm_date'] },
  { id: 'counterparty', name: '相对方', type: 'inputSelectV2', bookmarkNames: ['bm_party'] },
  { id: 'method', name: '付款方式', type: 'select', options: [{ id: '1', name: '银行转账' }, { id: '2', name: '承兑汇票' }], bookmarkNames: ['bm_method'] },
  { id: 'owner', name: '负责人', type: 'people', bookmarkNames: ['bm_owner'] },
  { id: 'remark', name: '备注', type: 'textarea' },
  { id: 'payment', name: '付款条款', type: 'clause' },
  { id: 'extra', name: '附加条款', type: 'clause' },
];

const payment: Clause = {
  labelID: 'payment', name: '付款条款', isNullable: true, bookmarkName: 'bm_payment',
  statementList: [
    {
      id: 1, name: '一次性付款', content: [[text('甲方应于合同签订后'), { type: 'field', fieldId: 'payDays' }, text('日内一次性支付。')], [text('逾期按日万分之五计息。')]],
      fieldList: [{ id: 'payDays', name: '付款天数', type: 'number' }], labelItemList: [],
    },
    { id: 2, name: '空白', content: [], fieldList: [], labelItemList: [] },
  ],
};
const extra: Clause = {
  labelID: 'extra', name: '附加条款', isNullable: true, bookmarkName: 'bm_extra',
  statementList: [
    { id: 1, name: '保密', content: [[text('双方应保守商业秘密。')]], fieldList: [], labelItemList: [] },
    { id: 2, name: '知识产权', content: [[text('知识产权归甲方所有。')]], fieldList: [], labelItemList: [] },
  ],
};

const template = sampleDocx([
  { segments: [{ text: '采购合同 {not a tag}' }], style: 'Title' },
  labelled('合同名称', 'bm_name'),
  { segments: [{ text: '金额：' }, { bookmark: 'bm_amount', placeholder: '____' }, { text: '（大写同上：' }, { bookmark: 'bm_amount_again' }, { text: '）' }] },
  labelled('签订日期', 'bm_date'),
  labelled('相对方', 'bm_party'),
  labelled('付款方式', 'bm_method'),
  labelled('负责人', 'bm_owner'),
  { segments: [{ bookmark: 'bm_payment', placeholder: '（付款条款）' }] },
  { segments: [{ text: '附加条款如下：' }] },
  { segments: [{ bookmark: 'bm_extra', placeholder: '（附加条款）' }] },
  { segments: [{ text: '末尾段落' }] },
  { segments: [{ bookmark: 'bm_unused' }] },
]);

const formValues = {
  contractName: '办公设备采购合同',
  amount: { amount: 12_345_600, unit: 'CNY' },
  signDate: '2026-03-05',
  counterparty: [{ id: 'p1', name: '上海云杉科技有限公司' }],
  method: '2',
  owner: [{ id: 'u1', name: '王伟' }],
  payment: { statementId: 1, fieldList: [{ id: 'payDays', name: '付款天数', positionName: 'payment_payDays_x1' }], values: { payment_payDays_x1: 30 } },
  extra: { statementId: -1, fieldList: [], values: {} },
};

const input = (values: Record<string, unknown>, language: 'en' | 'zh-CN' = 'zh-CN'): FillInput => ({
  fields, clauses: [payment, extra], formValues: values, words: catalogWords(language, ''),
});

describe('template document bookmarks', () => {
  it('lists the bookmarks in document order and maps them to fields and clauses', () => {
    const bookmarks = readDocumentBookmarks(template);
    expect(bookmarks).toEqual(['bm_name', 'bm_amount', 'bm_amount_again', 'bm_date', 'bm_party', 'bm_method', 'bm_owner', 'bm_payment', 'bm_extra', 'bm_unused']);
    const mapping = mapDocument(bookmarks, fields, [payment, extra]);
    expect(mapping.unmappedBookmarks).toEqual(['bm_unused']);
    expect(mapping.fieldsWithoutBookmark).toEqual([{ id: 'remark', name: '备注' }]);
    expect(mapping.clausesWithoutBookmark).toEqual([]);
    expect(mapping.bookmarks.find((b) => b.name === 'bm_payment')?.target).toEqual({ kind: 'clause', labelID: 'payment', name: '付款条款' });
    expect(mapping.collisions).toEqual([]);
  });

  it('warns of a clause whose bookmark is not in the document', () => {
    const mapping = mapDocument(['bm_name'], fields, [payment]);
    expect(mapping.clausesWithoutBookmark).toEqual([{ labelID: 'payment', name: '付款条款' }]);
  });

  it('refuses a bookmark claimed by two fields or a field and a clause (case-blind, as Word)', () => {
    const twice: FieldConfig[] = [...fields, { id: 'other', name: '另一字段', type: 'text', bookmarkNames: ['BM_Payment'] }];
    expect(mapDocument([], twice, [payment]).collisions).toEqual([{ bookmark: 'BM_Payment', owners: ['另一字段', '付款条款'] }]);
    expect(() => refuseCollidingClaims(twice, [payment])).toThrow(/BM_Payment/);
    expect(() => refuseCollidingClaims(fields, [payment, extra])).not.toThrow();
  });

  it('gives a bookmark to one field or clause, taken from whoever named it before (case-blind, as Word)', () => {
    const toRemark = withBookmarkMapped(fields, [payment, extra], 'BM_AMOUNT', { kind: 'field', id: 'remark' });
    expect(toRemark.fields.find((field) => field.id === 'amount')!.bookmarkNames).toEqual(['bm_amount_again']);
    expect(toRemark.fields.find((field) => field.id === 'remark')!.bookmarkNames).toEqual(['BM_AMOUNT']);
    // Fields that never named it are the same objects: nothing else changes.
    expect(toRemark.fields[0]).toBe(fields[0]);
    expect(mapDocument(['bm_amount'], toRemark.fields, toRemark.clauses).collisions).toEqual([]);
    // A clause has one bookmark: the new one replaces its own, and the field that had it lets it go.
    const toClause = withBookmarkMapped(fields, [payment, extra], 'bm_name', { kind: 'clause', labelID: 'extra' });
    expect(toClause.clauses.map((clause) => clause.bookmarkName)).toEqual(['bm_payment', 'bm_name']);
    expect(toClause.fields[0]).not.toHaveProperty('bookmarkNames');
    const toNothing = withBookmarkMapped(fields, [payment, extra], 'bm_payment', null);
    expect(toNothing.clauses.map((clause) => clause.bookmarkName)).toEqual([null, 'bm_extra']);
    expect(toNothing.fields).toEqual(fields);
  });

  it('refuses a file that is not a DOCX, a zip that is no Word document, one too large, and colliding bookmark names', () => {
    const refusal = (bytes: Uint8Array) => {
      try {
        readDocumentBookmarks(bytes);
      } catch (cause) {
        return cause instanceof AppFailure ? cause.error.reason?.key : 'other';
      }
      return 'accepted';
    };
    expect(refusal(new TextEncoder().encode('%PDF-1.7 not a word document'))).toBe('documentNotDocx');
    const zip = new PizZip();
    zip.file('readme.txt', 'hello');
    expect(refusal(zip.generate({ type: 'uint8array' }))).toBe('documentNotDocx');
    expect(refusal(new Uint8Array(maxTemplateDocumentBytes + 1))).toBe('documentTooLarge');
    const colliding = sampleDocx([labelled('a', 'Amount'), labelled('b', 'amount')]);
    expect(refusal(colliding)).toBe('bookmarksCollide');
  });
});

describe('filling the template document', () => {
  it('puts each value at its bookmarks as the form shows it, and the chosen statement at its clause', () => {
    const filled = fillTemplateDocument(template, input(formValues));
    const held = bookmarkTexts(filled);
    expect(held.get('bm_name')).toBe('办公设备采购合同');
    expect(held.get('bm_amount')).toBe('123,456.00 人民币');
    expect(held.get('bm_amount_again')).toBe('123,456.00 人民币');
    expect(held.get('bm_date')).toBe('2026年03月05日');
    expect(held.get('bm_party')).toBe('上海云杉科技有限公司');
    expect(held.get('bm_method')).toBe('承兑汇票');
    expect(held.get('bm_owner')).toBe('王伟');
    expect(held.get('bm_payment')).toBe('甲方应于合同签订后30日内一次性支付。\n逾期按日万分之五计息。');
    // 'do not show this clause' removes its paragraph, bookmark and all.
    expect(held.has('bm_extra')).toBe(false);
    const paragraphs = documentParagraphs(filled).map((p) => p.text);
    expect(paragraphs).not.toContain('（附加条款）');
    expect(paragraphs[0]).toBe('采购合同 {not a tag}');
    expect(paragraphs).toContain('附加条款如下：');
    expect(paragraphs).toContain('末尾段落');
    // The filled document is still a document with the same bookmarks (less the removed one).
    expect(readDocumentBookmarks(filled)).toEqual(readDocumentBookmarks(template).filter((name) => name !== 'bm_extra'));
  });

  it('shows an empty statement as a blank paragraph, and leaves a clause without a chosen statement as the template wrote it', () => {
    const filled = fillTemplateDocument(template, input({ payment: { statementId: 2, fieldList: [], values: {} } }));
    expect(bookmarkTexts(filled).get('bm_payment')).toBe('');
    expect(bookmarkTexts(filled).get('bm_extra')).toBe('（附加条款）');
    const paragraphs = documentParagraphs(filled).map((p) => p.text);
    expect(paragraphs.filter((p) => p === '').length).toBeGreaterThanOrEqual(1);
    expect(paragraphs.length).toBe(documentParagraphs(template).length);
  });

  it('writes the words and days of the language asked for, as the form shows them in it', () => {
    const filled = fillTemplateDocument(template, input({ amount: { amount: 100, unit: 'USD' }, signDate: '2026-03-05' }, 'en'));
    expect(bookmarkTexts(filled).get('bm_amount')).toBe('1.00 USD');
    expect(bookmarkTexts(filled).get('bm_name')).toBe('');
    // The field's Chinese pattern is not for English: the English day, as the English form shows it.
    expect(bookmarkTexts(filled).get('bm_date')).toBe('5 Mar 2026');
    const undated = fields.map((field) => (field.id === 'signDate' ? { ...field, fieldConfig: {} } : field));
    const inChinese = fillTemplateDocument(template, { ...input({ signDate: '2026-03-05' }), fields: undated });
    expect(bookmarkTexts(inChinese).get('bm_date')).toBe('2026年03月05日');
  });

  it('inserts nothing on template-approval pages', () => {
    const shown = fillTemplateDocument(template, { ...input(formValues), templateApproval: true });
    expect(bookmarkTexts(shown).get('bm_payment')).toBe('（付款条款）');
    expect(bookmarkTexts(shown).get('bm_name')).toBe('________');
  });

  it('fills a bookmark that spans paragraphs (a whole paragraph selected in Word)', () => {
    const xml = (body: string) => `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
    const zip = new PizZip(template);
    zip.file(
      'word/document.xml',
      xml('<w:p><w:bookmarkStart w:id="7" w:name="bm_payment"/><w:r><w:t>old one</w:t></w:r></w:p><w:p><w:r><w:t>old two</w:t></w:r></w:p><w:p><w:bookmarkEnd w:id="7"/><w:r><w:t>after</w:t></w:r></w:p>'),
    );
    const filled = fillTemplateDocument(zip.generate({ type: 'uint8array' }), input(formValues));
    expect(documentParagraphs(filled).map((p) => p.text)).toEqual(['甲方应于合同签订后30日内一次性支付。\n逾期按日万分之五计息。', 'after']);
  });
});
