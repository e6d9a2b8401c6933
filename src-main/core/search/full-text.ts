import type { ContractStatus } from '../../../src-shared/domain/enums';
import { matchEnd, matchStart, type FullTextHit, type FullTextPage, type fullTextSearchRequestSchema } from '../../../src-shared/ipc/archive';
import type { z } from 'zod';
import type { ReplicaConnection } from '../data/replica';

// The local full-text search (issue 14) over the replica's `contract_search` FTS5 table (migration
// 0015, kept by triggers): contract name, number, counterparty, form text and archived PDF text.
// The trigram tokenizer finds any substring of three characters or more, Chinese included; a
// shorter term (a two-character Chinese word, say) cannot be a trigram query, so it is matched
// with LIKE over the same rows and highlighted here instead of by FTS5.

type Request = z.output<typeof fullTextSearchRequestSchema>;

/** The columns of contract_search, in order, and how much a match in each weighs (bm25). */
const columns = ['name', 'contract_number', 'counterpart_name', 'form_text', 'pdf_text'] as const;
const weights = [10, 8, 6, 2, 1];
const formColumn = 3;
const pdfColumn = 4;

/** At most this many terms count; more only slow the query without narrowing it usefully. */
const maxTerms = 8;
/** Characters of context on each side of a match in an excerpt made here. */
const excerptContext = 24;
/** Tokens of an excerpt made by FTS5's snippet(). */
const snippetTokens = 40;

export interface SearchTerms {
  /** Three characters or more: an FTS5 trigram phrase. */
  long: string[];
  /** One or two characters: matched with LIKE. */
  short: string[];
}

