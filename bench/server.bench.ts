import autocannon from 'autocannon';
import pg from 'pg';
import { syncProtocolVersion, syncSchemaVersion } from '../src-shared/api/sync';
import type { LedgerSearch } from '../src-shared/domain/ledger';
import { ledgerSearchSchema } from '../src-shared/domain/ledger';
import { openDatabase } from '../src-server/db/database';
import { searchLedger } from '../src-server/ledger/search';
import type { SessionUser } from '../src-server/auth/service';
import { figure, summarize, timeEach } from './stats';
import { freshDatabase, reachablePostgres, seedInChild, spawnContractServer } from './support';

// npm run bench:server: the contract server under load (issue 3, "Performance"). On a scratch
// PostgreSQL database: the demo data's 50,000 contracts plus 200,000 performance records, then
// the ledger search and the sync pull driven over loopback by autocannon with 50 connections,
// and the ledger search query alone, timed directly against its 50 ms p95 target.

const contractCount = Number(process.env.BENCH_CONTRACTS ?? 50_000);
const taskCount = Number(process.env.BENCH_TASKS ?? 200_000);
const loadSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const searchTargetMs = 50;
const databaseName = 'contract_desk_bench_server';

/** Bench-only: performance records for the seeded contracts, generated inside PostgreSQL. */
async function generateTasks(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      insert into performances (id, organisation_id, name, type, sort_order)
      select '01900000-0000-7000-8000-00000000000' || n, (select id from organisations limit 1), name, type, n
      from (values (1, '收款履约 Receipts', 'receivable'), (2, '付款履约 Payments', 'payable'),
                   (3, '开票履约 Invoicing', 'invoicing'), (4, '到期履约 Expirations', 'expiration')) as p(n, name, type)`);
    await client.query(
      `
      with numbered as (
        select id, responsible_user_id, create_time, row_number() over (order by id) - 1 as rn from contracts
      ), kinds as (
        select array['receivable', 'collection', 'payable', 'payment', 'invoicing', 'expiration', 'recall'] as types
      )
      insert into performance_tasks (id, organisation_id, contract_id, performance_id, name, type, state, row_index,
        expiration_time, receivable_amount, payable_amount, amount_unit, leader_user_id, create_time, update_time)
      select '01900000-0000-7000-9000-' || lpad(to_hex(g), 12, '0'),
        (select id from organisations limit 1), c.id,
        '01900000-0000-7000-8000-00000000000' || (g % 4 + 1),
        '第' || (g / $2::int + 1) || '期 ' || kinds.types[g % 7 + 1] || ' #' || g,
        kinds.types[g % 7 + 1], (g % 5) + 1, g / $2::int + 1,
        date '2026-11-01' + ((g * 37) % 730 - 365),
        case when g % 7 < 2 then (g * 7919) % 100000000 end,
        case when g % 7 in (2, 3) then (g * 6007) % 100000000 end,
        case when g % 7 < 4 then 'CNY' end,
        c.responsible_user_id, c.create_time, c.create_time + ((g % 97) * interval '1 day')
      from generate_series(0, $1::int - 1) as g
      cross join kinds
      join numbered c on c.rn = g % $2::int`,
      [taskCount, contractCount],
    );
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

/** The bodies the load cycles through, each also timed alone. */
const variants: [string, LedgerSearch][] = [
  ['plain', ledgerSearchSchema.parse({})],
  ['word', ledgerSearchSchema.parse({ q: '#12345' })],
  ['money_range', ledgerSearchSchema.parse({ filterList: [{ id: 'receivableAmount', type: 'money', condition: { gte: 1_000_000, lte: 50_000_000 } }] })],
  ['due_sort_page_3', ledgerSearchSchema.parse({ sortField: { id: 'expirationTime', key: 1 }, pageNum: 3 })],
  ['state_in_performance', ledgerSearchSchema.parse({ filterList: [{ id: 'taskState', type: 'select', condition: { in: [3] } }], performanceId: '01900000-0000-7000-8000-000000000001' })],
];
const searches = variants.map(([, body]) => body);

async function signIn(url: string, username: string, password: string): Promise<{ token: string; user: SessionUser }> {
  const response = await fetch(`${url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const body = (await response.json()) as { data: { token: string; user: SessionUser } };
  return { token: body.data.token, user: body.data.user };
}

/** Drives `requests` with 50 connections for the load period; latencies from every response. */
async function load(name: string, url: string, token: string, requests: autocannon.Request[]): Promise<void> {
  const samples: number[] = [];
  let failures = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const options = { url, connections, duration: loadSeconds, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, requests };
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode !== 200) failures += 1;
      samples.push(responseTime);
    });
  });
  const latency = summarize(samples);
  figure(`${name}_requests_per_second`, result.requests.average, 'req/s', 1);
  figure(`${name}_p50`, latency.p50, 'ms');
  figure(`${name}_p95`, latency.p95, 'ms');
  figure(`${name}_p99`, latency.p99, 'ms');
  figure(`${name}_non_2xx`, failures + result.errors, 'responses');
}

