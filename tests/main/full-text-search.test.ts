import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncContract } from '../../src-shared/api/sync';
import { fullTextSearchRequestSchema, matchEnd, matchStart, type FullTextSearchRequest } from '../../src-shared/ipc/archive';
import { pulledRow } from '../../src-main/core/contracts/contract-rows';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { archivedFiles, contractsLocal } from '../../src-main/core/data/schema';
import { replicaFeatures } from '../../src-main/core/features';
import { fullTextSearch, markTerms, searchTerms } from '../../src-main/core/search/full-text';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { eq } from 'drizzle-orm';

/** Marked text as the test reads it: [match]. */
const shown = (text: string | null | undefined) => text?.replaceAll(matchStart, '[').replaceAll(matchEnd, ']');

describe('local full-text search over the replica (FTS5 trigram)', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  const pull = (rows: SyncContract[], op: 'upsert' | 'delete' = 'upsert') =>
    replicaWriter(replica, replicaFeatures).applyPulledChanges(
      rows.map((row) => (op === 'upsert' ? { entity: 'contract' as const, op, row } : { entity: 'contract' as const, op, id: row.id })),
      String(rows.length),
      '2026-11-21T10:00:00.000Z',
    );
  const search = (q: string, more: Partial<FullTextSearchRequest> = {}) => fullTextSearch(replica.sqlite).search(fullTextSearchRequestSchema.parse({ q, ...more }));
  const found = (q: string) => search(q).list.map((hit) => hit.contractId);

  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('splits a query into trigram phrases and short terms, by characters not bytes', () => {
    expect(searchTerms('  采购 合同书  acme ab ACME ')).toEqual({ long: ['合同书', 'acme'], short: ['采购', 'ab'] });
    expect(markTerms(`x ${matchStart}acme${matchEnd} ab AB`, ['ab'])).toBe(`x ${matchStart}acme${matchEnd} ${matchStart}ab${matchEnd} ${matchStart}AB${matchEnd}`);
  });

  it('ranks a match in the name above one in the counterparty, the form text or the PDF', () => {
    pull([
      makeContract(1, { name: 'Lease of the harbour office' }),
      makeContract(2, { formValues: { clause: 'Deliveries go through the harbour gate' } }),
      makeContract(3, { counterpartName: 'Harbour Logistics Ltd' }),
      makeContract(4, { name: 'Unrelated' }),
    ]);
    replica.db.insert(archivedFiles).values({ contractId: contractId(4), fileId: 'f', name: 'signed.pdf', size: 1, openedAt: 'now', text: 'Signed at the harbour.' }).run();
    expect(found('harbour')).toEqual([contractId(1), contractId(3), contractId(2), contractId(4)]);
    const [best, , byForm, byPdf] = search('harbour').list;
    expect(shown(best?.name)).toBe('Lease of the [harbour] office');
    expect(best?.excerpt).toBeNull();
    expect(byForm?.excerpt?.source).toBe('form');
    expect(shown(byForm?.excerpt?.text)).toBe('Deliveries go through the [harbour] gate');
    expect(shown(byPdf?.excerpt?.text)).toBe('Signed at the [harbour].');
    expect(byPdf?.excerpt?.source).toBe('pdf');
    expect(search('harbour').count).toBe(4);
  });

  it('finds Chinese by any part of a word: three characters through FTS5, one or two through LIKE', () => {
    pull([
      makeContract(1, { name: '上海办公楼租赁合同', counterpartName: '上海港务集团有限公司' }),
      makeContract(2, { name: '北京设备采购合同', formValues: { remark: '交货地点为北京市海淀区' } }),
      makeContract(3, { name: 'Service agreement' }),
    ]);
    expect(found('租赁合同')).toEqual([contractId(1)]);
    expect(found('港务集团')).toEqual([contractId(1)]);
    expect(found('海淀区')).toEqual([contractId(2)]);
    // Two characters: not a trigram, still found, and highlighted.
    expect(found('合同')).toEqual([contractId(2), contractId(1)]);
    expect(shown(search('采购').list[0]?.name)).toBe('北京设备[采购]合同');
    expect(shown(search('北京').list[0]?.excerpt?.text)).toContain('[北京]');
    // A trigram term and a short one: both must match.
    expect(found('租赁合同 上海')).toEqual([contractId(1)]);
    expect(found('租赁合同 北京')).toEqual([]);
    expect(shown(search('租赁合同 上海').list[0]?.name)).toBe('[上海]办公楼[租赁合同]');
  });

  it('treats FTS5 syntax and LIKE wildcards in the query as text', () => {
    pull([makeContract(1, { name: 'Rate 50% "fixed" (NEAR) AND more' }), makeContract(2, { name: 'Rate 500 fixed' })]);
    expect(found('"fixed"')).toEqual([contractId(1)]);
    expect(found('NEAR) AND')).toEqual([contractId(1)]);
    expect(found('0%')).toEqual([contractId(1)]);
    expect(found('*')).toEqual([]);
  });

  it('follows the replica: pulls, local edits, archived text and contracts that leave it', () => {
    pull([makeContract(1, { name: 'Quarry lease' }), makeContract(2)]);
    expect(found('quarry')).toEqual([contractId(1)]);
    pull([makeContract(1, { name: 'Mine lease', version: 2 })]);
    expect(found('quarry')).toEqual([]);
    // An unconfirmed local edit is what the user sees: its base row is not found.
    replica.db.insert(contractsLocal).values(pulledRow(makeContract(2, { name: 'Offline rename walrus' }))).run();
    expect(found('walrus')).toEqual([contractId(2)]);
    expect(found('Service agreement 2')).toEqual([]);
    replica.db.delete(contractsLocal).where(eq(contractsLocal.id, contractId(2))).run();
    expect(found('walrus')).toEqual([]);
    // The PDF's text arrives after extraction; the contract leaving the replica takes it along.
    replica.db.insert(archivedFiles).values({ contractId: contractId(1), fileId: 'f', name: 'a.pdf', size: 1, openedAt: 'now' }).run();
    expect(found('zebrafish')).toEqual([]);
    replica.db.update(archivedFiles).set({ text: 'A zebrafish clause' }).where(eq(archivedFiles.contractId, contractId(1))).run();
    expect(found('zebrafish')).toEqual([contractId(1)]);
    pull([makeContract(1)], 'delete');
    expect(found('zebrafish')).toEqual([]);
    expect(replica.db.select().from(archivedFiles).all()).toEqual([]);
  });

  it('pages the results and counts them all', () => {
    pull(Array.from({ length: 25 }, (_, i) => makeContract(i, { name: `Walrus supply ${i}` })));
    const first = search('walrus', { pageSize: 10 });
    const third = search('walrus', { pageSize: 10, pageNum: 3 });
    expect(first.count).toBe(25);
    expect(first.list).toHaveLength(10);
    expect(third.list).toHaveLength(5);
    expect(new Set([...first.list, ...third.list].map((hit) => hit.contractId)).size).toBe(15);
  });
});
