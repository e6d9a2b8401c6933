import { and, inArray, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { unionAll, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { RelatedCandidates } from '../../../src-shared/ipc/drafting';
import type { OpenReplica } from '../data/replica';
import { contracts, contractsLocal } from '../data/schema';
import { matchExpression } from '../search/full-text';

// A related-contracts field's candidates while the server is away (spec 7, list_for_related):
// the contracts this device holds (unconfirmed drafts included), matched on name or number,
// newest first, as the server's search answers online.

/** LIKE pattern that matches `text` literally anywhere (% and _ in user input are data). */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const matching = (pattern: string | null, name: SQLiteColumn, number: SQLiteColumn): SQL | undefined =>
  pattern === null ? undefined : or(sql`${name} like ${pattern} escape '\\'`, sql`${number} like ${pattern} escape '\\'`);

/**
 * Past this many contracts found in the full-text index, the walk newest first reaches the limit
 * sooner than reading them all does (a query found everywhere, such as a year, is found early).
 */
const indexedCap = 500;

/**
 * The contracts whose name or number holds `q` as the trigram index finds it (case folded as LIKE
 * does, and beyond: LIKE checks them again), or null where the index cannot tell: a query of fewer
 * than three characters, an index a first sync has not finished building, or more than indexedCap.
 */
function indexedCandidates({ db }: OpenReplica, q: string): string[] | null {
  if (Array.from(q).length < 3) return null;
  // Whole when every contract row, synced and optimistic, has its entry (index-builder.ts).
  const whole = db.get<{ whole: number }>(sql`select not exists (select 1 from replica_meta where key = 'search_index_deferred')
    and (select count(*) from search_rows) = (select count(*) from contracts) + (select count(*) from contracts_local) as whole`);
  if (whole?.whole !== 1) return null;
  const found = db
    .all<{ id: string }>(
      sql`select distinct r.contract_id as id from contract_search as s join search_rows as r on r.id = s.rowid
        where contract_search match ${`{name contract_number} : ${matchExpression([q])}`} limit ${indexedCap + 1}`,
    )
    .map((row) => row.id);
  return found.length > indexedCap ? null : found;
}

export function searchRelatedCandidates(replica: OpenReplica, q: string, limit: number): RelatedCandidates['list'] {
  const { db } = replica;
  const pattern = q === '' ? null : containsPattern(q);
  // A rare query (a whole number) is looked up in the full-text index; any other walks the rows.
  const ids = pattern === null ? null : indexedCandidates(replica, q);
  // The rows of contracts_overlay, read as its two halves merged in order: the synced half is
  // walked newest first on contracts_related_candidates and stops at the limit, reading no table
  // row, where the view was matched and sorted whole (30 ms at 50,000 contracts).
  const local = db
    .select({ id: contractsLocal.id, name: contractsLocal.name, contractNumber: contractsLocal.contractNumber, updateTime: contractsLocal.updateTime })
    .from(contractsLocal)
    .where(and(matching(pattern, contractsLocal.name, contractsLocal.contractNumber), ids === null ? undefined : inArray(contractsLocal.id, ids)));
  const synced = db
    .select({ id: contracts.id, name: contracts.name, contractNumber: contracts.contractNumber, updateTime: contracts.updateTime })
    .from(contracts)
    .where(
      and(
        matching(pattern, contracts.name, contracts.contractNumber),
        ids === null ? undefined : inArray(contracts.id, ids),
        notInArray(contracts.id, db.select({ id: contractsLocal.id }).from(contractsLocal)),
      ),
    );
  return unionAll(local, synced)
    .orderBy(sql`update_time desc`, sql`id desc`)
    .limit(limit)
    .all()
    .map(({ id, name, contractNumber }) => ({ id, name, contractNumber }));
}
