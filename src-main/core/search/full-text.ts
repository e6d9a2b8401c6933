import type { ContractStatus } from '../../../src-shared/domain/enums';
import { fullTextCountCap, matchEnd, matchStart, type FullTextHit, type FullTextPage, type fullTextSearchRequestSchema } from '../../../src-shared/ipc/archive';
import type { z } from 'zod';
import { isCjkPair } from '../data/cjk-bigrams';
import { readableFormText } from './form-text';
import type { ReplicaConnection, ReplicaStatement } from '../data/replica';

// The local full-text search (issue 14) over the replica's two indexes of contract name, number,
// counterparty, form text and archived PDF text, kept by triggers (migrations 0015, 0022):
// - `contract_search` (trigram) finds any substring of three characters or more, Chinese included;
// - `contract_search_bigrams` holds every pair of adjacent CJK characters as a token, so a
//   two-character Chinese word ('租赁', '违约') is an index lookup too;
// - any other shorter term (one character, or two that are not both CJK) is matched with LIKE in
//   the name, number and counterparty only: scanning every form's and PDF's text for it costs
//   hundreds of milliseconds and finds almost everything.
// Ranking and counting are bounded, so a broad word costs about what a narrow one does: the index
// yields the newest fullTextCountCap + 1 matches (stopping there), which are the count ("1,000+"
// past the cap) and the window ranked: by where all the terms are found — the name, then the
// number or counterparty, then the form text, then only the PDF — newest first within each place,
// each place read from the index (column filters) only as far as the page needs. Below the cap
// the ranking is exact; past it, it ranks the newest matches (a narrower query ranks them all).
// Matches are highlighted here, in JavaScript, as FTS5's highlight()/snippet() cost milliseconds a
// PDF (they tokenize the whole text).

type Request = z.output<typeof fullTextSearchRequestSchema>;

/** The columns of both indexes, in order; LIKE terms are matched in the first three. */
const columns = ['name', 'contract_number', 'counterpart_name', 'form_text', 'pdf_text'] as const;
const shortColumns = columns.slice(0, 3);

/** At most this many terms count; more only slow the query without narrowing it usefully. */
const maxTerms = 8;
/** Characters of context before and after the first match in an excerpt. */
const excerptBefore = 40;
const excerptAfter = 80;

export interface SearchTerms {
  /** Three characters or more: an FTS5 trigram phrase. */
  long: string[];
  /** Two CJK characters: a token of the pair index. */
  pairs: string[];
  /** Any other term of one or two characters: matched with LIKE in the name, number and counterparty. */
  short: string[];
}

/** The query's terms (split on white space, case-folded duplicates dropped), by how they are matched. */
export function searchTerms(q: string): SearchTerms {
  const seen = new Set<string>();
  const terms: SearchTerms = { long: [], pairs: [], short: [] };
  for (const term of q.split(/\s+/u)) {
    const key = term.toLowerCase();
    if (term === '' || seen.has(key) || seen.size >= maxTerms) continue;
    seen.add(key);
    // Code points, not UTF-16 units: trigrams are three characters.
    (Array.from(term).length >= 3 ? terms.long : isCjkPair(term) ? terms.pairs : terms.short).push(term);
  }
  return terms;
}

/** An FTS5 query that matches every term as a literal phrase (quotes in a term are data). */
export function matchExpression(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(' ');
}