/** The query's terms (split on white space, case-folded duplicates dropped), by how they are matched. */
export function searchTerms(q: string): SearchTerms {
  const seen = new Set<string>();
  const terms: SearchTerms = { long: [], short: [] };
  for (const term of q.split(/\s+/u)) {
    const key = term.toLowerCase();
    if (term === '' || seen.has(key) || seen.size >= maxTerms) continue;
    seen.add(key);
    // Code points, not UTF-16 units: trigrams are three characters.
    (Array.from(term).length >= 3 ? terms.long : terms.short).push(term);
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
 * in matchStart/matchEnd (the short terms FTS5 did not highlight).
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

export interface FullTextSearch {
  search(request: Request): FullTextPage;
}

/**
 * Searches the replica's index. Each contract has one row per source; a synced row whose contract
 * has an unconfirmed local edit is left out, so results show the contract as the user sees it.
 */
export function fullTextSearch(sqlite: ReplicaConnection): FullTextSearch {
  const shortClause = `(${columns.map((column) => `s.${column} LIKE ? ESCAPE '\\'`).join(' OR ')})`;
  // Only the user's view of each contract: the optimistic row wins over its synced one.
  const visible = `NOT (r.source = 'base' AND EXISTS (SELECT 1 FROM contracts_local AS l WHERE l.id = r.contract_id))`;
  const status = sqlite.prepare<[string, string], { status: ContractStatus | null }>(
    `SELECT coalesce((SELECT status FROM contracts_local WHERE id = ?), (SELECT status FROM contracts WHERE id = ?)) AS status`,
  );

  function where(terms: SearchTerms): { sql: string; params: string[] } {
    const clauses: string[] = [visible];
    const params: string[] = [];
    if (terms.long.length > 0) {
      clauses.push('contract_search MATCH ?');
      params.push(matchExpression(terms.long));
    }
    for (const term of terms.short) {
      clauses.push(shortClause);
      params.push(...columns.map(() => containsPattern(term)));
    }
    return { sql: clauses.join(' AND '), params };
  }

  function ranked(terms: SearchTerms, limit: number, offset: number): RankedRow[] {
    const filter = where(terms);
    // With a trigram query FTS5 ranks (bm25, weighted by column); with short terms only, a match in
    // the name comes first, then one in the number or counterparty, then the rest.
    const first = terms.short[0] ?? '';
    const rank =
      terms.long.length > 0
        ? `bm25(contract_search, ${weights.join(', ')})`
        : `CASE WHEN s.name LIKE ? ESCAPE '\\' THEN 0 WHEN s.contract_number LIKE ? ESCAPE '\\' OR s.counterpart_name LIKE ? ESCAPE '\\' THEN 1 ELSE 2 END`;
    const rankParams = terms.long.length > 0 ? [] : [first, first, first].map(containsPattern);
    return sqlite
      .prepare<unknown[], RankedRow>(
        `SELECT s.rowid AS rowid, r.contract_id AS contractId, r.source AS source
           FROM contract_search AS s JOIN search_rows AS r ON r.id = s.rowid
          WHERE ${filter.sql}
          ORDER BY ${rank}, r.id DESC
          LIMIT ? OFFSET ?`,
      )
      .all(...filter.params, ...rankParams, limit, offset);
  }

  function total(terms: SearchTerms): number {
    const filter = where(terms);
    const row = sqlite
      .prepare<unknown[], { count: number }>(
        `SELECT count(*) AS count FROM contract_search AS s JOIN search_rows AS r ON r.id = s.rowid WHERE ${filter.sql}`,
      )
      .get(...filter.params);
    return row?.count ?? 0;
  }

  /** The page's rows' text: highlighted by FTS5 where a trigram query ran, raw otherwise. */
  function texts(terms: SearchTerms, rowids: readonly number[]): Map<number, TextRow> {
    if (rowids.length === 0) return new Map();
    const marks = `'${matchStart}', '${matchEnd}'`;
    const hasMatch = terms.long.length > 0;
    const text = (index: number) =>
      hasMatch ? `highlight(contract_search, ${index}, ${marks})` : `s.${columns[index]}`;
    const excerpt = (index: number) =>
      hasMatch ? `snippet(contract_search, ${index}, ${marks}, '…', ${snippetTokens})` : `s.${columns[index]}`;
    const rows = sqlite
      .prepare<unknown[], TextRow>(
        `SELECT s.rowid AS rowid, ${text(0)} AS name, ${text(1)} AS contractNumber, ${text(2)} AS counterpartName,
                ${excerpt(formColumn)} AS formText, ${excerpt(pdfColumn)} AS pdfText
           FROM contract_search AS s
          WHERE ${hasMatch ? 'contract_search MATCH ? AND ' : ''}s.rowid IN (${rowids.map(() => '?').join(', ')})`,
      )
      .all(...(hasMatch ? [matchExpression(terms.long)] : []), ...rowids);
    return new Map(rows.map((row) => [row.rowid, row]));
  }

  /** The excerpt of the form or PDF text that holds a match (the PDF's first: it is what the user cannot see elsewhere). */
  function excerptOf(row: TextRow, terms: SearchTerms): FullTextHit['excerpt'] {
    for (const [source, value] of [['pdf', row.pdfText], ['form', row.formText]] as const) {
      if (!value) continue;
      if (value.includes(matchStart)) return { source, text: markTerms(value, terms.short) };
      const around = terms.short.length > 0 ? excerptAround(value, terms.short) : null;
      if (around) return { source, text: around };
    }
    return null;
  }

  return {
    search(request) {
      const terms = searchTerms(request.q);
      if (terms.long.length === 0 && terms.short.length === 0) return { list: [], count: 0 };
      const page = ranked(terms, request.pageSize, (request.pageNum - 1) * request.pageSize);
      const byRow = texts(terms, page.map((row) => row.rowid));
      const list = page.flatMap((hit): FullTextHit[] => {
        const row = byRow.get(hit.rowid);
        if (!row) return [];
        const mark = (value: string | null) => (value === null ? null : markTerms(value, terms.short));
        return [
          {
            contractId: hit.contractId,
            status: status.get(hit.contractId, hit.contractId)?.status ?? null,
            name: markTerms(row.name, terms.short),
            contractNumber: mark(row.contractNumber),
            counterpartName: mark(row.counterpartName),
            excerpt: excerptOf(row, terms),
          },
        ];
      });
      return { list, count: page.length < request.pageSize && request.pageNum === 1 ? page.length : total(terms) };
    },
  };
}
