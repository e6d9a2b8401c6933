import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SyncContract } from '../../src-shared/api/sync';
import { fullTextCountCap, fullTextSearchRequestSchema, matchEnd, matchStart, type FullTextSearchRequest } from '../../src-shared/ipc/archive';
import { pulledRow } from '../../src-main/core/contracts/contract-rows';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { archivedFiles, contracts, contractsLocal } from '../../src-main/core/data/schema';
import { replicaFeatures } from '../../src-main/core/features';
import { fullTextSearch, markTerms, searchTerms } from '../../src-main/core/search/full-text';
import { searchIndexBuilder } from '../../src-main/core/search/index-builder';
import { cjkBigrams } from '../../src-main/core/data/cjk-bigrams';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { clientJournal, insertWithItsColumns, migrationsUpTo } from '../support/migrations';
import { eq } from 'drizzle-orm';

/** Marked text as the test reads it: [match]. */
const shown = (text: string | null | undefined) => text?.replaceAll(matchStart, '[').replaceAll(matchEnd, ']');

describe('local full-text search over the replica (FTS5 trigram)', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  /** A pull that reaches the end: a first one leaves the index to the builder, run here to completion. */
  const pull = (rows: SyncContract[], op: 'upsert' | 'delete' = 'upsert', build = true, features = replicaFeatures) => {
    const writer = replicaWriter(replica, features);
    writer.applyPulledChanges(
      rows.map((row) => (op === 'upsert' ? { entity: 'contract' as const, op, row } : { entity: 'contract' as const, op, id: row.id })),
      String(rows.length),
      '2026-11-21T10:00:00.000Z',
    );
    writer.finishPull();
    const builder = build ? searchIndexBuilder(replica.sqlite) : null;
    while (builder && builder.step(500) > 0);
  };
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

  it('splits a query into trigram phrases, CJK pairs and short terms, by characters not bytes', () => {
    expect(searchTerms('  采购 合同书  acme ab ACME 海 A股 ')).toEqual({ long: ['合同书', 'acme'], pairs: ['采购'], short: ['ab', '海', 'A股'] });
    expect(cjkBigrams('上海办公楼 rent 租赁')).toBe('上海 海办 办公 公楼 租赁');
    expect(cjkBigrams('A 海 b')).toBe('');
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

  it("shows a clause field in an excerpt by its label with its value, never its key or an id (issue 31)", () => {
    const clause = {
      statementId: 2,
      fieldList: [{ id: 'instalments', name: '分期数', required: true, positionName: 'clause_instalments_4bea673d' }],
      values: { clause_instalments_4bea673d: '3' },
    };
    pull([makeContract(1, { name: 'Lease', formValues: { payment: clause, remark: '分期付款租赁', owner: '0b6f1c52-1d57-4c0e-9a55-3f3f4a5e8c11' } })]);
    const excerpt = shown(search('分期').list[0]?.excerpt?.text);
    expect(excerpt).toBe('[分期]数: 3 [分期]付款租赁');
    expect(excerpt).not.toMatch(/clause_|instalments|0b6f1c52/);
  });

  it('finds Chinese by any part of a word: three characters through the trigram index, two through the pair index', () => {
    pull([
      makeContract(1, { name: '上海办公楼租赁合同', counterpartName: '上海港务集团有限公司' }),
      makeContract(2, { name: '北京设备采购合同', formValues: { remark: '交货地点为北京市海淀区' } }),
      makeContract(3, { name: 'Service agreement' }),
    ]);
    expect(found('租赁合同')).toEqual([contractId(1)]);
    expect(found('港务集团')).toEqual([contractId(1)]);
    expect(found('海淀区')).toEqual([contractId(2)]);
    // Two characters: not a trigram, found through the pair index, and highlighted.
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
    expect(first).toMatchObject({ count: 25, more: false });
    expect(first.list).toHaveLength(10);
    expect(third.list).toHaveLength(5);
    expect(new Set([...first.list, ...third.list].map((hit) => hit.contractId)).size).toBe(15);
  });

  it('finds a two-character Chinese word in form and PDF text through the pair index, not a scan', () => {
    pull([
      makeContract(1, { name: '仓库租赁合同' }),
      makeContract(2, { name: 'Warehouse', formValues: { clause: '乙方应按期支付租赁费用' } }),
      makeContract(3, { name: 'Storage', counterpartName: '租赁服务有限公司' }),
      makeContract(4, { name: 'Signed lease' }),
      makeContract(5, { name: '租 赁', formValues: { clause: '租金' } }),
    ]);
    replica.db.insert(archivedFiles).values({ contractId: contractId(4), fileId: 'f', name: 'a.pdf', size: 1, openedAt: 'now', text: '第三条 租赁期限为三年。' }).run();
    const hits = search('租赁').list;
    // Name, then counterparty, then form, then PDF; the split characters of contract 5 are no pair.
    expect(hits.map((hit) => hit.contractId)).toEqual([contractId(1), contractId(3), contractId(2), contractId(4)]);
    expect(shown(hits[0]?.name)).toBe('仓库[租赁]合同');
    expect(shown(hits[1]?.counterpartName)).toBe('[租赁]服务有限公司');
    expect(hits[2]?.excerpt).toEqual({ source: 'form', text: `乙方应按期支付${matchStart}租赁${matchEnd}费用` });
    expect(hits[3]?.excerpt).toEqual({ source: 'pdf', text: `第三条 ${matchStart}租赁${matchEnd}期限为三年。` });
    // A pair and a trigram term together, each highlighted by its own index.
    expect(found('租赁 期限为')).toEqual([contractId(4)]);
    expect(shown(search('租赁 期限为').list[0]?.excerpt?.text)).toBe('第三条 [租赁][期限为]三年。');

    // Every statement the search runs reads the pair index by MATCH, never scans a table, never sorts.
    const statements: string[] = [];
    const prepare = replica.sqlite.prepare.bind(replica.sqlite);
    const spy = vi.spyOn(replica.sqlite, 'prepare').mockImplementation(((sql: string) => {
      statements.push(sql);
      return prepare(sql);
    }) as typeof replica.sqlite.prepare);
    search('违约');
    search('租赁', { pageSize: 10, pageNum: 2 });
    spy.mockRestore();
    const searches = statements.filter((sql) => sql.includes('MATCH'));
    expect(searches.length).toBeGreaterThan(0);
    for (const sql of searches) {
      const plan = replica.sqlite
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...Array.from(sql.matchAll(/\?/g), () => null))
        .map((step) => (step as { detail: string }).detail);
      expect(plan.some((step) => /^SCAN b VIRTUAL TABLE INDEX \d+:\S*M/.test(step)), plan.join('\n')).toBe(true);
      expect(plan.filter((step) => /^SCAN (?!b VIRTUAL TABLE INDEX \d+:\S*M)/.test(step) || step.includes('TEMP B-TREE')), plan.join('\n')).toEqual([]);
    }
  });

  it('matches one character (or two that are not a CJK pair) in the name, number and counterparty only', () => {
    pull([makeContract(1, { name: '海运合同' }), makeContract(2, { name: 'Other', formValues: { clause: '海上运输' } }), makeContract(3, { name: 'A股 listing' })]);
    replica.db.insert(archivedFiles).values({ contractId: contractId(2), fileId: 'f', name: 'a.pdf', size: 1, openedAt: 'now', text: '海' }).run();
    expect(found('海')).toEqual([contractId(1)]);
    expect(shown(search('海').list[0]?.name)).toBe('[海]运合同');
    expect(found('a股')).toEqual([contractId(3)]);
  });

  it('counts up to the cap and says when more match', () => {
    pull(Array.from({ length: fullTextCountCap + 5 }, (_, i) => makeContract(i, { name: i % 2 === 0 ? `租赁 walrus ${i}` : `walrus ${i}`, formValues: { clause: '租赁' } })));
    for (const q of ['walrus', '租赁', '租赁 walrus']) {
      const page = search(q, { pageSize: 50 });
      expect(page, q).toMatchObject({ count: fullTextCountCap, more: true });
      expect(page.list).toHaveLength(50);
    }
    // Past the cap the newest matches are ranked: names first (contracts 1004 down to 4), then the
    // form text (1003 down to 5); the two oldest are not among them.
    const pages = Array.from({ length: 20 }, (_, i) => search('租赁', { pageSize: 50, pageNum: i + 1 }).list);
    const ids = pages.flat().map((hit) => hit.contractId);
    expect(ids).toHaveLength(fullTextCountCap);
    expect(new Set(ids).size).toBe(fullTextCountCap);
    expect(shown(pages[10]?.[0]?.name)).toBe('[租赁] walrus 4');
    expect(pages[10]?.slice(1).every((hit) => hit.excerpt?.source === 'form')).toBe(true);
    expect(ids.slice(0, 3)).toEqual([contractId(1004), contractId(1002), contractId(1000)]);
    expect(search('租赁', { pageSize: 50, pageNum: 21 }).list).toEqual([]);
    expect(search('walrus 1003', { pageSize: 10 })).toMatchObject({ count: 1, more: false });
  });

  it('pages across the places a word is found without repeating or losing a contract', () => {
    pull([
      ...Array.from({ length: 12 }, (_, i) => makeContract(i, { name: `违约 case ${i}` })),
      ...Array.from({ length: 12 }, (_, i) => makeContract(100 + i, { name: `Form ${i}`, formValues: { clause: '违约责任' } })),
    ]);
    const pages = [1, 2, 3].map((pageNum) => search('违约', { pageSize: 10, pageNum }));
    expect(pages.map((page) => page.list.length)).toEqual([10, 10, 4]);
    expect(pages.every((page) => page.count === 24 && !page.more)).toBe(true);
    const ids = pages.flatMap((page) => page.list.map((hit) => hit.contractId));
    expect(ids).toEqual([...Array.from({ length: 12 }, (_, i) => contractId(11 - i)), ...Array.from({ length: 12 }, (_, i) => contractId(111 - i))]);
  });

  it('shows a queued local edit, not its synced row, for pair and LIKE terms too', () => {
    pull([makeContract(1, { name: '房屋租赁合同' }), makeContract(2, { name: '设备采购' })]);
    replica.db.insert(contractsLocal).values(pulledRow(makeContract(1, { name: '房屋买卖合同' }))).run();
    replica.db.insert(contractsLocal).values(pulledRow(makeContract(2, { name: '设备租赁' }))).run();
    expect(found('租赁')).toEqual([contractId(2)]);
    expect(shown(search('租赁').list[0]?.name)).toBe('设备[租赁]');
    expect(found('买卖')).toEqual([contractId(1)]);
    expect(found('房')).toEqual([contractId(1)]);
    expect(found('采购')).toEqual([]);
    replica.db.delete(contractsLocal).where(eq(contractsLocal.id, contractId(2))).run();
    expect(found('采购')).toEqual([contractId(2)]);
    expect(found('租赁')).toEqual([]);
  });

  it('builds the pair index of a replica made before it (migration 0022)', () => {
    const before = clientJournal.entries.findIndex((entry) => entry.tag.startsWith('0022_'));
    expect(before).toBeGreaterThan(0);
    replica.close();
    const path = join(dir.path, 'old.sqlite');
    const old = openReplica(path, migrationsUpTo(dir.path, before));
    replica = old;
    // A replica of then: its triggers index each row as it is written, in that schema's columns.
    insertWithItsColumns(
      old.sqlite,
      contracts,
      [makeContract(1, { name: '仓库租赁合同' }), makeContract(2, { name: 'Plain', formValues: { clause: '违约责任' } }), makeContract(3, { name: 'Signed' })].map(pulledRow),
    );
    old.db.insert(archivedFiles).values({ contractId: contractId(3), fileId: 'f', name: 'a.pdf', size: 1, openedAt: 'now', text: '任何一方违约应承担责任' }).run();
    old.close();
    replica = openReplica(path, clientMigrationsDir);
    expect(found('租赁')).toEqual([contractId(1)]);
    expect(found('违约')).toEqual([contractId(2), contractId(3)]);
    // The replaced triggers keep both indexes from then on. (The next pull brings every contract
    // again: client migration 0036 pulls from the start.)
    pull([makeContract(1, { name: '仓库买卖合同', version: 2 }), makeContract(2, { name: 'Plain', formValues: { clause: '违约责任' } }), makeContract(3, { name: 'Signed' })]);
    replica.db.update(archivedFiles).set({ text: '不可抗力' }).where(eq(archivedFiles.contractId, contractId(3))).run();
    expect(found('租赁')).toEqual([]);
    expect(found('违约')).toEqual([contractId(2)]);
    expect(found('买卖')).toEqual([contractId(1)]);
    expect(found('抗力')).toEqual([contractId(3)]);
  });

  it('leaves the index of a first sync to the builder, which indexes every row as the triggers would have', () => {
    /** The same first sync, with the replica's writes in between, into `target`; `deferrable` false: a replica that held a row before. */
    const firstSync = (target: OpenReplica, deferrable: boolean) => {
      const seed = pulledRow(makeContract(99));
      if (!deferrable) target.db.insert(contracts).values(seed).run();
      const writer = replicaWriter(target, replicaFeatures);
      const page = (rows: SyncContract[], cursor: string) => writer.applyPulledChanges(rows.map((row) => ({ entity: 'contract' as const, op: 'upsert' as const, row })), cursor, 'now');
      page([makeContract(1, { name: '仓库租赁合同 harbour' }), makeContract(2, { formValues: { clause: '违约责任 walrus' } }), makeContract(3, { name: 'Signed' })], '3.0.2');
      if (!deferrable) target.db.delete(contracts).where(eq(contracts.id, seed.id)).run();
      const indexedMidway = target.sqlite.prepare('select count(*) from contract_search').pluck().get();
      // Meanwhile: an offline rename, a PDF's text, and a row the next page changes again.
      target.db.insert(contractsLocal).values(pulledRow(makeContract(2, { name: '离线改名 offline' }))).run();
      target.db.insert(archivedFiles).values({ contractId: contractId(3), fileId: 'f', name: 'a.pdf', size: 1, openedAt: 'now', text: '不可抗力 tribunal' }).run();
      page([makeContract(1, { name: '仓库买卖合同 harbour', version: 2 }), makeContract(4, { counterpartName: '宏图咨询有限公司' })], '5');
      writer.finishPull();
      return indexedMidway;
    };
    const snapshot = (target: OpenReplica) => ({
      text: target.sqlite
        .prepare('select r.contract_id, r.source, s.name, s.contract_number, s.counterpart_name, s.form_text, s.pdf_text from search_rows r join contract_search s on s.rowid = r.id order by 1, 2')
        .all(),
      pairs: target.sqlite
        .prepare('select r.contract_id, r.source, b.name, b.counterpart_name, b.form_text, b.pdf_text from search_rows r join contract_search_bigrams b on b.rowid = r.id order by 1, 2')
        .all(),
    });

    expect(firstSync(replica, true)).toBe(0);
    const builder = searchIndexBuilder(replica.sqlite);
    expect(builder.deferred()).toBe(false);
    expect(found('租赁')).toEqual([]);
    let steps = 0;
    while (builder.step(2) > 0) steps += 1;
    // Four synced rows and one optimistic one, two at a time.
    expect(steps).toBe(3);
    // The statistics the first sync's end took (an empty index) give way to the built index's.
    builder.finish();
    expect(replica.sqlite.prepare(`select stat from sqlite_stat1 where tbl = 'search_rows'`).pluck().get()).toMatch(/^5 /);

    const triggered = openReplica(join(dir.path, 'triggered.sqlite'), clientMigrationsDir);
    try {
      expect(firstSync(triggered, false)).toBeGreaterThan(0);
      expect(snapshot(replica)).toEqual(snapshot(triggered));
    } finally {
      triggered.close();
    }
    expect(found('买卖')).toEqual([contractId(1)]);
    expect(found('离线')).toEqual([contractId(2)]);
    // The synced row's form text is not the user's view of contract 2: the offline edit is.
    expect(found('walrus')).toEqual([]);
    expect(found('tribunal')).toEqual([contractId(3)]);
    expect(found('宏图')).toEqual([contractId(4)]);
    // Indexed from then on by the triggers again.
    pull([makeContract(4, { counterpartName: 'Falcon Engineering', version: 2 })]);
    expect(found('宏图')).toEqual([]);
    expect(found('Falcon')).toEqual([contractId(4)]);
  });
});
