import { availableParallelism, loadavg } from 'node:os';
import type { Core } from '../src-main/core/core';
import { ContractStatus } from '../src-shared/domain/enums';
import type { Performance } from '../src-shared/domain/performance';
import pg from 'pg';
import { noFaults, startFaultProxy, type FaultProxy } from '../tests/main/fault-proxy';
import { isLinkProfile, linkProfiles, type LinkProfile } from '../tests/main/link-shape';
import { call, testCore, waitFor } from '../tests/support/core';
import { tempDir } from '../tests/support/temp';
import { measureFirstPull } from './first-pull.bench';
import { figure } from './stats';
import { databaseCpuSeconds, freshDatabase, processCpuSeconds, reachablePostgres, seedInChild, spawnContractServer } from './support';

// Issue 4, 12 and 33 figures (npm run bench:sync), with the demo data on PostgreSQL, per link profile
// (BENCH_LINKS, default "loopback,office,poor"; tests/main/link-shape.ts): the first sync of
// contracts and their performance tasks (list usable, everything, bytes moved, main-core memory
// growth), 1,000 queued offline edits drained, an incremental sync of 500 changes made on the
// server, and (on loopback) how much one poisoned mutation among 1,000 delays the rest. The core
// reaches the server through the loopback proxy, which shapes the link and plays "offline"
// while the edits are queued.

const contractCount = Number(process.env.BENCH_CONTRACTS ?? 50_000);
const profiles = (process.env.BENCH_LINKS ?? 'loopback,office,poor').split(',').filter(isLinkProfile);
const edits = 1000;
const incremental = 500;

/** The targets per profile, in seconds. */
const targets: Record<LinkProfile, { usable: number; all: number }> = {
  loopback: { usable: 1, all: 2.5 },
  office: { usable: 1, all: 5 },
  poor: { usable: 1, all: 45 },
};

