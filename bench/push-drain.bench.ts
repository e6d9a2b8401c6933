import { asc, count, inArray, like } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope } from '../src-shared/api/sync';
import { editableStatuses } from '../src-shared/rules/contract-status';
import { contracts } from '../src-server/db/schema';
import { buildContractServer, demoUsers, openDatabase, seedDatabase } from '../src-server/index';
import { figure } from './stats';
import { freshDatabase, reachablePostgres } from './support';

// Focused push-drain bench (issue 4, "1,000 queued offline edits drained ≤ 10 s"): the server's
// side alone, 1,000 contract.update mutations pushed in batches of 200 (the desktop's batch size)
// to an in-process server on a scratch PostgreSQL database, then the same batches replayed.
// `npx tsx bench/push-drain.bench.ts`.

const edits = 1000;
const batchSize = 200;

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
    const mutations: MutationEnvelope[] = targets.map((c, i) => ({
      id: uuidv7(), seq: i + 1, name: 'contract.update', args: { id: c.id, patch: { name: `drained ${i}` } }, baseVersions: { [`contract:${c.id}`]: c.version },
    }));
    const pushAll = async () => {
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
    const drained = await pushAll();
    const replayed = await pushAll();
    const [applied] = await handle.db.select({ n: count() }).from(contracts).where(like(contracts.name, 'drained %'));
    figure('push_drain_mutations', edits, `mutations in batches of ${batchSize}`);
    figure('push_drain_total', drained / 1000, 's');
    figure('push_drain_per_mutation', drained / edits, 'ms');
    figure('push_drain_replay_total', replayed / 1000, 's');
    figure('push_drain_applied_rows', applied?.n ?? 0, 'rows');
    await app.close();
  } finally {
    await handle.close();
  }
}

await main();
