import { availableParallelism, loadavg } from 'node:os';
import type { Core } from '../src-main/core/core';
import { ContractStatus } from '../src-shared/domain/enums';
import { startFaultProxy, type FaultProxy } from '../tests/main/fault-proxy';
import { call, testCore, waitFor } from '../tests/support/core';
import { tempDir } from '../tests/support/temp';
import { measureFirstPull } from './first-pull.bench';
import { figure } from './stats';
import { freshDatabase, reachablePostgres, seedInChild, spawnContractServer } from './support';

// Issue 4 figures (npm run bench:sync), on loopback with the demo data on PostgreSQL: the first
// sync of contracts and their performance tasks (list usable, everything, main-core memory growth), 1,000 queued offline edits drained,
// and how much one poisoned mutation among 1,000 delays the rest. The core reaches the server
// through a loopback proxy, which plays "offline" while the edits are queued.

const contractCount = Number(process.env.BENCH_CONTRACTS ?? 50_000);
const edits = 1000;

function target(name: string, value: number, unit: string) {
  figure(`${name}_target`, value, unit);
}

export async function benchSync(): Promise<void> {
  const postgres = await reachablePostgres();
  const serverData = tempDir('contract-desk-bench-sync-server-');
  const env: Record<string, string> = postgres ? { DATABASE_URL: await freshDatabase(postgres, 'contract_desk_bench_sync') } : {};
  const args = postgres ? [] : ['--data', serverData.path];
  console.log(`# ${await seedInChild(contractCount, env, args)} (${postgres ? 'PostgreSQL' : 'PGlite'})`);
  console.log(`# load average before the run: ${loadavg().map((n) => n.toFixed(2)).join(' ')} on ${availableParallelism()} CPUs`);
  const server = await spawnContractServer(env, args);
  const proxy = await startFaultProxy(Number(new URL(server.url).port));
  const desktop = tempDir('contract-desk-bench-sync-desktop-');
  const core = testCore(desktop.path, { syncIntervalMs: 3_600_000, syncSoonMs: 3_600_000, connectivityProbeMs: 3_600_000, syncBackoffMs: 3_600_000 });
  try {
    const first = await measureFirstPull(core, proxy.url, contractCount);
    figure('sync_first_contracts', contractCount, 'contracts');
    // The seed gives each contract about four performance tasks; the first sync brings them all.
    figure('sync_first_tasks_and_settings', first.pulled - contractCount, 'changes');
    figure('sync_first_list_usable', first.firstUsableMs / 1000, 's');
    target('sync_first_list_usable', 5, 's');
    figure('sync_first_all', first.totalMs / 1000, 's');
    target('sync_first_all', 30, 's');
    figure('sync_first_core_memory_growth', (first.peak - first.baseline) / 2 ** 20, 'MiB', 1);
    target('sync_first_core_memory_growth', 250, 'MiB');
    console.log(`# load average after the first sync: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);

    const ids: string[] = [];
    // Each edit changes its own contract (edits of one contract go one after another by design),
    // a draft, since the server refuses edits of archived contracts and status jumps.
    for (let pageNum = 1; pageNum <= edits / 50; pageNum += 1) {
      ids.push(...(await call(core, 'ledger.contractPage', { pageSize: 50, pageNum, status: ContractStatus.Drafting })).list.map((c) => c.id));
    }
    const clean = await drainQueued(core, proxy, ids, 0, null);
    figure('sync_drain_1000_edits', clean / 1000, 's');
    target('sync_drain_1000_edits', 10, 's');
    // The poison: a rename of an archived contract. The core queues it (whether a status still
    // allows editing is the server's call at apply time); the server refuses it for good.
    const [archived] = (await call(core, 'ledger.contractPage', { pageSize: 5, pageNum: 1, status: ContractStatus.Archived })).list;
    const poisoned = await drainQueued(core, proxy, ids, 1, archived!.id);
    figure('sync_drain_1000_edits_one_poisoned', poisoned / 1000, 's');
    figure('sync_poison_delay', Math.max(0, poisoned - clean) / 1000, 's');
    target('sync_poison_delay', 1, 's');
  } finally {
    await core.close();
    await proxy.close();
    await server.stop();
    desktop.cleanup();
    serverData.cleanup();
  }
}

/**
 * Queues 1,000 edits while the proxy refuses connections (offline), then lets them through and
 * times until the queue is empty. With `poison`, edit number 1 goes to that contract, which the
 * server refuses: it is rejected, recorded, and the rest drains on.
 */
async function drainQueued(core: Core, proxy: FaultProxy, ids: string[], round: number, poison: string | null): Promise<number> {
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