function target(name: string, value: number, unit: string) {
  figure(`${name}_target`, value, unit);
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');

export async function benchSync(): Promise<void> {
  const postgres = await reachablePostgres();
  const serverData = tempDir('contract-desk-bench-sync-server-');
  // A name of one's own where several benches share one PostgreSQL.
  const name = process.env.BENCH_SYNC_DATABASE ?? 'contract_desk_bench_sync';
  // BENCH_SYNC_REUSE=1 keeps that database as an earlier run seeded it (its prepared first syncs dropped).
  const reuse = postgres !== null && process.env.BENCH_SYNC_REUSE === '1';
  const databaseUrl = postgres ? (reuse ? reusedDatabase(postgres, name) : await freshDatabase(postgres, name)) : null;
  const env: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const args = postgres ? [] : ['--data', serverData.path];
  if (reuse) await dropPrepared(databaseUrl!);
  else console.log(`# ${await seedInChild(contractCount, env, args)} (${postgres ? 'PostgreSQL' : 'PGlite'})`);
  console.log(`# load average before the run: ${load()} on ${availableParallelism()} CPUs`);
  if (process.env.BENCH_SYNC_ONLY === 'planDrain') return benchPlanDrainOnly(env, args, serverData);
  const server = await spawnContractServer(env, args);
  const proxy = await startFaultProxy(Number(new URL(server.url).port));
  try {
    // The server prepares each user's first sync as it starts, as pages and as a replica image
    // (src-server/sync/snapshots.ts, images.ts); the first syncs below are timed once it has, as on
    // a server that has been running.
    if (databaseUrl) {
      figure('sync_snapshots_prepared', (await snapshotsPrepared(databaseUrl)) / 1000, 's');
      await preparedSizes(databaseUrl);
    }
    for (const profile of profiles) {
      proxy.faults = { ...noFaults, link: linkProfiles[profile] };
      await benchProfile(profile, proxy, databaseUrl);
      console.log(`# load average after ${profile}: ${load()}`);
    }
    if (databaseUrl && profiles.includes('loopback')) {
      proxy.faults = { ...noFaults, link: linkProfiles.loopback };
      await benchLiveFirstSync(proxy, databaseUrl);
    }
  } finally {
    await proxy.close();
    await server.stop();
    serverData.cleanup();
  }
}

/**
 * BENCH_SYNC_ONLY=planDrain: the drain of 1,000 queued plan creations on loopback alone, after a
 * first sync through the live feed (the server prepares no first syncs, which would take the
 * machine for many minutes first): the same figure as the whole run's, in minutes, not an hour.
 */
async function benchPlanDrainOnly(env: Record<string, string>, args: string[], serverData: ReturnType<typeof tempDir>): Promise<void> {
  const server = await spawnContractServer(env, [...args, '--sync-snapshots', 'off']);
  const proxy = await startFaultProxy(Number(new URL(server.url).port));
  const desktop = tempDir('contract-desk-bench-sync-plan-drain-');
  const core = quietCore(desktop.path);
  try {
    proxy.faults = { ...noFaults, link: linkProfiles.loopback };
    await measureFirstPull(core, proxy.url, contractCount);
    // As in the whole run: the full-text index the first sync leaves to build is built first.
    await waitFor(async () => ((await call(core, 'search.fullText', { q: 'HT' })).indexing === null ? true : undefined), 300_000);
    await planDrainFigures(core, proxy, { serverPid: server.child.pid!, databaseUrl: env.DATABASE_URL ?? null });
  } finally {
    await core.close();
    desktop.cleanup();
    await proxy.close();
    await server.stop();
    serverData.cleanup();
  }
}

function reusedDatabase(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropPrepared(databaseUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('delete from sync_images');
    await db.query('delete from sync_snapshots');
  } finally {
    await db.end();
  }
}

/** A core that syncs only when asked, so the figures are the timed calls' own. */
const quietCore = (dir: string) => testCore(dir, { syncIntervalMs: 3_600_000, syncSoonMs: 3_600_000, connectivityProbeMs: 3_600_000, syncBackoffMs: 500 });

/** Megabytes through the link either way between two readings of its traffic. */
const bytesMoved = (before: { up: number; down: number }, after: { up: number; down: number }) => (after.down - before.down + after.up - before.up) / 1e6;

async function benchProfile(profile: LinkProfile, proxy: FaultProxy, databaseUrl: string | null): Promise<void> {
  const desktop = tempDir(`contract-desk-bench-sync-${profile}-`);
  const core = quietCore(desktop.path);
  const name = (what: string) => `sync_${profile}_${what}`;
  try {
    const before = proxy.traffic();
    const first = await measureFirstPull(core, proxy.url, contractCount);
    const after = proxy.traffic();
    figure(name('first_contracts'), contractCount, 'contracts');
    // The seed gives each contract about four performance tasks; the first sync brings them all.
    figure(name('first_tasks_and_settings'), first.pulled - contractCount, 'changes');
    figure(name('first_list_usable'), first.firstUsableMs / 1000, 's');
    target(name('first_list_usable'), targets[profile].usable, 's');
    figure(name('first_all'), first.totalMs / 1000, 's');
    target(name('first_all'), targets[profile].all, 's');
    figure(name('first_bytes_moved'), bytesMoved(before, after), 'MB', 2);
    target(name('first_bytes_moved'), 11.9, 'MB');
    figure(name('first_core_memory_growth'), (first.peak - first.baseline) / 2 ** 20, 'MiB', 1);
    target(name('first_core_memory_growth'), 250, 'MiB');

    // After a first sync the core builds the full-text index in the background (a few seconds of
    // CPU at 50,000 contracts). The edits below are queued and drained once that is done, as a
    // user's offline edits come long after their first sync; how long it took is printed.
    const indexStart = performance.now();
    await waitFor(async () => ((await call(core, 'search.fullText', { q: 'HT' })).indexing === null ? true : undefined), 300_000);
    figure(name('full_text_index_built_after_first'), (performance.now() - indexStart) / 1000, 's');

    const ids: string[] = [];
    // Each edit changes its own contract (edits of one contract go one after another by design),
    // a draft, since the server refuses edits of archived contracts and status jumps.
    for (let pageNum = 1; pageNum <= edits / 50; pageNum += 1) {
      ids.push(...(await call(core, 'ledger.contractPage', { pageSize: 50, pageNum, status: ContractStatus.Drafting })).list.map((c) => c.id));
    }
    const clean = await drainQueued(core, proxy, ids, profile, null);
    figure(name('drain_1000_edits'), clean / 1000, 's');
    if (profile !== 'office') target(name('drain_1000_edits'), 10, 's');
    if (profile === 'loopback') await planDrainFigures(core, proxy, null);
    if (databaseUrl) {
      figure(name('incremental_500_changes'), (await incrementalSync(core, databaseUrl, ids.slice(0, incremental), profile)) / 1000, 's');
      if (profile === 'poor') target(name('incremental_500_changes'), 3, 's');
    }
    if (profile === 'loopback') {
      // The poison: a rename of an archived contract. The core queues it (whether a status still
      // allows editing is the server's call at apply time); the server refuses it for good.
      const [archived] = (await call(core, 'ledger.contractPage', { pageSize: 5, pageNum: 1, status: ContractStatus.Archived })).list;
      const poisoned = await drainQueued(core, proxy, ids, `${profile}-poisoned`, archived!.id);
      figure(name('drain_1000_edits_one_poisoned'), poisoned / 1000, 's');
      figure(name('poison_delay'), Math.max(0, poisoned - clean) / 1000, 's');
      target(name('poison_delay'), 1, 's');
    }
  } finally {
    await core.close();
    desktop.cleanup();
  }
}

/** Waits until every user has a prepared first sync; how long since the server was up. */
async function snapshotsPrepared(databaseUrl: string): Promise<number> {
  const start = performance.now();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await waitFor(async () => {
      const { rows } = await db.query<{ missing: string }>('select count(*) as missing from users where id not in (select user_id from sync_snapshots)');
      return rows[0]!.missing === '0' ? true : undefined;
    }, 3 * 3_600_000);
  } finally {
    await db.end();
  }
  return performance.now() - start;
}

