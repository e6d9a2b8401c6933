import { availableParallelism, loadavg } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { syncProtocolVersion, syncSchemaVersion } from '../src-shared/api/sync';
import type { LedgerSearch } from '../src-shared/domain/ledger';
import { ledgerSearchSchema } from '../src-shared/domain/ledger';
import { organisationDay } from '../src-shared/rules/performance';
import { openDatabase } from '../src-server/db/database';
import { searchLedger } from '../src-server/ledger/search';
import type { SessionUser } from '../src-server/auth/service';
import { figure, summarize, timeEach } from './stats';
import { freshDatabase, reachablePostgres, seedInChild, spawnContractServer } from './support';

// npm run bench:server: the contract server under load (issue 3, "Performance"). On a scratch
// PostgreSQL database holding the demo data alone (`npm run seed -- --contracts 50000`: 50,000
// contracts and their 200,408 performance records), the ledger search and the sync pull driven
// over loopback by autocannon with 50 connections, and the ledger search query alone, timed
// directly against its 50 ms p95 target.

const contractCount = Number(process.env.BENCH_CONTRACTS ?? 50_000);
const loadSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const searchTargetMs = 50;
const pullLimit = 100;
const databaseName = 'contract_desk_bench_server';

const loadAverage = () => loadavg().map((n) => n.toFixed(2)).join(' ');

/**
 * Settles the freshly seeded database as autovacuum would in time (planner statistics, the
 * visibility map that index-only counts rely on), and picks the seeded performance with the most
 * records for the state-within-a-performance body.
 */
async function settleSeed(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('vacuum analyze');
    const { rows } = await client.query<{ id: string }>('select performance_id as id from performance_tasks where performance_id is not null group by 1 order by count(*) desc limit 1');
    if (!rows[0]) throw new Error('the seed wrote no performance records');
    return rows[0].id;
  } finally {
    await client.end();
  }
}

/** The bodies the load cycles through, each also timed alone. */
function searchVariants(performanceId: string): [string, LedgerSearch][] {
  return [
    ['plain', ledgerSearchSchema.parse({})],
    ['word', ledgerSearchSchema.parse({ q: '#12345' })],
    ['money_range', ledgerSearchSchema.parse({ filterList: [{ id: 'receivableAmount', type: 'money', condition: { gte: 1_000_000, lte: 50_000_000 } }] })],
    ['due_sort_page_3', ledgerSearchSchema.parse({ sortField: { id: 'expirationTime', key: 1 }, pageNum: 3 })],
    ['state_in_performance', ledgerSearchSchema.parse({ filterList: [{ id: 'taskState', type: 'select', condition: { in: [3] } }], performanceId })],
  ];
}

const pullPath = (cursor: string) =>
  `/api/v1/sync/pull?cursor=${cursor}&limit=${pullLimit}&protocolVersion=${syncProtocolVersion}&schemaVersion=${syncSchemaVersion}`;

/**
 * Pulls that walk the feed as clients do: each request continues a pull session from its last
 * cursor, and a session caught up starts again at 0. A connection takes a free session for each
 * request (autocannon resets its own per-connection context after every request of a one-request
 * list), so at most one request per session is under way.
 */
interface PullSession {
  cursor: string;
}

function walkingPulls(): autocannon.Request {
  const free: PullSession[] = [];
  const sessionOf = (context: object) => context as { session: PullSession };
  return {
    method: 'GET',
    setupRequest: (request, context) => {
      const session = free.pop() ?? { cursor: '0' };
      sessionOf(context).session = session;
      return { ...request, path: pullPath(session.cursor) };
    },
    onResponse: (status, body, context) => {
      const { session } = sessionOf(context);
      if (status === 200) {
        const page = (JSON.parse(body) as { data: { cursor: string; hasMore: boolean } }).data;
        session.cursor = page.hasMore ? page.cursor : '0';
      }
      free.push(session);
    },
  };
}

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
  // Apart: answers other than 200, and requests autocannon gave up on after its 10 s timeout.
  figure(`${name}_non_2xx`, failures, 'responses');
  figure(`${name}_timeouts`, result.timeouts, 'requests');
  figure(`${name}_errors`, result.errors - result.timeouts, 'requests');
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
    const variants = searchVariants(await settleSeed(databaseUrl));

    const server = await spawnContractServer(env);
    try {
      const admin = await signIn(server.url, 'admin', 'admin123');
      const alice = await signIn(server.url, 'alice', 'alice123');
      const searchRequests = variants.map(([, body]) => ({ method: 'POST' as const, path: '/api/v1/performances/search', body: JSON.stringify(body) }));
      console.log(`# load average before the load: ${loadAverage()} on ${availableParallelism()} CPUs`);
      await load('ledger_search_admin', server.url, admin.token, searchRequests);
      await load('ledger_search_staff', server.url, alice.token, searchRequests);
      // A pull's first page (it counts what remains) over and over, then pulls that walk the feed.
      await load('sync_pull_first_page_admin', server.url, admin.token, [{ method: 'GET', path: pullPath('0') }]);
      await load('sync_pull_first_page_staff', server.url, alice.token, [{ method: 'GET', path: pullPath('0') }]);
      await load('sync_pull_admin', server.url, admin.token, [walkingPulls()]);
      await load('sync_pull_staff', server.url, alice.token, [walkingPulls()]);
      console.log(`# load average after the load: ${loadAverage()}`);

      const handle = await openDatabase({ databaseUrl });
      try {
        console.log(`# load average before the direct timings: ${loadAverage()}`);
        for (const [name, user] of [['admin', admin.user], ['staff', alice.user]] as const) {
          const all: number[] = [];
          for (const [variant, body] of variants) {
            const samples = await timeEach(100, 10, () => searchLedger(handle.db, user, body, organisationDay(new Date())));
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
