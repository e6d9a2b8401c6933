import Database from 'better-sqlite3-multiple-ciphers';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { replicaWriter } from '../src-main/core/data/replica-sync';
import { openReplica } from '../src-main/core/data/replica';
import { archivedFiles } from '../src-main/core/data/schema';
import { replicaFeatures } from '../src-main/core/features';
import { fileSecretStore } from '../src-main/core/files';
import { fullTextQueries, matchExpression, searchTerms } from '../src-main/core/search/full-text';
import { replicaPathFor } from '../src-main/core/session/session-service';
import { clientMigrationsDir } from '../src-main/paths';
import { benchCore, settleFirstSync } from './support';
import type { SyncChange } from '../src-shared/api/sync';
import { contractId, makeContract, makeTask } from '../tests/support/contracts';
import { tempDir } from '../tests/support/temp';
import { contractStatuses, taskTypes } from '../src-shared/domain/enums';
import { organisationDay } from '../src-shared/rules/performance';
import type { Core } from '../src-main/core/core';
import { figure, load, seededRandom, summarize, timeEach } from './stats';

// Issue 14 targets, over one replica of 50,000 contracts (names, numbers, counterparties, form
// text) + 200,000 tasks + 1,000 archived PDFs' text (about 6,000 characters each), each through the
// real IPC handler beside a raw better-sqlite3 floor:
// - a scene page (3 filters, a sort, a page of 20) plus the header counts: p95 <= 10 ms and <= 2x the floor;
// - the local full-text search (a page of 10 ranked, highlighted hits and the count): p95 <= 20 ms.

const contractCount = 50_000;
const taskCount = 200_000;
const pdfCount = 1_000;
const iterations = 1000;
/** The full-text queries are slow under load (see docs/performance.md): fewer of them keep the bench short. */
const fullTextIterations = 200;
/** Tasks fall due over four years; a scene asks one month of them. */
const dueDays = 4 * 365;
const dueDay = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const serverUrl = 'http://127.0.0.1:9';
const user = { id: 'bench-user', username: 'bench', displayName: 'Bench', role: 'admin' as const, departmentId: null, departmentName: null };

const places = ['上海', '北京', '深圳', '杭州', '成都', '武汉', '南京', '苏州', 'Shanghai', 'Berlin', 'Munich', 'Singapore'];
const subjects = ['办公设备采购', '仓库租赁', '年度审计服务', '智能终端销售', '劳保用品', 'software licence', 'consulting services', 'raw materials supply', 'maintenance', 'logistics'];
const parties = ['宏图咨询有限公司', '远景医药有限责任公司', '东方机械设备股份有限公司', 'Redwood Engineering GmbH', 'Falcon Engineering Co., Ltd.', 'Pioneer Manufacturing LLC', 'Silverline Consulting Ltd.'];
const clauses = [
  '甲方应在收到发票后三十日内付款。',
  '乙方保证所交付货物符合国家标准。',
  '任何一方违约应承担违约责任并赔偿损失。',
  'The supplier shall deliver the goods to the warehouse within thirty days.',
  'Either party may terminate this agreement upon ninety days written notice.',
  'Liquidated damages are capped at ten percent of the contract price.',
  '本合同自双方签字盖章之日起生效。',
];

/** The queries timed, in turn: names, a Chinese trigram, two-character Chinese words (the pair index), a PDF-only word, a number, two terms. */
const queries = ['审计服务', 'Redwood', '租赁', '争议解决', 'arbitration tribunal', 'HT-2026-0123', '上海 劳保', 'Pioneer maintenance', '智能终端', '违约'];

/** The parts of this bench (BENCH_ONLY=ledgerScenes:fullText runs one of them over the same data). */
export const ledgerScenesParts = ['scenePage', 'sceneExport', 'fullText'] as const;
type LedgerScenesPart = (typeof ledgerScenesParts)[number];