/** The admin's image beside their prepared pages: its build time on the server's thread, its size compressed and as a file, and the pages' bytes. */
async function preparedSizes(databaseUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ build_ms: number; image: string; raw: string; pages: string; changes: number }>(
      `select i.build_ms, octet_length(i.body)::text as image, i.raw_bytes::text as raw, octet_length(s.body)::text as pages, i.changes
         from sync_images i join sync_snapshots s using (user_id) join users u on u.id = i.user_id where u.username = 'admin'`,
    );
    const row = rows[0]!;
    figure('sync_image_changes', row.changes, 'changes');
    figure('sync_image_build', row.build_ms / 1000, 's');
    figure('sync_image_bytes', Number(row.image) / 1e6, 'MB', 2);
    figure('sync_image_file_bytes', Number(row.raw) / 1e6, 'MB', 2);
    figure('sync_prepared_pages_bytes', Number(row.pages) / 1e6, 'MB', 2);
  } finally {
    await db.end();
  }
}

/**
 * The fallbacks' own figures on loopback: a first sync from the prepared pages (the image dropped
 * first), then through the live feed (the pages dropped too).
 */
async function benchLiveFirstSync(proxy: FaultProxy, databaseUrl: string): Promise<void> {
  for (const [name, drop] of [
    ['prepared_pages', ['sync_images']],
    ['live_feed', ['sync_images', 'sync_snapshots']],
  ] as const) {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      for (const table of drop) await db.query(`delete from ${table} where user_id = (select id from users where username = 'admin')`);
    } finally {
      await db.end();
    }
    const desktop = tempDir(`contract-desk-bench-sync-${name}-`);
    const core = quietCore(desktop.path);
    try {
      const before = proxy.traffic();
      const first = await measureFirstPull(core, proxy.url, contractCount);
      const after = proxy.traffic();
      figure(`sync_loopback_first_all_${name}`, first.totalMs / 1000, 's');
      figure(`sync_loopback_first_bytes_moved_${name}`, bytesMoved(before, after), 'MB', 2);
    } finally {
      await core.close();
      desktop.cleanup();
    }
  }
}

/** Changes `ids` on the server (another user's edits) and times the pull that brings them. */
async function incrementalSync(core: Core, databaseUrl: string, ids: string[], round: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(`update contracts set name = name || ' (${round})', version = version + 1 where id = any($1)`, [ids]);
  } finally {
    await db.end();
  }
  const before = (await call(core, 'sync.status', {})).pulled;
  const start = performance.now();
  const status = await call(core, 'sync.now', {});
  const elapsed = performance.now() - start;
  if (status.pulled < ids.length) throw new Error(`the incremental sync brought ${status.pulled} of ${ids.length} changes (before: ${before})`);
  return elapsed;
}

/**
 * Issue 28: 1,000 performance plans added offline (a 12-month payment schedule each, on approved
 * contracts without a plan of that performance), then drained once the server is reachable again:
 * how long the queueing took, and the drain until the queue is empty with no problem.
 */
/** The contract server's process and its database, whose CPU seconds a drain reads beside its own. */
interface CpuMeter {
  serverPid: number;
  databaseUrl: string | null;
}

/**
 * The drain of 1,000 queued plan creations on loopback, as figures; with `meter`, the CPU seconds
 * the drain took of the server, of PostgreSQL (the database's backends) and of this process (the
 * core, the proxy and the bench), which compare across runs on a shared machine where the wall
 * time does not.
 */
async function planDrainFigures(core: Core, proxy: FaultProxy, meter: CpuMeter | null): Promise<void> {
  const cpu = meter && (async () => ({ server: processCpuSeconds(meter.serverPid), database: meter.databaseUrl ? await databaseCpuSeconds(meter.databaseUrl) : -1, core: process.cpuUsage() }));
  const plans = await drainPlanCreations(core, proxy, cpu);
  figure('sync_loopback_queue_1000_plan_creations', plans.queuedMs / 1000, 's');
  figure('sync_loopback_drain_1000_plan_creations', plans.drainMs / 1000, 's');
  figure('sync_loopback_drain_1000_plan_creations_tasks', plans.tasks, 'tasks');
  target('sync_loopback_drain_1000_plan_creations', 10, 's');
  if (plans.spent) {
    const { before, after } = plans.spent;
    figure('sync_loopback_drain_1000_plan_creations_server_cpu', after.server - before.server, 's');
    if (before.database >= 0) figure('sync_loopback_drain_1000_plan_creations_database_cpu', after.database - before.database, 's');
    figure('sync_loopback_drain_1000_plan_creations_core_cpu', (after.core.user - before.core.user + after.core.system - before.core.system) / 1e6, 's');
  }
  console.log(`# load average after the plan drain: ${load()}`);
}

