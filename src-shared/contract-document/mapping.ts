import type { Clause, FieldConfig } from '../domain/contract-forms';
import { AppFailure, reason } from '../errors';
import { bookmarkKey } from './docx';

// How a template's bookmarks map to its fields (`bookmarkNames`) and clauses (`bookmarkName`),
// spec 3: what the template editor lists and warns about, and what a template write refuses.

/** What a bookmark of the document stands for. */
export type BookmarkTarget = { kind: 'field'; id: string; name: string } | { kind: 'clause'; labelID: string; name: string };

export interface DocumentMapping {
  /** Each bookmark of the document with what it stands for (null: nothing). */
  bookmarks: { name: string; target: BookmarkTarget | null }[];
  /** Bookmarks of the document no field or clause names. */
  unmappedBookmarks: string[];
  /** Fields (clause fields aside: their clause has the bookmark) that name no bookmark of the document. */
  fieldsWithoutBookmark: { id: string; name: string }[];
  /** Clauses whose bookmark is not set or not in the document. */
  clausesWithoutBookmark: { labelID: string; name: string }[];
  /** A bookmark named by more than one field or clause: which value would it show? */
  collisions: { bookmark: string; owners: string[] }[];
}

/** Who names which bookmark (by Word's case-blind key), in template order. */
function claims(fields: readonly FieldConfig[], clauses: readonly Clause[]): Map<string, { bookmark: string; target: BookmarkTarget }[]> {
  const byKey = new Map<string, { bookmark: string; target: BookmarkTarget }[]>();
  const claim = (bookmark: string, target: BookmarkTarget) => {
    const key = bookmarkKey(bookmark);
    const owners = byKey.get(key) ?? [];
    // A field that names one bookmark twice claims it once.
    if (!owners.some((owner) => owner.target === target)) byKey.set(key, [...owners, { bookmark, target }]);
  };
  for (const field of fields) {
    if (field.type === 'clause') continue;
    const target: BookmarkTarget = { kind: 'field', id: field.id, name: field.name };
    for (const bookmark of field.bookmarkNames ?? []) if (bookmark.trim() !== '') claim(bookmark, target);
  }
  for (const clause of clauses) {
    if (clause.bookmarkName) claim(clause.bookmarkName, { kind: 'clause', labelID: clause.labelID, name: clause.name });
  }
  return byKey;
}

export function mapDocument(bookmarks: readonly string[], fields: readonly FieldConfig[], clauses: readonly Clause[]): DocumentMapping {
  const claimed = claims(fields, clauses);
  const inDocument = new Set(bookmarks.map(bookmarkKey));
  const mapped = (names: readonly string[] | null | undefined) => (names ?? []).some((name) => inDocument.has(bookmarkKey(name)));
  return {
    bookmarks: bookmarks.map((name) => ({ name, target: claimed.get(bookmarkKey(name))?.[0]?.target ?? null })),
    unmappedBookmarks: bookmarks.filter((name) => !claimed.has(bookmarkKey(name))),
    fieldsWithoutBookmark: fields.filter((field) => field.type !== 'clause' && !mapped(field.bookmarkNames)).map(({ id, name }) => ({ id, name })),
    clausesWithoutBookmark: clauses.filter((clause) => !mapped(clause.bookmarkName ? [clause.bookmarkName] : [])).map(({ labelID, name }) => ({ labelID, name })),
    collisions: [...claimed.values()]
      .filter((owners) => owners.length > 1)
      .map((owners) => ({ bookmark: owners[0]!.bookmark, owners: owners.map((owner) => owner.target.name) })),
  };
}

/** A template write whose fields and clauses claim one bookmark twice is refused (the first collision named). */
export function refuseCollidingClaims(fields: readonly FieldConfig[], clauses: readonly Clause[]): void {
  const [collision] = mapDocument([], fields, clauses).collisions;
  if (!collision) return;
  const owners = collision.owners.join(', ');
  throw new AppFailure('bad_request', `the bookmark "${collision.bookmark}" is mapped to more than one field or clause: ${owners}`, undefined, reason('bookmarkClaimedTwice', { bookmark: collision.bookmark, owners }));
}

/** Who a bookmark is given to in the editor: a field by its key, or a clause by its label. */
export type BookmarkOwner = { kind: 'field'; id: string } | { kind: 'clause'; labelID: string };

/**
 * The fields and clauses with one bookmark of the document given to `owner` alone (null: to
 * nothing), as the template editor's document section maps it. Whoever named the bookmark before
 * lets it go (one bookmark, one value); a clause has one bookmark, so the clause's earlier one is
 * replaced, while a field may show its value at several bookmarks and keeps its others.
 */
export function withBookmarkMapped(fields: readonly FieldConfig[], clauses: readonly Clause[], bookmark: string, owner: BookmarkOwner | null): { fields: FieldConfig[]; clauses: Clause[] } {
  const key = bookmarkKey(bookmark);
  const mappedFields = fields.map((field) => {
    const owns = owner?.kind === 'field' && owner.id === field.id;
    const named = (field.bookmarkNames ?? []).some((name) => bookmarkKey(name) === key);
    if (field.type === 'clause' || (!owns && !named)) return field;
    const names = [...(field.bookmarkNames ?? []).filter((name) => bookmarkKey(name) !== key), ...(owns ? [bookmark] : [])];
    const { bookmarkNames: _dropped, ...rest } = field;
    return names.length > 0 ? { ...rest, bookmarkNames: names } : rest;
  });
  const mappedClauses = clauses.map((clause) => {
    if (owner?.kind === 'clause' && owner.labelID === clause.labelID) return { ...clause, bookmarkName: bookmark };
    return clause.bookmarkName !== null && bookmarkKey(clause.bookmarkName) === key ? { ...clause, bookmarkName: null } : clause;
  });
  return { fields: mappedFields, clauses: mappedClauses };
}