export async function benchLedgerScenes(parts: readonly LedgerScenesPart[] = ledgerScenesParts): Promise<void> {
  const dir = tempDir('contract-desk-bench-fts-');
  const random = seededRandom(14);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const replicaPath = replicaPathFor(dir.path, serverUrl, user.id);
  const replica = openReplica(replicaPath, clientMigrationsDir);
  const writer = replicaWriter(replica, replicaFeatures);

  const fillStart = performance.now();
  for (let start = 0; start < contractCount; start += 1000) {
    const changes: SyncChange[] = Array.from({ length: 1000 }, (_, k) => {
      const i = start + k;
      return {
        entity: 'contract',
        op: 'upsert',
        row: makeContract(i, {
          name: `${pick(places)}${pick(subjects)}合同 ${i}`,
          counterpartName: pick(parties),
          status: pick(contractStatuses),
          formValues: { place: pick(places), clause: `${pick(clauses)} ${pick(clauses)}`, remark: pick(subjects) },
        }),
      };
    });
    writer.applyPulledChanges(changes, String(start + 1000), new Date().toISOString());
  }
  const contractsFilled = performance.now();
  for (let start = 0; start < taskCount; start += 5000) {
    const changes: SyncChange[] = Array.from({ length: 5000 }, (_, k) => {
      const i = start + k;
      return {
        entity: 'performanceTask',
        op: 'upsert',
        row: makeTask(i, {
          contractId: contractId(i % contractCount),
          name: `Payment ${i}`,
          type: pick(taskTypes),
          state: (1 + Math.floor(random() * 4)) as 1 | 2 | 3 | 4,
          expirationTime: dueDay(Math.floor(random() * dueDays)),
          receivableAmount: Math.floor(random() * 10_000_000),
        }),
      };
    });
    writer.applyPulledChanges(changes, String(contractCount + start + 5000), new Date().toISOString());
  }
  const pdfStart = performance.now();
  replica.sqlite.transaction(() => {
    // Only the full-text search reads the archived PDFs' text.
    for (let i = 0; i < (parts.includes('fullText') ? pdfCount : 0); i += 1) {
      const pages = Array.from({ length: 60 }, () => pick(clauses));
      // A few documents carry the words only a PDF has.
      if (i % 50 === 0) pages.push('争议解决方式：提交仲裁委员会仲裁。 The arbitration tribunal sits in Singapore.');
      replica.db
        .insert(archivedFiles)
        .values({ contractId: contractId(i * 37), fileId: `file-${i}`, name: `signed-${i}.pdf`, size: 100_000, openedAt: new Date().toISOString(), pages: 3, indexedPages: 3, text: pages.join(' ') })
        .run();
    }
  })();
  const filled = performance.now();
  figure('full_text_index_fill_50k_contracts', (contractsFilled - fillStart) / 1000, 's');
  if (parts.includes('fullText')) figure('full_text_index_fill_1000_pdfs', (filled - pdfStart) / 1000, 's');
  // The fill above was a first sync into an empty replica: it ends as the sync engine ends it, and
  // the full-text index the core builds afterwards is built whole before anything is timed over it.
  settleFirstSync(replica, writer, 'ledger_scenes');
  replica.close();

  fileSecretStore(join(dir.path, 'session.json')).write(
    JSON.stringify({ serverUrl, user, tokens: { token: 't', refreshToken: 'r', expiresAt: new Date().toISOString() } }),
  );
  const core = benchCore(dir.path, true);
  if (parts.includes('scenePage')) await benchScenePage(core, replicaPath);
  if (parts.includes('sceneExport')) await benchExport(core);
  if (parts.includes('fullText')) await benchFullText(core, replicaPath);
  else await core.close();
  dir.cleanup();
}

