import { tempDir } from '../tests/support/temp';
import type { Core } from '../src-main/core/core';
import { call, testCore } from '../tests/support/core';
import { figure } from './stats';
import { freshDatabase, reachablePostgres, seedInChild, spawnContractServer } from './support';

// Issue 2 figure: the first pull of 50,000 contracts into a new replica: seconds to the first
// usable page, seconds to all, and the main core's peak RSS (the server runs in another process).
// measureFirstPull is shared with the sync bench (bench/sync.bench.ts).

const contractCount = Number(process.env.BENCH_CONTRACTS ?? 50_000);

export async function benchFirstPull(): Promise<void> {
  const postgres = await reachablePostgres();
  const serverData = tempDir('contract-desk-bench-server-');
  const env: Record<string, string> = postgres ? { DATABASE_URL: await freshDatabase(postgres, 'contract_desk_bench_pull') } : {};
  const args = postgres ? [] : ['--data', serverData.path];
  console.log(`# ${await seedInChild(contractCount, env, args)} (${postgres ? 'PostgreSQL' : 'PGlite'})`);
  const server = await spawnContractServer(env, args);

  const desktop = tempDir('contract-desk-bench-desktop-');
  const core = testCore(desktop.path, { syncIntervalMs: 3_600_000 });
  try {
    const measured = await measureFirstPull(core, server.url, contractCount);
    figure('first_pull_contracts', contractCount, 'contracts');
    figure('first_pull_first_page_usable', measured.firstUsableMs / 1000, 's');
    figure('first_pull_all', measured.totalMs / 1000, 's');
    figure('first_pull_core_rss_baseline', measured.baseline / 2 ** 20, 'MiB', 1);
    figure('first_pull_core_rss_peak', measured.peak / 2 ** 20, 'MiB', 1);
    figure('first_pull_core_rss_growth', (measured.peak - measured.baseline) / 2 ** 20, 'MiB', 1);
  } finally {
    await core.close();
    await server.stop();
    desktop.cleanup();
    serverData.cleanup();
  }
}

export async function measureFirstPull(core: Core, serverUrl: string, contractCount: number) {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const start = performance.now();
  let firstUsableMs = 0;
  const done = new Promise<void>((resolve, reject) => {
    core.subscribe((event, payload) => {
      // The ledger is usable once the first contracts are in (task changes are announced apart).
      if (event === 'data.changed' && 'entities' in payload && payload.entities.includes('contract') && firstUsableMs === 0) firstUsableMs = performance.now() - start;
      if (event === 'sync.statusChanged' && 'phase' in payload) {
        if (payload.phase === 'idle' && payload.lastSyncAt) resolve();
        if (payload.phase === 'error' || payload.phase === 'offline') reject(new Error(JSON.stringify(payload.error)));
      }
    });
  });
  try {
    await call(core, 'session.signIn', { serverUrl, username: 'admin', password: 'admin123' });
    await done;
  } finally {
    clearInterval(sampler);
  }
  const totalMs = performance.now() - start;
  const statistics = await call(core, 'ledger.contractStatistics', {});
  if (statistics.total !== contractCount) throw new Error(`pulled ${statistics.total} of ${contractCount} contracts`);
  // Every change of the first sync: the contracts, their performance tasks and the reminder settings.
  const { pulled } = await call(core, 'sync.status', {});
  return { firstUsableMs, totalMs, baseline, peak, pulled };
}
