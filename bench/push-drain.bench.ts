import { asc, count, inArray, like } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope } from '../src-shared/api/sync';
import { editableStatuses } from '../src-shared/rules/contract-status';
import { contracts } from '../src-server/db/schema';
import { buildContractServer, demoUsers, openDatabase, seedDatabase } from '../src-server/index';
import { auditTimer } from '../src-server/audit/timing';
import { figure, load } from './stats';
import { freshDatabase, reachablePostgres } from './support';

// Focused push-drain bench (issue 4, "1,000 queued offline edits drained ≤ 10 s"): the server's
// side alone, 1,000 contract.update mutations pushed in batches of 200 (the desktop's batch size)
// to an in-process server on a scratch PostgreSQL database, then the same batches replayed; and
// the audit trail's share of the drain (issue 32: at most 10 %), measured in the same drains.
// `npx tsx bench/push-drain.bench.ts` (BENCH_ROUNDS drains, default 5; medians).

const edits = 1000;
const batchSize = 200;
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const postgres = await reachablePostgres();
  if (!postgres) {
    console.log('# push-drain bench skipped: no PostgreSQL answers (set BENCH_DATABASE_URL)');
    return;
  }
  const handle = await openDatabase({ databaseUrl: await freshDatabase(postgres, 'contract_desk_bench_push') });
  try {
    await seedDatabase(handle.db, { contracts: 6000, seed: 1 });
    const app = buildContractServer(handle.db);
    const admin = demoUsers.find((u) => u.username === 'admin')!;
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: admin.username, password: admin.password } });
    const token = (login.json() as { data: { token: string } }).data.token;
    const targets = await handle.db.select({ id: contracts.id, version: contracts.version })
      .from(contracts)
      // Only drafts and rejected contracts may be edited.
      .where(inArray(contracts.status, editableStatuses.filter((s) => s !== null)))
      .orderBy(asc(contracts.id))
      .limit(edits);
    if (targets.length < edits) throw new Error(`only ${targets.length} editable contracts`);
    const clientId = uuidv7();
    let seq = 0;
    const mutationsOf = async (round: number): Promise<MutationEnvelope[]> => {
      const versions = new Map((await handle.db.select({ id: contracts.id, version: contracts.version }).from(contracts).where(inArray(contracts.id, targets.map((c) => c.id)))).map((c) => [c.id, c.version]));
      return targets.map((c, i) => ({
        id: uuidv7(), seq: (seq += 1), name: 'contract.update', args: { id: c.id, patch: { name: `drained ${i} (${round})` } }, baseVersions: { [`contract:${c.id}`]: versions.get(c.id)! },
      }));
    };
    const pushAll = async (mutations: readonly MutationEnvelope[]) => {
      const started = performance.now();
      for (let at = 0; at < mutations.length; at += batchSize) {
        const response = await app.inject({
          method: 'POST', url: '/api/v1/sync/push', headers: { authorization: `Bearer ${token}` },
          payload: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations: mutations.slice(at, at + batchSize) },
        });
        if (response.statusCode !== 200) throw new Error(`push failed: ${response.body}`);
        const { results } = (response.json() as { data: { results: { status: string }[] } }).data;
        if (results.some((r) => r.status !== 'applied')) throw new Error('a mutation was not applied');
      }
      return performance.now() - started;
    };
    // Each round drains 1,000 new edits of the same contracts, timing the audit trail's own steps
    // in it (the rows read before and after each edit, the events built, hashed and appended;
    // src-server/audit/timing.ts): the drain without them is the rest of the same run.
    const drains: number[] = [];
    const audits: number[] = [];
    let mutations: MutationEnvelope[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      mutations = await mutationsOf(round);
      let audit = 0;
      auditTimer.spent = (milliseconds) => void (audit += milliseconds);
      drains.push(await pushAll(mutations));
      delete auditTimer.spent;
      audits.push(audit);
    }
    const replayed = await pushAll(mutations);
    const [applied] = await handle.db.select({ n: count() }).from(contracts).where(like(contracts.name, `drained % (${rounds})`));
    const costs = drains.map((drained, i) => (audits[i]! / (drained - audits[i]!)) * 100);
    const drained = median(drains);
    load('push_drain');
    figure('push_drain_mutations', edits, `mutations in batches of ${batchSize}`);
    figure('push_drain_rounds', rounds, 'rounds (medians below)');
    figure('push_drain_total', drained / 1000, 's');
    figure('push_drain_per_mutation', drained / edits, 'ms');
    figure('push_drain_audit_share', median(audits) / 1000, 's');
    figure('push_drain_replay_total', replayed / 1000, 's');
    figure('push_drain_applied_rows', applied?.n ?? 0, 'rows');
    console.log(`audit_cost_drain_1000: ${median(costs).toFixed(1)} % (rounds: ${costs.map((cost) => cost.toFixed(1)).join(', ')})`);
    console.log('audit_cost_drain_1000_target: 10 %');
    await app.close();
  } finally {
    await handle.close();
  }
}

await main();