/** The full-text search through the IPC handler, beside raw SQLite floors; closes the core. */
async function benchFullText(core: Core, replicaPath: string): Promise<void> {
  let found = 0;
  const ipc = summarize(
    await timeEach(fullTextIterations, 20, async (i) => {
      const result = await core.invoke('search.fullText', { q: queries[i % queries.length]!, pageSize: 10 });
      if (!result.ok) throw new Error(`search failed: ${JSON.stringify(result.error)}`);
      found += (result.data as { list: unknown[] }).list.length;
    }),
  );
  await core.close();
  if (found === 0) throw new Error('the searches found nothing: the bench measures nothing');

  // The floor: the same question (the first 10 in rank order, the count up to the cap, their text)
  // answered by the search's own SQL on raw better-sqlite3: no IPC, no highlighting, no excerpts,
  // no status.
  const raw = new Database(replicaPath, { readonly: true });
  const sql = fullTextQueries(raw);
  const floor = summarize(
    await timeEach(fullTextIterations, 20, (i) => {
      for (const row of sql.ranked(searchTerms(queries[i % queries.length]!), 10, 0).rows) sql.text(row.rowid);
    }),
  );
  // For comparison, the shape before the bounds: FTS5's own bm25 ranking of every match and the
  // exact count (trigram queries only; the pair queries had no index then).
  const pageSql = raw.prepare('select rowid from contract_search where contract_search match ? order by rank limit 10');
  const countSql = raw.prepare('select count(*) from contract_search where contract_search match ?').pluck();
  const trigramQueries = queries.map((q) => q.split(/\s+/).filter((term) => Array.from(term).length >= 3)).filter((terms) => terms.length > 0);
  const exactRank = summarize(
    await timeEach(fullTextIterations, 20, (i) => {
      const q = matchExpression(trigramQueries[i % trigramQueries.length]!);
      pageSql.all(q);
      countSql.get(q);
    }),
  );
  raw.close();

  load('full_text_search');
  figure('full_text_search_ipc_p50', ipc.p50, 'ms');
  figure('full_text_search_p95_ratio_to_floor', ipc.p95 / floor.p95, 'x', 2);
  figure('full_text_search_ipc_p95', ipc.p95, 'ms');
  figure('full_text_search_floor_p50', floor.p50, 'ms');
  figure('full_text_search_floor_p95', floor.p95, 'ms');
  figure('full_text_search_exact_rank_floor_p50', exactRank.p50, 'ms');
  figure('full_text_search_exact_rank_floor_p95', exactRank.p95, 'ms');
  figure('full_text_search_p95_target', 20, 'ms');
}

/**
 * The month a scene page asks for on iteration i (varied so no answer is cached); `overdue` adds
 * a filter on the effective state '已逾期' (stored overdue, or pending with its date passed).
 */
export function sceneRequest(i: number, sceneId: string, overdue = false) {
  const from = (i * 37) % (dueDays - 31);
  return {
    standingBookID: sceneId,
    filterList: [
      { id: 'taskType', condition: { in: ['receivable', 'payable'] } },
      { id: 'contractStatus', condition: { in: [3, 4] } },
      { id: 'expirationTime', condition: { gte: dueDay(from), lte: dueDay(from + 30) } },
      ...(overdue ? [{ id: 'taskState', condition: { in: [3] } }] : []),
    ],
    sortField: { id: 'expirationTime', key: 1 as const },
    pageNum: 1 + (i % 3),
    pageSize: 20,
  };
}

