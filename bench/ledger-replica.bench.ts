import Database from 'better-sqlite3-multiple-ciphers';
import { replicaWriter } from '../src-main/core/data/replica-sync';
import { settleFirstSync } from './support';
import { createOutbox } from '../src-main/core/data/outbox';
import { systemClock } from '../src-main/core/ports';
import type { LedgerContractPageRequest } from '../src-shared/ipc/channels';
import { openReplica } from '../src-main/core/data/replica';
import { fileSecretStore } from '../src-main/core/files';
import { replicaPathFor } from '../src-main/core/session/session-service';
import { clientMigrationsDir } from '../src-main/paths';
import { benchCore } from './support';
import type { ContractStatus } from '../src-shared/domain/enums';
import type { SyncChange } from '../src-shared/api/sync';
import { makeContract } from '../tests/support/contracts';
import { tempDir } from '../tests/support/temp';
import { figure, seededRandom, summarize, timeEach } from './stats';
import { join } from 'node:path';
import { replicaFeatures } from '../src-main/core/features';

// Issue 2 target: with 50,000 contracts in the replica, one ledger page (status filter, sort by
// update time, page of 20) plus the header counts, through the real IPC handler: p95 <= 10 ms and
// <= 2x the same queries on raw better-sqlite3 (the floor). The same again with 1,000 pending
// edits (issue 4): base rows paged on the index, local rows merged in.

const contractCount = 50_000;
const iterations = 2000;
const pendingEdits = 1000;
const serverUrl = 'http://127.0.0.1:9';
const user = { id: 'bench-user', username: 'bench', displayName: 'Bench', role: 'admin' as const, departmentId: null, departmentName: null };

export async function benchLedgerReplica(): Promise<void> {
  const dir = tempDir('contract-desk-bench-');
  const random = seededRandom(2);
  const replicaPath = replicaPathFor(dir.path, serverUrl, user.id);
  const replica = openReplica(replicaPath, clientMigrationsDir);
  const changes: SyncChange[] = Array.from({ length: contractCount }, (_, i) => {
    const updated = new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 700 * 86_400_000)).toISOString();
    const status = random() < 0.02 ? null : ((1 + Math.floor(random() * 5)) as ContractStatus);
    return { entity: 'contract', op: 'upsert', row: makeContract(i, { status, updateTime: updated }) };
  });
  const fillStart = performance.now();
  const writer = replicaWriter(replica, replicaFeatures);
  for (let i = 0; i < changes.length; i += 1000) writer.applyPulledChanges(changes.slice(i, i + 1000), String(i + 1000), new Date().toISOString());
  figure('replica_fill_50k', (performance.now() - fillStart) / 1000, 's');
  settleFirstSync(replica, writer, 'ledger_replica');
  replica.close();

  fileSecretStore(join(dir.path, 'session.json')).write(
    JSON.stringify({ serverUrl, user, tokens: { token: 't', refreshToken: 'r', expiresAt: new Date().toISOString() } }),
  );
  const request = (i: number) => ({ status: ((i % 5) + 1) as ContractStatus, pageNum: 1 + (i % 10), pageSize: 20 as const, sort: { field: 'updateTime' as const, order: 'desc' as const } });
  const ipc = await timeLedgerIpc(dir.path, request);

  // 1,000 pending edits (names) queued offline: the ledger merges their local rows.
  const edited = openReplica(replicaPath, clientMigrationsDir);
  const outbox = createOutbox(edited, { features: replicaFeatures, clock: systemClock });
  for (let i = 0; i < pendingEdits; i += 1) {
    const change = changes[Math.floor(random() * contractCount)]!;
    if (change.entity !== 'contract' || change.op !== 'upsert') continue;
    outbox.enqueue('contract.update', { id: change.row.id, patch: { name: `Edited ${i}` } });
  }
  edited.close();
  const pending = await timeLedgerIpc(dir.path, request);

  const raw = new Database(replicaPath, { readonly: true });
  const pageSql = raw.prepare('select * from contracts where status = ? order by update_time desc, id desc limit ? offset ?');
  const countSql = raw.prepare('select count(*) from contracts where status = ?').pluck();
  const statisticsSql = raw.prepare('select status, count from contract_status_counts');
  const floor = summarize(
    await timeEach(iterations, 200, (i) => {
      const r = request(i);
      pageSql.all(r.status, r.pageSize, (r.pageNum - 1) * r.pageSize);
      countSql.get(r.status);
      statisticsSql.all();
    }),
  );
  raw.close();
  dir.cleanup();

  figure('ledger_page_and_counts_ipc_p50', ipc.p50, 'ms');
  figure('ledger_page_and_counts_ipc_p95', ipc.p95, 'ms');
  figure('ledger_page_and_counts_floor_p50', floor.p50, 'ms');
  figure('ledger_page_and_counts_floor_p95', floor.p95, 'ms');
  figure('ledger_page_and_counts_p95_vs_floor', ipc.p95 / floor.p95, 'x', 2);
  figure('ledger_page_and_counts_p95_target', 10, 'ms');
  figure('ledger_page_and_counts_vs_floor_target', 2, 'x');
  figure('ledger_page_1000_pending_edits_ipc_p50', pending.p50, 'ms');
  figure('ledger_page_1000_pending_edits_ipc_p95', pending.p95, 'ms');
  figure('ledger_page_1000_pending_edits_p95_vs_floor', pending.p95 / floor.p95, 'x', 2);
}

/** Ledger page plus header counts through a real core's IPC handler, timed. */
async function timeLedgerIpc(dataDir: string, request: (i: number) => LedgerContractPageRequest) {
  const core = benchCore(dataDir);
  const samples = await timeEach(iterations, 200, async (i) => {
    const [page, counts] = await Promise.all([core.invoke('ledger.contractPage', request(i)), core.invoke('ledger.contractStatistics', {})]);
    if (!page.ok || !counts.ok) throw new Error(`ledger call failed: ${JSON.stringify(page.ok ? counts : page)}`);
  });
  await core.close();
  return summarize(samples);
}
