import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createCore } from '../src-main/core/core';
import { openReplica } from '../src-main/core/data/replica';
import { replicaWriter } from '../src-main/core/data/replica-sync';
import { replicaFeatures } from '../src-main/core/features';
import { fileSecretStore } from '../src-main/core/files';
import { replicaPathFor } from '../src-main/core/session/session-service';
import { clientMigrationsDir } from '../src-main/paths';
import type { SyncChange } from '../src-shared/api/sync';
import { TaskState } from '../src-shared/domain/enums';
import { addDays, boardRange } from '../src-shared/rules/dashboard';
import { organisationDay } from '../src-shared/rules/performance';
import { contractId, makeContract, makeTask } from '../tests/support/contracts';
import { tempDir } from '../tests/support/temp';
import { figure, seededRandom, summarize, timeEach } from './stats';

// Issue 13 target: with 50,000 contracts and 200,000 tasks in the replica, the dashboard's counts
// (this month) plus the month board, through the real IPC handlers: p95 <= 10 ms and <= 2x the
// same queries on raw better-sqlite3 (the floor). Due dates spread over two years around today.

const contractCount = 50_000;
const taskCount = 200_000;
const iterations = 300;
const serverUrl = 'http://127.0.0.1:9';
const user = { id: 'bench-user', username: 'bench', displayName: 'Bench', role: 'admin' as const, departmentId: null, departmentName: null };
const states = [TaskState.NotStarted, TaskState.InProgress, TaskState.Overdue, TaskState.Success, TaskState.Incomplete] as const;

export async function benchDashboardReplica(): Promise<void> {
  const dir = tempDir('contract-desk-bench-dashboard-');
  const random = seededRandom(13);
  const today = organisationDay(new Date());
  const replicaPath = replicaPathFor(dir.path, serverUrl, user.id);
  const replica = openReplica(replicaPath, clientMigrationsDir);
  const writer = replicaWriter(replica, replicaFeatures);
  const contracts: SyncChange[] = Array.from({ length: contractCount }, (_, i) => ({ entity: 'contract', op: 'upsert', row: makeContract(i) }));
  for (let i = 0; i < contracts.length; i += 1000) writer.applyPulledChanges(contracts.slice(i, i + 1000), String(i + 1000), new Date().toISOString());
  const tasks: SyncChange[] = Array.from({ length: taskCount }, (_, i) => ({
    entity: 'performanceTask',
    op: 'upsert',
    row: makeTask(i, {
      contractId: random() < 0.02 ? null : contractId(Math.floor(random() * contractCount)),
      type: random() < 0.5 ? 'receivable' : 'payable',
      state: states[Math.floor(random() * states.length)]!,
      expirationTime: addDays(today, Math.floor(random() * 730) - 365),
      leaderUserId: user.id,
    }),
  }));
  const fillStart = performance.now();
  for (let i = 0; i < tasks.length; i += 5000) writer.applyPulledChanges(tasks.slice(i, i + 5000), String(contractCount + i + 5000), new Date().toISOString());
  figure('dashboard_replica_fill_200k_tasks', (performance.now() - fillStart) / 1000, 's');
  replica.close();

  fileSecretStore(join(dir.path, 'session.json')).write(
    JSON.stringify({ serverUrl, user, tokens: { token: 't', refreshToken: 'r', expiresAt: new Date().toISOString() } }),
  );
  const month = boardRange('month', today);
  // The counts' range moves day by day through the last year, as a user picks ranges.
  const countsRange = (i: number) => ({ startDate: addDays(today, -(i % 365)), endDate: addDays(today, 29 - (i % 365)) });

  const core = createCore({
    dataDir: dir.path,
    migrationsDir: clientMigrationsDir,
    host: 'web',
    version: 'bench',
    systemLocale: 'en-US',
    syncIntervalMs: 3_600_000,
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const ipc = summarize(
    await timeEach(iterations, 30, async (i) => {
      const [counts, board] = await Promise.all([core.invoke('performance.statistics', countsRange(i)), core.invoke('performance.board', month)]);
      if (!counts.ok || !board.ok) throw new Error(`dashboard call failed: ${JSON.stringify(counts.ok ? board : counts)}`);
    }),
  );
  await core.close();

  // The floor: the same two reads on raw better-sqlite3, without the outbox, the mapping or IPC.
  const raw = new Database(replicaPath, { readonly: true });
  const countsSql = raw.prepare(
    `select count(*), sum(s in (1, 2)), sum(s = 4), sum(s = 5), sum(s = 3) from (
       select case when state in (1, 2) and expiration_time < ? then 3 else state end as s from performance_tasks where expiration_time between ? and ?)`,
  );
  const totalsSql = raw.prepare('select expiration_time, count(*) as total from performance_tasks where expiration_time between ? and ? group by expiration_time');
  const daySql = raw.prepare(
    `select t.*, c.name, c.counterpart_name from performance_tasks t indexed by performance_tasks_board left join contracts c on c.id = t.contract_id
     where t.expiration_time = ? order by t.name, t.id limit 20`,
  );
  const floor = summarize(
    await timeEach(iterations, 30, (i) => {
      const range = countsRange(i);
      countsSql.get(today, range.startDate, range.endDate);
      for (const { expiration_time: day } of totalsSql.all(month.startDate, month.endDate) as { expiration_time: string }[]) daySql.all(day);
    }),
  );
  raw.close();
  dir.cleanup();

  figure('dashboard_counts_and_month_board_ipc_p50', ipc.p50, 'ms');
  figure('dashboard_counts_and_month_board_ipc_p95', ipc.p95, 'ms');
  figure('dashboard_counts_and_month_board_floor_p50', floor.p50, 'ms');
  figure('dashboard_counts_and_month_board_floor_p95', floor.p95, 'ms');
  figure('dashboard_counts_and_month_board_p95_vs_floor', ipc.p95 / floor.p95, 'x', 2);
  figure('dashboard_counts_and_month_board_p95_target', 10, 'ms');
  figure('dashboard_counts_and_month_board_vs_floor_target', 2, 'x');
}
