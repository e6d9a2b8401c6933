import type { ContractStatus } from '../../../src-shared/domain/enums';
import { fullTextCountCap, matchEnd, matchStart, type FullTextHit, type FullTextPage, type fullTextSearchRequestSchema } from '../../../src-shared/ipc/archive';
import type { z } from 'zod';
import { isCjkPair } from '../data/cjk-bigrams';
import type { ReplicaConnection, ReplicaStatement } from '../data/replica';

// The local full-text search (issue 14) over the replica's two indexes of contract name, number,
// counterparty, form text and archived PDF text, kept by triggers (migrations 0015, 0022):
// - `contract_search` (trigram) finds any substring of three characters or more, Chinese included;
// - `contract_search_bigrams` holds every pair of adjacent CJK characters as a token, so a
//   two-character Chinese word ('租赁', '违约') is an index lookup too;
// - any other shorter term (one character, or two that are not both CJK) is matched with LIKE in
//   the name, number and counterparty only: scanning every form's and PDF's text for it costs
//   hundreds of milliseconds and finds almost everything.
// Ranking and counting are bounded, so a broad word costs about what a narrow one does: contracts
// are ranked by where all the terms are found (the name, then number or counterparty, then form
// text, then the PDF), newest first within each place, and each place is read only as far as the
// page needs; the count stops at fullTextCountCap.

type Request = z.output<typeof fullTextSearchRequestSchema>;

/** The columns of both indexes, in order. */
const columns = ['name', 'contract_number', 'counterpart_name', 'form_text', 'pdf_text'] as const;
const allColumns = columns.map((_, index) => index);
/** The columns LIKE terms are matched in: name, number, counterparty. */
const shortColumns = 3;
const formColumn = 3;
const pdfColumn = 4;
/**
 * Where the terms are found, best first: each place adds columns to the one before, and a
 * contract ranks at the first place where all of its terms are found.
 */
const places: readonly (readonly number[])[] = [[0], [0, 1, 2], [0, 1, 2, formColumn], allColumns];

/** At most this many terms count; more only slow the query without narrowing it usefully. */
const maxTerms = 8;
/** Characters of context on each side of a match in an excerpt made here. */
const excerptContext = 24;
/** Tokens of an excerpt made by FTS5's snippet(). */
const snippetTokens = 40;

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

/**
 * An FTS5 query that matches every term as a literal phrase (quotes in a term are data), in the
 * given columns (by index; all of them by default).
 */
