import { and, asc, count, desc, eq, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Contract, ContractStatistics } from '../../../src-shared/domain/contract';
import { contractStatusStatisticsKey, type ContractStatus } from '../../../src-shared/domain/enums';
import type { LedgerContractPageQuery } from '../../../src-shared/ipc/channels';
import type { OpenReplica } from '../data/replica';
import { toContract, type ContractRow } from '../contracts/contract-rows';
import { contractStatusCounts, contracts, contractsLocal } from '../data/schema';

// The ledger's reads of the replica: pages and status counts of the contracts as the user sees
// them (base rows overlaid with the user's unconfirmed edits). Only sync writes base state.

/** LIKE pattern that matches `text` literally anywhere (% and _ in user input are data). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export type ContractPage = { list: Contract[]; count: number };

export interface ContractReader {
  page(query: LedgerContractPageQuery): ContractPage;
  statistics(): ContractStatistics;
}

/** SQLite's BINARY order of text (UTF-8 bytes, i.e. code points), which UTF-16 `<` breaks above U+D7FF. */
function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.codePointAt(i)! - b.codePointAt(i)!;
  }
  return a.length - b.length;
}

/** SQLite's order of one sort value: NULL first, then numbers, then text. */
function compareValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return compareText(a, b);
}

/** A row's place in the ledger's order: its sort value, then its id. */
export interface SortKey {
  id: string;
  key: string | number | null;
}

/** The ledger's order of two rows: the sort value, then the id, both in the asked direction. */
export function keyOrder(order: 'asc' | 'desc') {
  const sign = order === 'asc' ? 1 : -1;
  return (a: SortKey, b: SortKey) => sign * (compareValues(a.key, b.key) || compareText(a.id, b.id));
}

/**
 * Rows [offset, offset + limit) of the ordered union of `base` (rows without a local one) and
 * `local` (all matching optimistic rows, in order); the flag tells which side each came from.
 * `base` starts at base index `baseStart`, which is at most `offset - local.length` (or 0) and
 * names an existing row, so the page lies within what was read.
 */
export function mergePage<K extends SortKey>(base: K[], baseStart: number, local: K[], compare: (a: SortKey, b: SortKey) => number, offset: number, limit: number): { row: K; local: boolean }[] {
  let j = 0;
  // Past the first base rows, the local rows before the first one read sit before it.
  if (baseStart > 0 && base.length > 0) while (j < local.length && compare(local[j]!, base[0]!) < 0) j += 1;
  let position = baseStart + j;
  const page: { row: K; local: boolean }[] = [];
  let i = 0;
  while (page.length < limit && (i < base.length || j < local.length)) {
    const takeLocal = i >= base.length || (j < local.length && compare(local[j]!, base[i]!) < 0);
    const row = takeLocal ? local[j++]! : base[i++]!;
    if (position >= offset) page.push({ row, local: takeLocal });
    position += 1;
  }
  return page;
}

type Source = typeof contracts | typeof contractsLocal;

