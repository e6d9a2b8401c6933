import PizZip from 'pizzip';

// A small Word document with bookmarks, written by code (no binary in git): the seeded templates'
// document, and the fixtures of the tests and the bench. Real templates come from Word.

/** A stretch of a paragraph: plain text, or a bookmark around placeholder text (empty: a point). */
export type SampleSegment = { text: string } | { bookmark: string; placeholder?: string };

export interface SampleParagraph {
  segments: SampleSegment[];
  style?: 'Title' | 'Heading1';
  /** A page break after the paragraph. */
  pageBreak?: boolean;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`;

const packageRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

const documentRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;

const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Noto Sans SC" w:eastAsia="Noto Sans SC" w:hAnsi="Noto Sans SC"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="360" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:pPr><w:jc w:val="center"/><w:spacing w:after="240"/></w:pPr><w:rPr><w:b/><w:sz w:val="36"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:before="240" w:after="120"/></w:pPr><w:rPr><w:b/><w:sz w:val="26"/></w:rPr></w:style></w:styles>`;

function paragraphXml(paragraph: SampleParagraph, nextId: () => number): string {
  const properties = paragraph.style ? `<w:pPr><w:pStyle w:val="${paragraph.style}"/></w:pPr>` : '';
  const runs = paragraph.segments
    .map((segment) => {
      if ('text' in segment) return `<w:r><w:t xml:space="preserve">${escape(segment.text)}</w:t></w:r>`;
      const id = nextId();
      const placeholder = segment.placeholder ? `<w:r><w:rPr><w:u w:val="single"/></w:rPr><w:t xml:space="preserve">${escape(segment.placeholder)}</w:t></w:r>` : '';
      return `<w:bookmarkStart w:id="${id}" w:name="${escape(segment.bookmark)}"/>${placeholder}<w:bookmarkEnd w:id="${id}"/>`;
    })
    .join('');
  const pageBreak = paragraph.pageBreak ? '<w:r><w:br w:type="page"/></w:r>' : '';
  return `<w:p>${properties}${runs}${pageBreak}</w:p>`;
}

/** A DOCX of these paragraphs (A4, default margins). */
export function sampleDocx(paragraphs: readonly SampleParagraph[]): Uint8Array {
  let id = 0;
  const body = paragraphs.map((paragraph) => paragraphXml(paragraph, () => (id += 1))).join('');
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1800" w:bottom="1440" w:left="1800" w:header="851" w:footer="992" w:gutter="0"/></w:sectPr></w:body></w:document>`;
  const zip = new PizZip();
  // A fixed date keeps the seeded document's bytes (and so its hash) the same on every run.
  const date = new Date(Date.UTC(2026, 0, 1));
  zip.file('[Content_Types].xml', contentTypes, { date });
  zip.file('_rels/.rels', packageRels, { date });
  zip.file('word/_rels/document.xml.rels', documentRels, { date });
  zip.file('word/styles.xml', styles, { date });
  zip.file('word/document.xml', document, { date });
  return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
}

/** "label：" then a bookmark with a placeholder. */
export const labelled = (label: string, bookmark: string, placeholder = '________'): SampleParagraph => ({
  segments: [{ text: `${label}：` }, { bookmark, placeholder }],
});

/** The seeded purchase and sales templates' document: a title, the key terms, the two clauses. */
export function standardContractDocx(title: string): Uint8Array {
  return sampleDocx([
    { segments: [{ text: title }], style: 'Title' },
    labelled('合同名称', 'bm_contractName'),
    labelled('合同编号', 'bm_contractNumber'),
    labelled('相对方（乙方）', 'bm_counterparty'),
    labelled('合同金额', 'bm_amount'),
    labelled('付款方式', 'bm_paymentMethod'),
    labelled('签订日期', 'bm_signDate'),
    labelled('合同期限', 'bm_period'),
    labelled('交货地点', 'bm_deliveryPlace'),
    labelled('合同标的', 'bm_subject'),
    { segments: [{ text: '一、付款条款' }], style: 'Heading1' },
    { segments: [{ bookmark: 'bm_payment', placeholder: '（付款条款）' }] },
    { segments: [{ text: '二、争议解决' }], style: 'Heading1' },
    { segments: [{ bookmark: 'bm_dispute', placeholder: '（争议解决条款）' }] },
    { segments: [{ text: '三、其他' }], style: 'Heading1' },
    { segments: [{ text: '本合同一式两份，双方各执一份，自双方签字盖章之日起生效。' }] },
    labelled('负责人', 'bm_responsiblePerson'),
    labelled('所属部门', 'bm_department'),
    labelled('备注', 'bm_remark', ''),
  ]);
}

/** The bookmarks of the standard document each seeded field fills (the field id after `bm_`). */
export const standardDocumentFieldIds = [
  'contractName', 'contractNumber', 'counterparty', 'amount', 'paymentMethod', 'signDate', 'period', 'deliveryPlace', 'subject', 'responsiblePerson', 'department', 'remark',
] as const;
