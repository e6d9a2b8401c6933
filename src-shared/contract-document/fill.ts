import Docxtemplater from 'docxtemplater';
import type { Clause, ClauseStatement, FieldConfig } from '../domain/contract-forms';
import { hiddenStatementId } from '../form/clause';
import { formatFieldValue, type DisplayWords } from '../form/display-value';
import { parseFormField } from '../form/field-config';
import { bookmarkKey, bookmarkStarts, documentPart, documentXml, findBookmarkEnd, openDocx, type BookmarkStart } from './docx';

// Drafting fills the template's document (spec 4 "Clause"): each field's value, as the form shows
// it, at the field's bookmarks; the chosen statement of each clause at the clause's bookmark (an
// empty statement a blank paragraph, 'do not show this clause' removing the paragraph). The
// bookmark mapping turns each bookmark into a docxtemplater tag; docxtemplater writes the values.

export interface FillInput {
  fields: readonly FieldConfig[];
  clauses: readonly Clause[];
  formValues: Readonly<Record<string, unknown>>;
  words: DisplayWords;
  /** Template-approval pages show the template as written: nothing is inserted (spec 4). */
  templateApproval?: boolean;
}

/** What goes at a bookmark: text (lines split by '\n'), or its paragraph goes. */
type Placement = { kind: 'text'; text: string } | { kind: 'remove' };

// Tag delimiters no document text uses (Unicode private use), so Word text with braces stays text.
const open = '\uE000';
const close = '\uE001';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function fieldText(field: FieldConfig, value: unknown, words: DisplayWords, clauses: readonly Clause[]): string {
  const parsed = parseFormField(field);
  return formatFieldValue(parsed.success ? parsed.data : undefined, value, words, clauses);
}

/** A statement's paragraphs with its fields' values, one line each. */
function statementText(statement: ClauseStatement, value: Record<string, unknown>, words: DisplayWords, clauses: readonly Clause[]): string {
  const chosenFields = Array.isArray(value.fieldList) ? value.fieldList.filter(isRecord) : [];
  const values = isRecord(value.values) ? value.values : {};
  const partText = (fieldId: string): string => {
    const config = statement.fieldList.find((field) => field.id === fieldId);
    const position = chosenFields.find((field) => field.id === fieldId)?.positionName;
    const fieldValue = typeof position === 'string' ? values[position] : undefined;
    return config ? fieldText(config, fieldValue, words, clauses) : words.empty;
  };
  return statement.content.map((paragraph) => paragraph.map((part) => (part.type === 'text' ? part.text : partText(part.fieldId))).join('')).join('\n');
}

/** What each mapped bookmark receives, by Word's case-blind key. */
function placements(input: FillInput): Map<string, Placement> {
  const placed = new Map<string, Placement>();
  for (const field of input.fields) {
    if (!field.bookmarkNames?.length) continue;
    const text = fieldText(field, input.formValues[field.id], input.words, input.clauses);
    for (const bookmark of field.bookmarkNames) placed.set(bookmarkKey(bookmark), { kind: 'text', text });
  }
  for (const clause of input.clauses) {
    const value = input.formValues[clause.labelID];
    // No statement chosen yet: the template's own text stays at the bookmark.
    if (!clause.bookmarkName || !isRecord(value) || typeof value.statementId !== 'number') continue;
    const key = bookmarkKey(clause.bookmarkName);
    if (value.statementId === hiddenStatementId) {
      placed.set(key, { kind: 'remove' });
      continue;
    }
    const statement = clause.statementList.find((s) => s.id === value.statementId);
    if (statement) placed.set(key, { kind: 'text', text: statementText(statement, value, input.words, input.clauses) });
  }
  return placed;
}

// ----- The bookmark mapping: the only OOXML written by hand -----

/** A run (`w:r`), never `w:rPr`/`w:rFonts` (which also start with `<w:r`). */
const runPattern = /<w:r(?:\s[^>]*)?>[\s\S]*?<\/w:r>|<w:r(?:\s[^>]*)?\/>/g;
const paragraphOpening = /<w:p(?:\s[^>]*)?>/g;

const stripRuns = (xml: string) => xml.replace(runPattern, '');

/** Where the paragraph around `at` opens (the last `<w:p>` before it). */
function paragraphStart(xml: string, at: number): number {
  let found = -1;
  for (const match of xml.slice(0, at).matchAll(paragraphOpening)) found = match.index;
  return found;
}

/**
 * The bookmark's content becomes one run holding `tag` (in the first replaced run's format): the
 * runs inside it go, and so do whole paragraphs inside a bookmark that spans several.
 */
function tagBookmark(xml: string, bookmark: BookmarkStart, tag: string): string {
  const end = findBookmarkEnd(xml, bookmark.id, bookmark.end);
  const between = end ? xml.slice(bookmark.end, end.start) : '';
  const format = /<w:r(?:\s[^>]*)?>\s*(<w:rPr>[\s\S]*?<\/w:rPr>)/.exec(between)?.[1] ?? '';
  const firstClose = between.indexOf('</w:p>');
  let kept: string;
  if (firstClose === -1) {
    kept = stripRuns(between);
  } else {
    const lastOpen = paragraphStart(between, between.length);
    kept = `${stripRuns(between.slice(0, firstClose))}</w:p>${stripRuns(between.slice(Math.max(lastOpen, firstClose + 6)))}`;
  }
  const run = `<w:r>${format}<w:t xml:space="preserve">${open}${tag}${close}</w:t></w:r>`;
  return `${xml.slice(0, bookmark.end)}${run}${kept}${xml.slice(end ? end.start : bookmark.end)}`;
}

/** The paragraph holding the bookmark goes, and the bookmark's end wherever it was. */
function removeBookmarkParagraph(xml: string, bookmark: BookmarkStart): string {
  const end = findBookmarkEnd(xml, bookmark.id, bookmark.end);
  const from = paragraphStart(xml, bookmark.start);
  const to = xml.indexOf('</w:p>', bookmark.start);
  if (from === -1 || to === -1) return xml;
  const after = to + '</w:p>'.length;
  const tail = end && end.start >= after ? `${xml.slice(after, end.start)}${xml.slice(end.end)}` : xml.slice(after);
  return `${xml.slice(0, from)}${tail}`;
}

/** Bookmarks to tags, from the last to the first so that earlier offsets stay valid. */
function mapBookmarks(xml: string, placed: Map<string, Placement>): { xml: string; data: Record<string, string> } {
  const data: Record<string, string> = {};
  const starts = bookmarkStarts(xml).filter((bookmark) => placed.has(bookmarkKey(bookmark.name)));
  let mapped = xml;
  starts.reverse().forEach((bookmark, i) => {
    const placement = placed.get(bookmarkKey(bookmark.name))!;
    const tag = `b${i}`;
    mapped = tagBookmark(mapped, bookmark, tag);
    if (placement.kind === 'remove') mapped = removeBookmarkParagraph(mapped, bookmark);
    else data[tag] = placement.text;
  });
  return { xml: mapped, data };
}

/** The filled DOCX. Refuses what is not a DOCX (as `openDocx`). */
export function fillTemplateDocument(docx: Uint8Array, input: FillInput): Uint8Array {
  const zip = openDocx(docx);
  if (input.templateApproval) return docx;
  const { xml, data } = mapBookmarks(documentXml(zip), placements(input));
  zip.file(documentPart, xml);
  const doc = new Docxtemplater(zip, { delimiters: { start: open, end: close }, linebreaks: true, paragraphLoop: false, nullGetter: () => '' });
  doc.render(data);
  return doc.getZip().generate({ type: 'uint8array', compression: 'DEFLATE' });
}