export function contractReader({ db, sqlite }: OpenReplica): ContractReader {
  // Each filter shape (status tab or not, keyword or not, sort) gets its prepared statements,
  // built on first use, so a page costs a bind and a step rather than building SQL again.
  const prepared = new Map<string, (q: LedgerContractPageQuery) => ContractPage>();

  // Without local edits the ledger reads the base table and its indexes. With some, it pages the
  // base rows that have no local row (still on the indexes) and merges in the matching local rows,
  // which are few: one per contract with a live edit. What it learns of the local rows is kept
  // until this connection (the only writer) changes any row.
  const hasLocal = db.select({ id: contractsLocal.id }).from(contractsLocal).limit(1).prepare();
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  let localGeneration = -1;
  const localCache = new Map<string, unknown>();
  function cachedLocal<T>(key: string, compute: () => T): T {
    const generation = totalChanges.get() as number;
    if (generation !== localGeneration) {
      localCache.clear();
      localGeneration = generation;
    }
    if (!localCache.has(key)) localCache.set(key, compute());
    return localCache.get(key) as T;
  }

  /** The filter on `source`; `indexed: false` keeps SQLite off the status index (a join driven by the few local rows). */
  function conditionsOn(source: Source, query: LedgerContractPageQuery, indexed = true): SQL | undefined {
    const conditions: SQL[] = [];
    if (query.status !== null) conditions.push(indexed ? eq(source.status, sql.placeholder('status')) : sql`+${source.status} = ${sql.placeholder('status')}`);
    if (query.q !== '') {
      const keyword = sql.placeholder('q');
      conditions.push(or(sql`${source.name} like ${keyword} escape '\\'`, sql`${source.contractNumber} like ${keyword} escape '\\'`)!);
    }
    return conditions.length > 0 ? and(...conditions) : undefined;
  }

  function orderOn(source: Source, query: LedgerContractPageQuery) {
    const direction = query.sort.order === 'asc' ? asc : desc;
    return [direction(source[query.sort.field]), direction(source.id)];
  }

  function statementsFor(query: LedgerContractPageQuery) {
    const overlay = hasLocal.get() !== undefined;
    const shape = `${query.status !== null}|${query.q !== ''}|${query.sort.field}|${query.sort.order}`;
    const cached = prepared.get(`${overlay}|${shape}`);
    if (cached) return cached;
    const where = conditionsOn(contracts, query);
    const bind = (q: LedgerContractPageQuery) => ({ status: q.status, q: containsPattern(q.q) });
    const countStatement = db.select({ n: count() }).from(contracts).where(where).prepare();
    let read: (q: LedgerContractPageQuery) => ContractPage;
    if (!overlay) {
      const pageStatement = db.select().from(contracts).where(where).orderBy(...orderOn(contracts, query)).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare();
      read = (q) => {
        const params = { ...bind(q), limit: q.pageSize, offset: (q.pageNum - 1) * q.pageSize };
        return { list: pageStatement.all(params).map(toContract), count: countStatement.get(params)?.n ?? 0 };
      };
    } else {
      const field = query.sort.field;
      // Only ids and sort values are read to find the page; then its base rows by id.
      const baseKeys = db
        .select({ id: contracts.id, key: contracts[field] })
        .from(contracts)
        .where(and(where, notInArray(contracts.id, db.select({ id: contractsLocal.id }).from(contractsLocal))))
        .orderBy(...orderOn(contracts, query))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare();
      const baseRows = db.select().from(contracts).where(sql`${contracts.id} in (select value from json_each(${sql.placeholder('ids')}))`).prepare();
      // Base rows that match but are shown by their local row instead (few: a join driven by the local rows).
      const shadowedCount = db.select({ n: count() }).from(contractsLocal).innerJoin(contracts, eq(contracts.id, contractsLocal.id)).where(conditionsOn(contracts, query, false)).prepare();
      const localRows = db.select().from(contractsLocal).where(conditionsOn(contractsLocal, query)).orderBy(...orderOn(contractsLocal, query)).prepare();
      const compare = keyOrder(query.sort.order);
      read = (q) => {
        const params = bind(q);
        const { local, baseTotal } = cachedLocal(`${shape}|${q.status}|${q.q}`, () => ({
          local: localRows.all(params).map((row) => ({ id: row.id, key: row[field], row })),
          baseTotal: (countStatement.get(params)?.n ?? 0) - (shadowedCount.get(params)?.n ?? 0),
        }));
        const offset = (q.pageNum - 1) * q.pageSize;
        // At most every local row precedes the page; and the first base row read must exist.
        const baseStart = Math.max(0, Math.min(offset - local.length, baseTotal - 1));
        const base = baseKeys.all({ ...params, offset: baseStart, limit: offset + q.pageSize - baseStart });
        const page = mergePage<SortKey & { row?: ContractRow }>(base, baseStart, local, compare, offset, q.pageSize);
        const fromBase = new Map(baseRows.all({ ids: JSON.stringify(page.filter((p) => !p.local).map((p) => p.row.id)) }).map((row) => [row.id, row]));
        const list = page.map((p) => toContract(p.row.row ?? fromBase.get(p.row.id)!));
        return { list, count: baseTotal + local.length };
      };
    }
    prepared.set(`${overlay}|${shape}`, read);
    return read;
  }

  const statisticsStatement = db.select({ status: contractStatusCounts.status, n: contractStatusCounts.count }).from(contractStatusCounts).prepare();
  // A pending status edit moves its contract from the base row's status to the local row's.
  const localStatusMoves = db
    .select({ from: contracts.status, to: contractsLocal.status, based: sql<number>`${contracts.id} is not null`, n: count() })
    .from(contractsLocal)
    .leftJoin(contracts, eq(contracts.id, contractsLocal.id))
    .groupBy(sql`1`, sql`2`, sql`3`)
    .prepare();

  return {
    page(query) {
      return statementsFor(query)(query);
    },
    statistics() {
      const result: ContractStatistics = { total: 0, draft: 0, underApproval: 0, approvalRejected: 0, approved: 0, archived: 0 };
      const add = (status: number | null, n: number) => {
        result.total += n;
        const key = status === null ? undefined : contractStatusStatisticsKey[status as ContractStatus];
        if (key) result[key] += n;
      };
      for (const { status, n } of statisticsStatement.all()) add(status === 0 ? null : status, n);
      if (hasLocal.get() !== undefined) {
        for (const move of cachedLocal('statistics', () => localStatusMoves.all())) {
          if (move.based) add(move.from, -move.n);
          add(move.to, move.n);
        }
      }
      return result;
    },
  };
}
