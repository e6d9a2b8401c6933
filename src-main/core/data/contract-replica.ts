import { and, asc, count, desc, eq, getTableColumns, or, sql, type SQL } from 'drizzle-orm';
import type { SyncChange } from '../../../src-shared/api/sync';
import type { Contract, ContractStatistics } from '../../../src-shared/domain/contract';
import { contractStatusStatisticsKey, type ContractStatus } from '../../../src-shared/domain/enums';
import type { LedgerContractPageQuery } from '../../../src-shared/ipc/channels';
import type { OpenReplica } from './replica';
import { toContract, toRow, type ContractRow } from './contract-rows';
import { rebuildPulledRows } from './outbox';
import { contractStatusCounts, contracts, contractsLocal, contractsOverlay, replicaMeta } from './schema';

// One typed data API over the replica with explicit reader and writer sides: screens only read
// (base rows overlaid with the user's unconfirmed edits), and only sync writes base state.

/** LIKE pattern that matches `text` literally anywhere (% and _ in user input are data). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export type ContractPage = { list: Contract[]; count: number };

export interface ContractReader {
  page(query: LedgerContractPageQuery): ContractPage;
  statistics(): ContractStatistics;
}

export interface ReplicaWriter {
  /** Applies one pulled page and advances the cursor in a single transaction. */
  applyPulledChanges(changes: readonly SyncChange[], cursor: string, syncedAt: string): void;
}

export interface MetaReader {
  cursor(): string;
  lastSyncAt(): string | null;
}

export function contractReader({ db }: OpenReplica): ContractReader {
  // Each filter shape (status tab or not, keyword or not, sort) gets one prepared statement,
  // built on first use, so a page costs a bind and a step rather than building SQL again.
  const prepared = new Map<string, { rows: () => ContractRow[]; total: () => number; bind: (q: LedgerContractPageQuery) => Record<string, unknown> }>();

  // Without local edits the ledger reads the base table and its indexes; with some, the overlay
  // view (see schema.ts). Contract status is not locally editable yet, so the counts stay exact.
  const hasLocal = db.select({ id: contractsLocal.id }).from(contractsLocal).limit(1).prepare();

  function statementsFor(query: LedgerContractPageQuery) {
    const overlay = hasLocal.get() !== undefined;
    const key = `${overlay}|${query.status !== null}|${query.q !== ''}|${query.sort.field}|${query.sort.order}`;
    const cached = prepared.get(key);
    if (cached) return cached;
    const source = overlay ? contractsOverlay : contracts;
    const sortColumns = { updateTime: source.updateTime, createTime: source.createTime, name: source.name, contractNumber: source.contractNumber };
    const conditions: SQL[] = [];
    if (query.status !== null) conditions.push(eq(source.status, sql.placeholder('status')));
    if (query.q !== '') {
      const keyword = sql.placeholder('q');
      conditions.push(
        or(sql`${source.name} like ${keyword} escape '\\'`, sql`${source.contractNumber} like ${keyword} escape '\\'`)!,
      );
    }
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    const column = sortColumns[query.sort.field];
    const direction = query.sort.order === 'asc' ? asc : desc;
    const pageStatement = db
      .select()
      .from(source)
      .where(where)
      .orderBy(direction(column), direction(source.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare();
    const countStatement = db.select({ n: count() }).from(source).where(where).prepare();
    let params: Record<string, unknown> = {};
    const entry = {
      bind: (q: LedgerContractPageQuery) => {
        params = {
          status: q.status,
          q: containsPattern(q.q),
          limit: q.pageSize,
          offset: (q.pageNum - 1) * q.pageSize,
        };
        return params;
      },
      rows: () => pageStatement.all(params),
      total: () => countStatement.get(params)?.n ?? 0,
    };
    prepared.set(key, entry);
    return entry;
  }

  const statisticsStatement = db.select({ status: contractStatusCounts.status, n: contractStatusCounts.count }).from(contractStatusCounts).prepare();

  return {
    page(query) {
      const statements = statementsFor(query);
      statements.bind(query);
      return { list: statements.rows().map(toContract), count: statements.total() };
    },
    statistics() {
      const result: ContractStatistics = { total: 0, draft: 0, underApproval: 0, approvalRejected: 0, approved: 0, archived: 0 };
      for (const { status, n } of statisticsStatement.all()) {
        result.total += n;
        const key = contractStatusStatisticsKey[status as ContractStatus];
        if (key) result[key] += n;
      }
      return result;
    },
  };
}

/** Rows per multi-row insert: 17 columns each, well under SQLite's bound-variable limit. */
const upsertChunk = 500;
const cursorKey = 'pull_cursor';
const lastSyncKey = 'last_sync_at';

export function metaReader({ db }: OpenReplica): MetaReader {
  const read = db
    .select({ value: replicaMeta.value })
    .from(replicaMeta)
    .where(eq(replicaMeta.key, sql.placeholder('key')))
    .prepare();
  return {
    cursor: () => read.get({ key: cursorKey })?.value ?? '0',
    lastSyncAt: () => read.get({ key: lastSyncKey })?.value ?? null,
  };
}

export function replicaWriter({ db }: OpenReplica): ReplicaWriter {
  const setMeta = (tx: Pick<typeof db, 'insert'>, key: string, value: string) =>
    tx.insert(replicaMeta).values({ key, value }).onConflictDoUpdate({ target: replicaMeta.key, set: { value } }).run();
  // On conflict every column but the id takes the pulled value.
  const { id: _id, ...updatable } = getTableColumns(contracts);
  const upsertSet = Object.fromEntries(
    Object.entries(updatable).map(([key, column]) => [key, sql.raw(`excluded.${column.name}`)]),
  );

  return {
    applyPulledChanges(changes, cursor, syncedAt) {
      db.transaction((tx) => {
        // Consecutive upserts go in multi-row statements; a delete flushes them first so the
        // page's order is kept.
        let upserts: ContractRow[] = [];
        const flush = () => {
          for (let i = 0; i < upserts.length; i += upsertChunk) {
            tx.insert(contracts).values(upserts.slice(i, i + upsertChunk)).onConflictDoUpdate({ target: contracts.id, set: upsertSet }).run();
          }
          upserts = [];
        };
        for (const change of changes) {
          if (change.op === 'upsert') {
            upserts.push(toRow(change.row));
          } else {
            flush();
            tx.delete(contracts).where(eq(contracts.id, change.id)).run();
          }
        }
        flush();
        // A pull never erases an unconfirmed edit: it is re-applied on the new base (rule 4).
        rebuildPulledRows(tx, new Set(changes.map((change) => (change.op === 'upsert' ? change.row.id : change.id))));
        setMeta(tx, cursorKey, cursor);
        setMeta(tx, lastSyncKey, syncedAt);
      });
    },
  };
}