type CpuReading = { server: number; database: number; core: NodeJS.CpuUsage };

async function drainPlanCreations(core: Core, proxy: FaultProxy, cpu: (() => Promise<CpuReading>) | null): Promise<{ queuedMs: number; drainMs: number; tasks: number; spent: { before: CpuReading; after: CpuReading } | null }> {
  const read = await call(core, 'cached.read', { endpoint: 'performanceList' });
  const list = (read.value as { performanceList: Performance[] }).performanceList;
  const chosen = list.find((p) => p.type === 'payment') ?? list[0];
  if (!chosen) throw new Error('the organisation has no performance to add plans of');
  const contracts: string[] = [];
  for (let pageNum = 1; contracts.length < edits; pageNum += 1) {
    const { list: page } = await call(core, 'ledger.contractPage', { pageSize: 50, pageNum, status: ContractStatus.Approved });
    if (page.length === 0) throw new Error(`only ${contracts.length} approved contracts without a plan of "${chosen.name}"`);
    for (const contract of page) {
      const { plans } = await call(core, 'fulfilment.contract', { contractId: contract.id });
      if (contracts.length < edits && !plans.some((plan) => plan.performanceId === chosen.id)) contracts.push(contract.id);
    }
  }
  const shown = { name: chosen.name, type: chosen.type, columns: chosen.columns, fields: chosen.fields };
  const schedule = { cycle: 'month', startDate: '2027-01-01', endDate: '2027-12-31', amount: { amount: 1_200_000, unit: 'CNY' }, direction: 'payable', name: 'Bench rent' } as const;
  proxy.faults.refuse = true;
  const queueStart = performance.now();
  for (const contractID of contracts) {
    await call(core, 'fulfilment.createPlan', { performanceId: chosen.id, performance: shown, plan: { contractID, conditionType: 2, schedule } });
  }
  const queuedMs = performance.now() - queueStart;
  const before = await call(core, 'sync.status', {});
  if (before.queued !== edits) throw new Error(`queued ${before.queued} of ${edits} plans`);
  proxy.faults.refuse = false;
  const cpuBefore = await cpu?.();
  const start = performance.now();
  await waitFor(async () => {
    const status = await call(core, 'sync.now', {});
    return status.queued === 0 ? status : undefined;
  }, 600_000);
  const drainMs = performance.now() - start;
  const cpuAfter = await cpu?.();
  const status = await call(core, 'sync.status', {});
  if (status.problems.length > 0) throw new Error(`plans refused: ${JSON.stringify(status.problems.slice(0, 3))}`);
  const tasks = (await call(core, 'fulfilment.contract', { contractId: contracts[0]! })).plans.find((plan) => plan.performanceId === chosen.id)?.tasks.length ?? 0;
  return { queuedMs, drainMs, tasks: tasks * contracts.length, spent: cpuBefore && cpuAfter ? { before: cpuBefore, after: cpuAfter } : null };
}

/**
 * Queues 1,000 edits while the proxy refuses connections (offline), then lets them through and
 * times until the queue is empty. With `poison`, edit number 1 goes to that contract, which the
 * server refuses: it is rejected, recorded, and the rest drains on.
 */
async function drainQueued(core: Core, proxy: FaultProxy, ids: string[], round: string, poison: string | null): Promise<number> {
  proxy.faults.refuse = true;
  for (let i = 0; i < edits; i += 1) {
    const id = poison !== null && i === 1 ? poison : ids[i % ids.length]!;
    await call(core, 'contract.update', { id, patch: { name: `Bench edit ${round}.${i}` } });
  }
  const before = await call(core, 'sync.status', {});
  if (before.queued !== edits) throw new Error(`queued ${before.queued} of ${edits}`);
  proxy.faults.refuse = false;
  const start = performance.now();
  await waitFor(async () => {
    const status = await call(core, 'sync.now', {});
    return status.queued === 0 ? status : undefined;
  }, 120_000);
  const elapsed = performance.now() - start;
  const status = await call(core, 'sync.status', {});
  const rejected = status.problems.filter((p) => p.state === 'rejected').length;
  if (rejected !== (poison !== null ? 1 : 0) || status.problems.length !== rejected) throw new Error(`unexpected problems: ${JSON.stringify(status.problems.slice(0, 3))}`);
  for (const problem of status.problems) await call(core, 'sync.dismiss', { id: problem.id });
  return elapsed;
}