export async function benchServer(): Promise<void> {
  const postgres = await reachablePostgres();
  if (!postgres) {
    console.log('# bench:server skipped: no PostgreSQL answers (set BENCH_DATABASE_URL)');
    return;
  }
  const databaseUrl = await freshDatabase(postgres, databaseName);
  try {
    const env = { DATABASE_URL: databaseUrl };
    console.log(`# ${await seedInChild(contractCount, env)}`);
    const started = performance.now();
    await generateTasks(databaseUrl);
    figure('bench_tasks_generated', taskCount, 'tasks');
    figure('bench_tasks_generate_time', (performance.now() - started) / 1000, 's', 1);

    const server = await spawnContractServer(env);
    try {
      const admin = await signIn(server.url, 'admin', 'admin123');
      const alice = await signIn(server.url, 'alice', 'alice123');
      const searchRequests = searches.map((body) => ({ method: 'POST' as const, path: '/api/v1/performances/search', body: JSON.stringify(body) }));
      const pullPath = `/api/v1/sync/pull?cursor=0&limit=100&protocolVersion=${syncProtocolVersion}&schemaVersion=${syncSchemaVersion}`;
      await load('ledger_search_admin', server.url, admin.token, searchRequests);
      await load('ledger_search_staff', server.url, alice.token, searchRequests);
      await load('sync_pull_admin', server.url, admin.token, [{ method: 'GET', path: pullPath }]);
      await load('sync_pull_staff', server.url, alice.token, [{ method: 'GET', path: pullPath }]);

      const handle = await openDatabase({ databaseUrl });
      try {
        for (const [name, user] of [['admin', admin.user], ['staff', alice.user]] as const) {
          const all: number[] = [];
          for (const [variant, body] of variants) {
            const samples = await timeEach(100, 10, () => searchLedger(handle.db, user, body));
            all.push(...samples);
            figure(`ledger_search_direct_${name}_${variant}_p95`, summarize(samples).p95, 'ms');
          }
          const latency = summarize(all);
          figure(`ledger_search_direct_${name}_p50`, latency.p50, 'ms');
          figure(`ledger_search_direct_${name}_p95`, latency.p95, 'ms');
          figure(`ledger_search_direct_${name}_p95_vs_target`, latency.p95 / searchTargetMs, `× of ${searchTargetMs} ms`);
        }
      } finally {
        await handle.close();
      }
    } finally {
      await server.stop();
    }
  } finally {
    // BENCH_KEEP_DATABASE=1 keeps the data for EXPLAIN ANALYZE.
    if (!process.env.BENCH_KEEP_DATABASE) await dropDatabase(postgres);
  }
}

async function dropDatabase(postgres: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgres });
  await client.connect();
  await client.query(`drop database if exists ${databaseName} with (force)`);
  await client.end();
}

await benchServer();
