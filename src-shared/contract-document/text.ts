import { bookmarkStarts, decodeXmlText, documentXml, findBookmarkEnd, openDocx } from './docx';

// The text of a DOCX, read back: its paragraphs (what the PDF prints) and what each bookmark
// holds (what a filled document shows at its bookmarks).

export interface DocumentParagraph {
  text: string;
  /** A title or heading style: printed larger and bold. */
  heading: boolean;
  centered: boolean;
}

/** The text of an XML stretch: `w:t` contents, tabs and line breaks; paragraph ends as new lines. */
function plainText(xml: string): string {
  let text = '';
  for (const match of xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:tab\/>|<w:br(?:\s[^>]*)?\/>|<\/w:p>/g)) {
    const [element, content] = match;
    if (content !== undefined) text += decodeXmlText(content);
    else if (element === '<w:tab/>') text += '\t';
    else text += '\n';
  }
  return text;
}

/** Each paragraph of the document body, in order (table cells' paragraphs included). */
export function documentParagraphs(docx: Uint8Array): DocumentParagraph[] {
  const xml = documentXml(openDocx(docx));
  return [...xml.matchAll(/<w:p(?:\s[^>]*)?>([\s\S]*?)<\/w:p>|<w:p(?:\s[^>]*)?\/>/g)].map((match) => {
    const body = match[1] ?? '';
    const style = /<w:pStyle\s+w:val="([^"]*)"/.exec(body)?.[1] ?? '';
    return {
      text: plainText(body),
      heading: /^(title|heading\d*|\d+)$/i.test(style) || /^(标题|Title)/.test(style),
      centered: /<w:jc\s+w:val="center"/.test(body),
    };
  });
}

/** What each bookmark of the document holds, by its name (a bookmark over paragraphs: their lines). */
export function bookmarkTexts(docx: Uint8Array): Map<string, string> {
  const xml = documentXml(openDocx(docx));
  const texts = new Map<string, string>();
  for (const bookmark of bookmarkStarts(xml)) {
    const end = findBookmarkEnd(xml, bookmark.id, bookmark.end);
    texts.set(bookmark.name, end ? plainText(xml.slice(bookmark.end, end.start)).replace(/\n+$/, '') : '');
  }
  return texts;
}