export function matchExpression(terms: readonly string[], inColumns: readonly number[] = allColumns): string {
  const phrases = terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(' ');
  return inColumns.length === columns.length ? phrases : `{${inColumns.map((index) => columns[index]).join(' ')}} : (${phrases})`;
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
 * in matchStart/matchEnd (the terms FTS5's highlight() did not mark: CJK pairs and short terms).
 */
export function markTerms(text: string, terms: readonly string[]): string {
  if (terms.length === 0) return text;
  const pattern = new RegExp(terms.map(escapeRegExp).join('|'), 'giu');
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
  const start = Math.max(0, at - excerptContext);
  const end = Math.min(text.length, at + excerptContext * 2);
  return `${start > 0 ? '…' : ''}${markTerms(text.slice(start, end), terms)}${end < text.length ? '…' : ''}`;
}

interface RankedRow {
  rowid: number;
  contractId: string;
  source: 'base' | 'local';
}

interface TextRow {
  rowid: number;
  name: string;
  contractNumber: string | null;
  counterpartName: string | null;
  formText: string | null;
  pdfText: string | null;
}

/** The contracts found, in rank order from the first asked for, and how many match in all when every match was read. */
export interface RankedPage {
  rows: RankedRow[];
  total: number | null;
}

export interface FullTextQueries {
  /** Up to `limit` ranked rows from `offset`. */
  ranked(terms: SearchTerms, limit: number, offset: number): RankedPage;
  /** How many contracts match, counted up to fullTextCountCap + 1. */
  count(terms: SearchTerms): number;
  /** The rows' text: highlighted by FTS5 where a trigram query ran, raw otherwise. */
  texts(terms: SearchTerms, rowids: readonly number[]): Map<number, TextRow>;
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
  // Only the user's view of each contract: the optimistic row wins over its synced one.
  const visible = `NOT (r.source = 'base' AND EXISTS (SELECT 1 FROM contracts_local AS l WHERE l.id = r.contract_id))`;

  /**
   * The rows with every term in `inColumns`, as FROM … WHERE, and the index that drives the query
   * (its rowid order is the rank within a place: newest first, and FTS5 stops once enough are read).
   */
  function matching(terms: SearchTerms, inColumns: readonly number[]): { sql: string; driver: 's' | 'b'; params: unknown[] } {
    const driver = terms.long.length > 0 || terms.pairs.length === 0 ? 's' : 'b';
    const joins: string[] = [];
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (terms.long.length > 0) {
      clauses.push('contract_search MATCH ?');
      params.push(matchExpression(terms.long, inColumns));
    }
    if (terms.pairs.length > 0) {
      if (driver === 's') joins.push('JOIN contract_search_bigrams AS b ON b.rowid = s.rowid');
      clauses.push('contract_search_bigrams MATCH ?');
      params.push(matchExpression(terms.pairs, inColumns));
    }
    const likeColumns = inColumns.filter((index) => index < shortColumns);
    if (terms.short.length > 0 && driver === 'b') joins.push('JOIN contract_search AS s ON s.rowid = b.rowid');
    for (const term of terms.short) {
      clauses.push(`(${likeColumns.map((index) => `s.${columns[index]} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
      params.push(...likeColumns.map(() => containsPattern(term)));
    }
    clauses.push(visible);
    const from = driver === 's' ? 'contract_search AS s' : 'contract_search_bigrams AS b';
    return {
      sql: `FROM ${from} ${joins.join(' ')} JOIN search_rows AS r ON r.id = ${driver}.rowid WHERE ${clauses.join(' AND ')}`,
      driver,
      params,
    };
  }

  /** Up to `limit` rows with every term in `inColumns`, newest first. */
  function rowsIn(terms: SearchTerms, inColumns: readonly number[], limit: number): RankedRow[] {
    const query = matching(terms, inColumns);
    const rowid = `${query.driver}.rowid`;
    return prepare(`SELECT ${rowid} AS rowid, r.contract_id AS contractId, r.source AS source ${query.sql} ORDER BY ${rowid} DESC LIMIT ?`).all(
      ...query.params,
      limit,
    ) as RankedRow[];
  }

  return {
    ranked(terms, limit, offset) {
      const wanted = offset + limit;
      const seen = new Set<number>();
      const ordered: RankedRow[] = [];
      let last: readonly number[] = [];
      let read = 0;
      for (const inColumns of places) {
        // LIKE terms are only matched in the first columns: past them a place may add nothing.
        const effective = terms.long.length + terms.pairs.length > 0 ? inColumns : inColumns.filter((index) => index < shortColumns);
        if (effective.length === last.length) continue;
        last = effective;
        // Every earlier place was read whole (else the page would be full), so `wanted` rows of
        // this one hold all the new rows the page needs.
        const rows = rowsIn(terms, effective, wanted);
        read = rows.length;
        for (const row of rows) {
          if (seen.has(row.rowid)) continue;
          seen.add(row.rowid);
          ordered.push(row);
        }
        if (ordered.length >= wanted) break;
      }
      return { rows: ordered.slice(offset, wanted), total: read < wanted ? ordered.length : null };
    },

    count(terms) {
      const query = matching(terms, allColumns);
      const row = prepare(`SELECT count(*) AS count FROM (SELECT 1 ${query.sql} LIMIT ?)`).get(...query.params, fullTextCountCap + 1) as { count: number };
      return row.count;
    },

    texts(terms, rowids) {
      if (rowids.length === 0) return new Map();
      const marks = `'${matchStart}', '${matchEnd}'`;
      const hasMatch = terms.long.length > 0;
      const text = (index: number) => (hasMatch ? `highlight(contract_search, ${index}, ${marks})` : `s.${columns[index]}`);
      const excerpt = (index: number) => (hasMatch ? `snippet(contract_search, ${index}, ${marks}, '…', ${snippetTokens})` : `s.${columns[index]}`);
      const rows = prepare(
        `SELECT s.rowid AS rowid, ${text(0)} AS name, ${text(1)} AS contractNumber, ${text(2)} AS counterpartName,
                ${excerpt(formColumn)} AS formText, ${excerpt(pdfColumn)} AS pdfText
           FROM contract_search AS s
          WHERE ${hasMatch ? 'contract_search MATCH ? AND ' : ''}s.rowid IN (${rowids.map(() => '?').join(', ')})`,
      ).all(...(hasMatch ? [matchExpression(terms.long)] : []), ...rowids) as TextRow[];
      return new Map(rows.map((row) => [row.rowid, row]));
    },
  };
}

export interface FullTextSearch {
  search(request: Request): FullTextPage;
}

/** A page of ranked, highlighted hits and their count (exact up to fullTextCountCap). */
export function fullTextSearch(sqlite: ReplicaConnection): FullTextSearch {
  const queries = fullTextQueries(sqlite);
  const status = sqlite.prepare<[string, string], { status: ContractStatus | null }>(
    `SELECT coalesce((SELECT status FROM contracts_local WHERE id = ?), (SELECT status FROM contracts WHERE id = ?)) AS status`,
  );

  /** The excerpt of the form or PDF text that holds a match (the PDF's first: it is what the user cannot see elsewhere). */
  function excerptOf(row: TextRow, terms: SearchTerms): FullTextHit['excerpt'] {
    for (const [source, value] of [['pdf', row.pdfText], ['form', row.formText]] as const) {
      if (!value) continue;
      if (value.includes(matchStart)) return { source, text: markTerms(value, terms.pairs) };
      const around = terms.pairs.length > 0 ? excerptAround(value, terms.pairs) : null;
      if (around) return { source, text: around };
    }
    return null;
  }

  return {
    search(request) {
      const terms = searchTerms(request.q);
      if (terms.long.length + terms.pairs.length + terms.short.length === 0) return { list: [], count: 0, more: false };
      const page = queries.ranked(terms, request.pageSize, (request.pageNum - 1) * request.pageSize);
      const byRow = queries.texts(terms, page.rows.map((row) => row.rowid));
      const marked = [...terms.pairs, ...terms.short];
      const mark = (value: string | null) => (value === null ? null : markTerms(value, marked));
      const list = page.rows.flatMap((hit): FullTextHit[] => {
        const row = byRow.get(hit.rowid);
        if (!row) return [];
        return [
          {
            contractId: hit.contractId,
            status: status.get(hit.contractId, hit.contractId)?.status ?? null,
            name: markTerms(row.name, marked),
            contractNumber: mark(row.contractNumber),
            counterpartName: mark(row.counterpartName),
            excerpt: excerptOf(row, terms),
          },
        ];
      });
      const total = page.total ?? queries.count(terms);
      return { list, count: Math.min(total, fullTextCountCap), more: total > fullTextCountCap };
    },
  };
}