/** A LIKE pattern that matches `term` literally anywhere (with ESCAPE '\'). */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text` with every case-insensitive occurrence of `terms` outside an already marked part wrapped
 * in matchStart/matchEnd.
 */
export function markTerms(text: string, terms: readonly string[]): string {
  if (terms.length === 0) return text;
  // Longest first, so a term inside another does not cut the longer one's mark short.
  const pattern = new RegExp([...terms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'giu');
  const marked = new RegExp(`(${matchStart}[^${matchEnd}]*${matchEnd})`, 'u');
  return text
    .split(marked)
    .map((part) => (part.startsWith(matchStart) ? part : part.replace(pattern, (found) => `${matchStart}${found}${matchEnd}`)))
    .join('');
}

/** A short excerpt of `text` around the first occurrence of any of `terms`, marked; null when none occurs. */
export function excerptAround(text: string, terms: readonly string[]): string | null {
  const lower = text.toLowerCase();
  const at = Math.min(...terms.map((term) => lower.indexOf(term.toLowerCase())).filter((index) => index >= 0));
  if (!Number.isFinite(at)) return null;
  const start = Math.max(0, at - excerptBefore);
  const end = Math.min(text.length, at + excerptAfter);
  return `${start > 0 ? '…' : ''}${markTerms(text.slice(start, end), terms)}${end < text.length ? '…' : ''}`;
}

/**
 * Where a contract's terms are found, best first, by the columns (by index) that hold all of them:
 * the name; then the number or counterparty; then the form text. The rest are found only in the PDF.
 */
const places: readonly (readonly number[])[] = [[0], [0, 1, 2], [0, 1, 2, 3]];

export interface RankedRow {
  rowid: number;
  contractId: string;
}

export interface RankedPage {
  /** The page's rows, best first. */
  rows: RankedRow[];
  /** How many contracts match, counted up to fullTextCountCap + 1. */
  total: number;
}

export interface TextRow {
  rowid: number;
  name: string;
  contractNumber: string | null;
  counterpartName: string | null;
  formText: string | null;
  pdfText: string | null;
}

export interface FullTextQueries {
  /** The page of `limit` rows from `offset` in rank order, and the count. */
  ranked(terms: SearchTerms, limit: number, offset: number): RankedPage;
  /** A row's indexed text, its form's as the user reads it (labels, not keys). */
  text(rowid: number): TextRow | undefined;
}

/**
 * The search's SQL over the replica's indexes. Each contract has one row per source; a synced row
 * whose contract has an unconfirmed local edit is left out, so results show the contract as the
 * user sees it.
 */
export function fullTextQueries(sqlite: ReplicaConnection): FullTextQueries {
  const statements = new Map<string, ReplicaStatement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = sqlite.prepare<unknown[]>(sql)));
    return statement;
  };
  // The synced rows hidden by a queued local edit: few (one per edited contract), so they are
  // left out here rather than checked row by row in SQL.
  // (Read from the local rows out: the index on search_rows finds each one's synced row.)
  const hiddenRows = prepare(`SELECT (SELECT id FROM search_rows WHERE contract_id = l.id AND source = 'base') AS id FROM contracts_local AS l`).pluck();
  const contractOf = prepare('SELECT contract_id FROM search_rows WHERE id = ?').pluck();
  // The form's values themselves, for an excerpt the user can read (the index's text holds keys).
  const formValuesOf = prepare(
    `SELECT CASE r.source WHEN 'local' THEN (SELECT form_values FROM contracts_local WHERE id = r.contract_id)
       ELSE (SELECT form_values FROM contracts WHERE id = r.contract_id) END
       FROM search_rows AS r WHERE r.id = ?`,
  ).pluck();
  const textOf = prepare(
    `SELECT rowid, name, contract_number AS contractNumber, counterpart_name AS counterpartName, form_text AS formText, pdf_text AS pdfText
       FROM contract_search WHERE rowid = ?`,
  );

  /**
   * Up to `limit` rows from `from` down, newest first, with every term in the columns `inColumns`
   * (all when null). The first index the terms use drives the query: FTS5 walks its rowids
   * newest first and stops at the limit.
   */
  function walk(terms: SearchTerms, inColumns: readonly number[] | null, from: number, limit: number): number[] {
    const driver = terms.long.length > 0 || terms.pairs.length === 0 ? 's' : 'b';
    const within = (expression: string) => (inColumns ? `{${inColumns.map((index) => columns[index]).join(' ')}} : (${expression})` : expression);
    const joins: string[] = [];
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (terms.long.length > 0) {
      clauses.push('contract_search MATCH ?');
      params.push(within(matchExpression(terms.long)));
    }
    if (terms.pairs.length > 0) {
      if (driver === 's') joins.push('JOIN contract_search_bigrams AS b ON b.rowid = s.rowid');
      clauses.push('contract_search_bigrams MATCH ?');
      params.push(within(matchExpression(terms.pairs)));
    }
    if (terms.short.length > 0 && driver === 'b') joins.push('JOIN contract_search AS s ON s.rowid = b.rowid');
    const likeColumns = shortColumns.filter((_, index) => !inColumns || inColumns.includes(index));
    for (const term of terms.short) {
      clauses.push(`(${likeColumns.map((column) => `s.${column} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
      params.push(...likeColumns.map(() => containsPattern(term)));
    }
    clauses.push(`${driver}.rowid >= ?`);
    return prepare(
      `SELECT ${driver}.rowid FROM ${driver === 's' ? 'contract_search AS s' : 'contract_search_bigrams AS b'} ${joins.join(' ')}
        WHERE ${clauses.join(' AND ')} ORDER BY ${driver}.rowid DESC LIMIT ?`,
    )
      .pluck()
      .all(...params, from, limit) as number[];
  }

  /**
   * Whether each term alone occurs, from `from` down, in the columns `inColumns`. Rows holding all
   * the terms there are found at the price of checking every row holding any of them (two words
   * found together in 1,400 contracts: 5-9 ms); one word that never occurs there is found out for
   * the price of that word alone, and the place is passed over.
   */
  function eachOccurs(terms: SearchTerms, inColumns: readonly number[], from: number): boolean {
    const alone = [...terms.long.map((term) => ({ long: [term], pairs: [], short: [] })), ...terms.pairs.map((term) => ({ long: [], pairs: [term], short: [] }))];
    return alone.length < 2 || alone.every((term) => walk(term, inColumns, from, 1).length > 0);
  }

  return {
    ranked(terms, limit, offset) {
      const hidden = new Set((hiddenRows.all() as (number | null)[]).filter((rowid) => rowid !== null));
      const visible = (rowids: number[]) => (hidden.size === 0 ? rowids : rowids.filter((rowid) => !hidden.has(rowid)));
      // The window: the newest matches up to the cap and one more, which the count is.
      const matches = visible(walk(terms, null, 0, fullTextCountCap + 1 + hidden.size)).slice(0, fullTextCountCap + 1);
      const from = matches.length > fullTextCountCap ? matches[matches.length - 1]! : 0;
      // The list stops at the cap, as the count does.
      const wanted = Math.min(offset + limit, matches.length, fullTextCountCap);
      const seen = new Set<number>();
      const ordered: number[] = [];
      const add = (rowids: number[]) => {
        for (const rowid of rowids) {
          if (seen.has(rowid)) continue;
          seen.add(rowid);
          ordered.push(rowid);
        }
      };
      let last = 0;
      for (const inColumns of places) {
        if (ordered.length >= wanted) break;
        // LIKE terms are only matched in the first columns: past them a place adds nothing.
        const effective = terms.long.length + terms.pairs.length > 0 ? inColumns : inColumns.filter((index) => index < shortColumns.length);
        if (effective.length === last) continue;
        last = effective.length;
        if (!eachOccurs(terms, effective, from)) continue;
        // Every earlier place was read whole within the window (else the page would be full), so
        // `wanted` rows of this one hold all the new rows the page needs.
        add(visible(walk(terms, effective, from, wanted + hidden.size)));
      }
      // What is left is found only in the PDF.
      if (ordered.length < wanted) add(matches);
      return {
        rows: ordered.slice(offset, wanted).map((rowid) => ({ rowid, contractId: contractOf.get(rowid) as string })),
        total: matches.length,
      };
    },
    text(rowid) {
      const row = textOf.get(rowid) as TextRow | undefined;
      return row && { ...row, formText: row.formText === null ? null : readableFormText(formValuesOf.get(rowid) as string | null) };
    },
  };
}

export interface FullTextSearch {
  /** The page as the index answers it (how far the index is built is the search feature's to say). */
  search(request: Request): Omit<FullTextPage, 'indexing'>;
}

/** A page of ranked, highlighted hits and their count (exact up to fullTextCountCap). */
export function fullTextSearch(sqlite: ReplicaConnection): FullTextSearch {
  const queries = fullTextQueries(sqlite);
  const status = sqlite.prepare<[string, string], { status: ContractStatus | null }>(
    `SELECT coalesce((SELECT status FROM contracts_local WHERE id = ?), (SELECT status FROM contracts WHERE id = ?)) AS status`,
  );

  return {
    search(request) {
      const terms = searchTerms(request.q);
      if (terms.long.length + terms.pairs.length + terms.short.length === 0) return { list: [], count: 0, more: false };
      const page = queries.ranked(terms, request.pageSize, (request.pageNum - 1) * request.pageSize);
      const marked = [...terms.long, ...terms.pairs, ...terms.short];
      // Short terms are only matched in the first columns: an excerpt shows the other terms.
      const inText = [...terms.long, ...terms.pairs];
      const mark = (value: string | null) => (value === null ? null : markTerms(value, marked));
      const list = page.rows.flatMap((hit): FullTextHit[] => {
        const row = queries.text(hit.rowid);
        if (!row) return [];
        // The PDF's excerpt first: it is what the user cannot see elsewhere.
        const pdf = row.pdfText && inText.length > 0 ? excerptAround(row.pdfText, inText) : null;
        const form = !pdf && row.formText && inText.length > 0 ? excerptAround(row.formText, inText) : null;
        return [
          {
            contractId: hit.contractId,
            status: status.get(hit.contractId, hit.contractId)?.status ?? null,
            name: markTerms(row.name, marked),
            contractNumber: mark(row.contractNumber),
            counterpartName: mark(row.counterpartName),
            excerpt: pdf ? { source: 'pdf', text: pdf } : form ? { source: 'form', text: form } : null,
          },
        ];
      });
      return { list, count: Math.min(page.total, fullTextCountCap), more: page.total > fullTextCountCap };
    },
  };
}
