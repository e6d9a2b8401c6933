import { and, asc, count, eq, like, notExists } from 'drizzle-orm';
import { loadavg } from 'node:os';
import { v7 as uuidv7 } from 'uuid';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope } from '../src-shared/api/sync';
import { ContractStatus } from '../src-shared/domain/enums';
import { planRows } from '../src-shared/rules/fulfilment';
import { contracts } from '../src-server/db/schema';
import { performancePlans, performances, performanceTasks } from '../src-server/performance/schema';
import { toPerformance } from '../src-server/performance/definition';
import { buildContractServer, demoUsers, openDatabase, seedDatabase } from '../src-server/index';
import { figure } from './stats';
import { databaseCpuSeconds, freshDatabase, reachablePostgres } from './support';

// The server's side of issue 28's "1,000 queued plan creations drained ≤ 10 s": 1,000
// performance.createPlan mutations (a 12-month payment schedule each, on approved contracts
// without a plan) pushed in the desktop's batches of 200 to an in-process server on a scratch
// PostgreSQL database. `npx tsx bench/plan-push.bench.ts`; the whole drain is `npm run bench:sync`.

const plans = Number(process.env.BENCH_PLANS ?? 1000);
const batchSize = 200;

async function main(): Promise<void> {
  const postgres = await reachablePostgres();
  if (!postgres) {
    console.log('# plan-push bench skipped: no PostgreSQL answers (set BENCH_DATABASE_URL)');
    return;
  }
  const databaseUrl = await freshDatabase(postgres, 'contract_desk_bench_plan_push');
  const handle = await openDatabase({ databaseUrl });
  try {
    await seedDatabase(handle.db, { contracts: 8000, seed: 1 });
    const app = buildContractServer(handle.db);
    const admin = demoUsers.find((u) => u.username === 'admin')!;
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: admin.username, password: admin.password } });
    const token = (login.json() as { data: { token: string } }).data.token;
    const [row] = await handle.db.select().from(performances).where(eq(performances.type, 'payment')).limit(1);
    if (!row) throw new Error('the seed has no payment performance');
    const performance = toPerformance(row);
    const targets = await handle.db
      .select({ id: contracts.id })
      .from(contracts)
      .where(and(eq(contracts.status, ContractStatus.Approved), notExists(handle.db.select().from(performancePlans).where(and(eq(performancePlans.contractId, contracts.id), eq(performancePlans.performanceId, row.id))))))
      .orderBy(asc(contracts.id))
      .limit(plans);
    if (targets.length < plans) throw new Error(`only ${targets.length} approved contracts without a plan`);
    const schedule = { cycle: 'month', startDate: '2027-01-01', endDate: '2027-12-31', amount: { amount: 1_200_000, unit: 'CNY' }, direction: 'payable', name: 'Bench rent' } as const;
    const rowsPerPlan = planRows({ conditionType: 2, schedule, rows: [] }).length;
    const shown = { name: performance.name, type: performance.type, columns: performance.columns, fields: performance.fields };
    const clientId = uuidv7();
    const mutations: MutationEnvelope[] = targets.map((c, i) => ({
      id: uuidv7(),
      seq: i + 1,
      name: 'performance.createPlan',
      args: { planId: uuidv7(), performanceId: row.id, performance: shown, plan: { contractID: c.id, conditionType: 2, schedule, scheduleTaskIds: Array.from({ length: rowsPerPlan }, () => uuidv7()), rows: [] } },
      baseVersions: {},
      createdAt: new Date().toISOString(),
    }));
    const started = performance_now();
    const cpuBefore = process.cpuUsage();
    const databaseBefore = await databaseCpuSeconds(databaseUrl);
    for (let at = 0; at < mutations.length; at += batchSize) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/sync/push',
        headers: { authorization: `Bearer ${token}` },
        payload: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations: mutations.slice(at, at + batchSize) },
      });
      if (response.statusCode !== 200) throw new Error(`push failed: ${response.body}`);
      const { results } = (response.json() as { data: { results: { status: string; error?: unknown }[] } }).data;
      const refused = results.find((r) => r.status !== 'applied');
      if (refused) throw new Error(`a plan was not applied: ${JSON.stringify(refused)}`);
    }
    const elapsed = performance_now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const databaseCpu = (await databaseCpuSeconds(databaseUrl)) - databaseBefore;
    const [tasks] = await handle.db.select({ n: count() }).from(performanceTasks).where(like(performanceTasks.name, 'Bench rent%'));
    figure('plan_push_plans', plans, `plans of ${rowsPerPlan} rows in batches of ${batchSize}`);
    figure('plan_push_total', elapsed / 1000, 's');
    figure('plan_push_per_plan', elapsed / plans, 'ms');
    figure('plan_push_tasks', tasks?.n ?? 0, 'tasks');
    // Where the time goes on a shared machine: the server's own CPU, and PostgreSQL's (the database's backends, from /proc).
    figure('plan_push_server_cpu', (cpu.user + cpu.system) / 1e6, 's');
    figure('plan_push_database_cpu', databaseCpu, 's');
    console.log(`# load average: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
    await app.close();
  } finally {
    await handle.close();
  }
}

const performance_now = () => performance.now();

await main();