/** A scene page with 3 filters and a sort plus the header counts, through the IPC handlers, beside raw SQLite. */
async function benchScenePage(core: Core, replicaPath: string): Promise<void> {
  const titleIDs = ['taskType', 'taskState', 'expirationTime', 'receivableAmount', 'contractName', 'contractNumber', 'contractStatus', 'contractAmount'];
  const created = await core.invoke('scene.create', { name: 'Receivables and payables due', titleIDs, filterIDs: ['taskType', 'contractStatus', 'expirationTime'] });
  if (!created.ok) throw new Error(`scene.create failed: ${JSON.stringify(created.error)}`);
  const sceneId = (created.data as { id: string }).id;
  // The floor: the same question hand-written on raw better-sqlite3, over the same tables and
  // indexes: the status filter and the count on the task's copy of its contract's status
  // (migration 0028, as the core reads it); the page's 20 keys found and sorted on the scene
  // index, then only their rows (the shown columns) read with their contracts, put in order here
  // (the fastest of the forms tried: one query with an outer ORDER BY sorts the rows again).
  const raw = new Database(replicaPath, { readonly: true });
  const where = `from performance_tasks t
    where t.type in (?, ?) and t.contract_status in (?, ?) and t.expiration_time >= ? and t.expiration_time <= ?`;
  // The overdue page's floor: the effective state as plain conditions on the stored state and due date.
  const overdueWhere = `${where} and (t.state in (3) or (t.state in (1, 2) and t.expiration_time < ?))`;
  const keysSql = raw.prepare(`select t.rowid ${where} order by t.expiration_time, t.id limit ? offset ?`).pluck();
  const overdueKeysSql = raw.prepare(`select t.rowid ${overdueWhere} order by t.expiration_time, t.id limit ? offset ?`).pluck();
  const rowsSql = raw.prepare(`select t.rowid as k, t.id, t.name, t.type, t.state, t.expiration_time, t.receivable_amount, t.amount_unit, c.id, c.name, c.contract_number, c.status, c.amount, c.amount_unit
    from performance_tasks t join contracts c on c.id = t.contract_id where t.rowid in (select value from json_each(?))`);
  const pageOf = (keysOf: typeof keysSql) => (...params: unknown[]) => {
    const keys = keysOf.all(...params) as number[];
    const found = new Map((rowsSql.all(JSON.stringify(keys)) as { k: number }[]).map((row) => [row.k, row]));
    return keys.map((key) => found.get(key));
  };
  const [pageSql, overduePageSql] = [pageOf(keysSql), pageOf(overdueKeysSql)];
  const [countSql, overdueCountSql] = [raw.prepare(`select count(*) ${where}`).pluck(), raw.prepare(`select count(*) ${overdueWhere}`).pluck()];
  const today = organisationDay(new Date());
  const statisticsSql = raw.prepare('select status, count from contract_status_counts');

  let rows = 0;
  const viaIpc = async (i: number, overdue = false) => {
    const [page, counts] = await Promise.all([core.invoke('ledger.search', sceneRequest(i, sceneId, overdue)), core.invoke('ledger.contractStatistics', {})]);
    if (!page.ok || !counts.ok) throw new Error(`scene page failed: ${JSON.stringify(page.ok ? counts : page)}`);
    rows += (page.data as { list: unknown[] }).list.length;
  };
  const onFloor = (i: number, overdue = false) => {
    const r = sceneRequest(i, sceneId);
    const range = r.filterList[2]!.condition as { gte: string; lte: string };
    const params = ['receivable', 'payable', 3, 4, range.gte, range.lte, ...(overdue ? [today] : [])];
    (overdue ? overduePageSql : pageSql)(...params, r.pageSize, (r.pageNum - 1) * r.pageSize);
    (overdue ? overdueCountSql : countSql).get(...params);
    statisticsSql.all();
  };
  // Both in turn, one call each per step, so a burst of load on the shared machine falls on both alike.
  const time = async (run: () => unknown) => {
    const start = process.hrtime.bigint();
    await run();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  for (let i = 0; i < 50; i += 1) {
    await viaIpc(i);
    onFloor(i);
    await viaIpc(i, true);
    onFloor(i, true);
  }
  const samples = { ipc: [] as number[], floor: [] as number[], overdueIpc: [] as number[], overdueFloor: [] as number[] };
  for (let i = 0; i < iterations; i += 1) {
    samples.ipc.push(await time(() => viaIpc(i)));
    samples.floor.push(await time(() => onFloor(i)));
    samples.overdueIpc.push(await time(() => viaIpc(i, true)));
    samples.overdueFloor.push(await time(() => onFloor(i, true)));
  }
  if (rows === 0) throw new Error('the scene pages were empty: the bench measures nothing');
  const kept = await keptFiltersScenePage(core, titleIDs, (i) => {
    const r = sceneRequest(0, sceneId);
    const range = r.filterList[2]!.condition as { gte: string; lte: string };
    const page = keptPage(i);
    pageSql('receivable', 'payable', 3, 4, range.gte, range.lte, page.pageSize, (page.pageNum - 1) * page.pageSize);
    countSql.get('receivable', 'payable', 3, 4, range.gte, range.lte);
    statisticsSql.all();
  });
  raw.close();
  const [ipc, floor] = [summarize(samples.ipc), summarize(samples.floor)];
  load('scene_page');
  figure('scene_page_and_counts_ipc_p50', ipc.p50, 'ms');
  figure('scene_page_and_counts_ipc_p95', ipc.p95, 'ms');
  figure('scene_page_and_counts_floor_p50', floor.p50, 'ms');
  figure('scene_page_and_counts_floor_p95', floor.p95, 'ms');
  figure('scene_page_and_counts_p95_ratio_to_floor', ipc.p95 / floor.p95, 'x', 2);
  figure('scene_page_and_counts_p95_target', 10, 'ms');
  const [overdueIpc, overdueFloor] = [summarize(samples.overdueIpc), summarize(samples.overdueFloor)];
  figure('scene_page_overdue_and_counts_ipc_p50', overdueIpc.p50, 'ms');
  figure('scene_page_overdue_and_counts_ipc_p95', overdueIpc.p95, 'ms');
  figure('scene_page_overdue_and_counts_floor_p95', overdueFloor.p95, 'ms');
  figure('scene_page_overdue_and_counts_p95_ratio_to_floor', overdueIpc.p95 / overdueFloor.p95, 'x', 2);
  figure('scene_page_saved_filters_and_counts_ipc_p50', kept.ipc.p50, 'ms');
  figure('scene_page_saved_filters_and_counts_ipc_p95', kept.ipc.p95, 'ms');
  figure('scene_page_saved_filters_and_counts_floor_p95', kept.floor.p95, 'ms');
  figure('scene_page_saved_filters_and_counts_p95_ratio_to_floor', kept.ipc.p95 / kept.floor.p95, 'x', 2);
  figure('scene_page_saved_filters_and_counts_p95_target', 10, 'ms');
}

/** The page asked of a scene whose filter values are kept in it: only its number and size (the first ten pages in turn). */
const keptPage = (i: number) => ({ pageNum: 1 + (i % 10), pageSize: 20 });

/**
 * Issue 28: a scene page when the scene keeps its filter values (the `filter` of
 * standing_book_config, the first month's of sceneRequest): the request names only the scene and
 * the page, the core applies the kept filters; beside `floor`, the same question in raw SQL.
 */
async function keptFiltersScenePage(core: Core, titleIDs: string[], floor: (i: number) => void) {
  const { filterList, sortField } = sceneRequest(0, '');
  const created = await core.invoke('scene.create', { name: 'Receivables and payables due, kept', titleIDs, filterIDs: ['taskType', 'contractStatus', 'expirationTime'], filter: filterList });
  if (!created.ok) throw new Error(`scene.create failed: ${JSON.stringify(created.error)}`);
  const sceneId = (created.data as { id: string }).id;
  let rows = 0;
  const viaIpc = async (i: number) => {
    const [page, counts] = await Promise.all([
      core.invoke('ledger.search', { standingBookID: sceneId, filterList: [], sortField, ...keptPage(i) }),
      core.invoke('ledger.contractStatistics', {}),
    ]);
    if (!page.ok || !counts.ok) throw new Error(`kept-filter scene page failed: ${JSON.stringify(page.ok ? counts : page)}`);
    rows += (page.data as { list: unknown[] }).list.length;
  };
  for (let i = 0; i < 50; i += 1) {
    await viaIpc(i);
    floor(i);
  }
  const samples = { ipc: [] as number[], floor: [] as number[] };
  for (let i = 0; i < iterations; i += 1) {
    let start = process.hrtime.bigint();
    await viaIpc(i);
    samples.ipc.push(Number(process.hrtime.bigint() - start) / 1e6);
    start = process.hrtime.bigint();
    floor(i);
    samples.floor.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  if (rows === 0) throw new Error('the kept-filter scene pages were empty: the bench measures nothing');
  return { ipc: summarize(samples.ipc), floor: summarize(samples.floor) };
}

/** One Excel export through the core: its rows, file size, time, and the peak growth of the process's RSS and JS heap over their values before it. */
async function timedExport(core: Core, filterList: unknown[], measureLive = false) {
  const titleIDs = ['taskType', 'taskState', 'expirationTime', 'receivableAmount', 'contractName', 'contractNumber', 'contractStatus', 'contractAmount'];
  // With node's --expose-gc (NODE_OPTIONS=--expose-gc) each export starts from a collected heap,
  // so the growth is the export's own and not garbage left by what ran before.
  const gc = global.gc;
  gc?.();
  const live = () => {
    const now = process.memoryUsage();
    return now.heapUsed + now.arrayBuffers;
  };
  const before = process.memoryUsage();
  const liveBefore = live();
  const peak = { rss: before.rss, heap: before.heapUsed, live: liveBefore };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heap = Math.max(peak.heap, now.heapUsed);
  };
  const sampler = setInterval(sample, 20);
  // What the export holds (not garbage yet to be collected): the heap and buffers right after a
  // collection, a few times a second; in a run of its own, as the collections slow it.
  const liveSampler = gc && measureLive
    ? setInterval(() => {
        gc();
        peak.live = Math.max(peak.live, live());
      }, 250)
    : undefined;
  const start = performance.now();
  const result = await core.invoke('ledger.export', { exportId: randomUUID(), search: { filterList, sortField: { id: 'expirationTime', key: 1 }, titleIDs } });
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  clearInterval(liveSampler);
  sample();
  if (!result.ok) throw new Error(`export failed: ${JSON.stringify(result.error)}`);
  const { rows, size } = result.data as { rows: number; size: number };
  const mib = (bytes: number) => bytes / 1024 / 1024;
  return { rows, size, seconds, rss: mib(peak.rss - before.rss), heap: mib(peak.heap - before.heapUsed), live: mib(peak.live - liveBefore) };
}

/**
 * The Excel export of a scene at two sizes: about 10,000 rows (receivables due in the first 500
 * days) and about 57,000 (receivables and payables, all dates). Flat memory: what the large export
 * holds (its live heap and buffers) is not ~5.7x what the small one holds (each batch of rows is
 * written, handed to the zip and dropped).
 */
async function benchExport(core: Core): Promise<void> {
  // A first, tiny export loads the writer's code, so neither measured one carries that.
  await timedExport(core, [{ id: 'expirationTime', condition: { gte: dueDay(0), lte: dueDay(0) } }]);
  const smallFilter = [
    { id: 'taskType', condition: { in: ['receivable'] } },
    { id: 'expirationTime', condition: { gte: dueDay(0), lte: dueDay(500) } },
  ];
  const largeFilter = [{ id: 'taskType', condition: { in: ['receivable', 'payable'] } }];
  const small = await timedExport(core, smallFilter);
  const large = await timedExport(core, largeFilter);
  if (large.rows < 50_000) throw new Error(`the export wrote ${large.rows} rows, fewer than the 50,000 the target asks`);
  load('scene_export');
  figure('scene_export_gc_forced', global.gc ? 1 : 0, '(1: node ran with --expose-gc)');
  figure('scene_export_rows_small', small.rows, 'rows');
  figure('scene_export_time_small', small.seconds, 's');
  figure('scene_export_rss_peak_growth_small', small.rss, 'MiB');
  const smallLive = global.gc ? (await timedExport(core, smallFilter, true)).live : 0;
  if (global.gc) figure('scene_export_live_peak_growth_small', smallLive, 'MiB');
  figure('scene_export_heap_peak_growth_small', small.heap, 'MiB');
  figure('scene_export_rows', large.rows, 'rows');
  figure('scene_export_file', large.size / 1024 / 1024, 'MiB');
  figure('scene_export_time', large.seconds, 's');
  figure('scene_export_time_target', 10, 's');
  figure('scene_export_rss_peak_growth_large', large.rss, 'MiB');
  figure('scene_export_heap_peak_growth_large', large.heap, 'MiB');
  figure('scene_export_rss_growth_large_minus_small', large.rss - small.rss, 'MiB');
  if (global.gc) {
    const largeLive = (await timedExport(core, largeFilter, true)).live;
    figure('scene_export_live_peak_growth_large', largeLive, 'MiB');
    // The difference, not a ratio: the small export's growth can be within the sampling (0 MiB).
    figure('scene_export_live_growth_large_minus_small', largeLive - smallLive, 'MiB');
  }
  figure('scene_export_rows_large_to_small', large.rows / small.rows, 'x', 2);
}
