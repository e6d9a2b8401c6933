import PizZip from 'pizzip';
import { AppFailure, reason } from '../errors';
import { maxTemplateDocumentBytes } from './schema';

// A template's Word document (issue 29): the DOCX a legal team writes, whose bookmarks
// (`w:bookmarkStart` names) say where the contract's values and clause statements go. Reading
// them is the only OOXML this app looks into by hand; filling goes through docxtemplater (fill.ts).

/** The body of the document; headers and footers carry no bookmarks a contract value goes to. */
export const documentPart = 'word/document.xml';

const refuseNotDocx = () => new AppFailure('bad_request', 'the template document must be a Word document (.docx)', undefined, reason('documentNotDocx'));

/** Opens a DOCX; refuses anything that is not one (another format, a zip without a Word body). */
export function openDocx(bytes: Uint8Array): PizZip {
  if (bytes.length > maxTemplateDocumentBytes) {
    const megabytes = maxTemplateDocumentBytes / 1024 / 1024;
    throw new AppFailure('bad_request', `the template document may be at most ${megabytes} MB`, undefined, reason('documentTooLarge', { megabytes }));
  }
  let zip: PizZip;
  try {
    zip = new PizZip(bytes);
  } catch {
    throw refuseNotDocx();
  }
  if (!zip.file(documentPart) || !zip.file('[Content_Types].xml')) throw refuseNotDocx();
  return zip;
}

export function documentXml(zip: PizZip): string {
  const part = zip.file(documentPart);
  if (!part) throw refuseNotDocx();
  return part.asText();
}

/** One `w:bookmarkStart` of the document, where it stands in the XML. */
export interface BookmarkStart {
  name: string;
  id: string;
  /** Offsets of the element in the document XML. */
  start: number;
  end: number;
}

const attribute = (element: string, name: string): string | null => new RegExp(`\\s${name}="([^"]*)"`).exec(element)?.[1] ?? null;

/** The XML entities Word writes in attribute values. */
export function decodeXmlText(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-fA-F]+|#[0-9]+);/g, (entity, body: string) => {
    if (body === 'lt') return '<';
    if (body === 'gt') return '>';
    if (body === 'amp') return '&';
    if (body === 'quot') return '"';
    if (body === 'apos') return "'";
    return String.fromCodePoint(body.startsWith('#x') ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10));
  });
}

/** Word's own bookmarks (_GoBack, _Toc…, _Hlk…) start with '_' and are hidden from users: never a place for a value. */
const isHiddenBookmark = (name: string) => name.startsWith('_');

/** Every bookmark start of the document XML, in document order (Word's hidden ones left out). */
export function bookmarkStarts(xml: string): BookmarkStart[] {
  const found: BookmarkStart[] = [];
  for (const match of xml.matchAll(/<w:bookmarkStart\b[^>]*>/g)) {
    const name = attribute(match[0], 'w:name');
    const id = attribute(match[0], 'w:id');
    if (name === null || id === null || isHiddenBookmark(name)) continue;
    found.push({ name: decodeXmlText(name), id, start: match.index, end: match.index + match[0].length });
  }
  return found;
}

/** The `w:bookmarkEnd` of bookmark `id` after offset `from`; null when the document has none. */
export function findBookmarkEnd(xml: string, id: string, from: number): { start: number; end: number } | null {
  const pattern = new RegExp(`<w:bookmarkEnd\\b[^>]*\\sw:id="${id.replace(/[^0-9A-Za-z_-]/g, '')}"[^>]*>`, 'g');
  pattern.lastIndex = from;
  const match = pattern.exec(xml);
  return match ? { start: match.index, end: match.index + match[0].length } : null;
}

/** Word compares bookmark names without case: two names that differ only in case are one bookmark. */
export const bookmarkKey = (name: string) => name.toLowerCase();

/** Names that stand for one bookmark more than once (each spelling once). */
export function collidingBookmarks(names: readonly string[]): string[] {
  const seen = new Map<string, string[]>();
  for (const name of names) seen.set(bookmarkKey(name), [...(seen.get(bookmarkKey(name)) ?? []), name]);
  return [...seen.values()].filter((spellings) => spellings.length > 1).map((spellings) => [...new Set(spellings)].join(' / '));
}

/**
 * The bookmark names of a template document, in document order. Refuses a file that is not a
 * DOCX, one over the size limit, and one whose bookmark names collide.
 */
export function readDocumentBookmarks(bytes: Uint8Array): string[] {
  const names = bookmarkStarts(documentXml(openDocx(bytes))).map((bookmark) => bookmark.name);
  const collisions = collidingBookmarks(names);
  if (collisions.length > 0) {
    throw new AppFailure('bad_request', `the document's bookmark names collide: ${collisions.join(', ')}`, undefined, reason('bookmarksCollide', { names: collisions.join(', ') }));
  }
  return names;
}
