import { mkdtemp, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { envelopeSchema, errorEnvelopeSchema, type ErrorEnvelope } from '../../src-shared/api/envelope';
import { endpoints, type EndpointName, type EndpointResponse } from '../../src-shared/api/endpoints';
import { syncProtocolVersion, syncSchemaVersion, type ContractChange, type SyncChange } from '../../src-shared/api/sync';
import { buildContractServer, openDatabase, type ContractServerOptions, type DatabaseHandle, type ServerDb } from '../../src-server/index';
import { ensureUserScenes } from '../../src-server/ledger/scenes';

// Every server suite runs twice: on PGlite in a temporary directory, and on a fresh, uniquely
// named PostgreSQL database (dropped afterwards) when one answers at TEST_DATABASE_URL.

const postgresUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const postgresAvailable = await answers(postgresUrl);
const shownUrl = (() => {
  const url = new URL(postgresUrl);
  url.password = '';
  return url.toString();
})();

/** A database created for one suite, and the way to remove it again. */
export interface Scratch {
  options: { dataDir: string } | { databaseUrl: string };
  remove(): Promise<void>;
}

async function scratchPglite(): Promise<Scratch> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'contract-server-test-'));
  return { options: { dataDir }, remove: () => rm(dataDir, { recursive: true, force: true }) };
}

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function scratchPostgres(): Promise<Scratch> {
  const name = `contract_server_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    options: { databaseUrl: url.toString() },
    remove: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

/** A settable clock, so tests can expire tokens and rate-limit windows without waiting. */
export class TestClock {
  private current = Date.now();
  readonly now = () => new Date(this.current);
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface DatabaseFixture {
  readonly kind: 'PGlite' | 'PostgreSQL';
  readonly handle: DatabaseHandle;
  /** Closes the database and opens it again (which runs the migrations again). */
  reopen(): Promise<void>;
  readonly db: ServerDb;
  /** A server on the suite's database, driven with `inject`; closed after the suite. */
  server(clock?: TestClock, options?: Omit<ContractServerOptions, 'now'>): FastifyInstance;
}

/**
 * The two backends every suite runs on; `create` makes a fresh, empty database. While working
 * on one feature, `TEST_BACKENDS=PostgreSQL` (or `PGlite`) runs only that one; CI runs both.
 */
const chosenBackends = process.env.TEST_BACKENDS?.split(',').map((name) => name.trim().toLowerCase());
export const backends = [
  { kind: 'PGlite' as const, available: true, create: scratchPglite },
  { kind: 'PostgreSQL' as const, available: postgresAvailable, create: scratchPostgres },
].filter((backend) => !chosenBackends || chosenBackends.includes(backend.kind.toLowerCase()));

export const postgresSkipMessage = `PostgreSQL variant skipped: no PostgreSQL answers at ${shownUrl} (set TEST_DATABASE_URL)`;

/** Declares `suite` once per database backend; each run gets its own fresh, migrated database. */
export function describeOnDatabases(title: string, suite: (fixture: DatabaseFixture) => void): void {
  for (const backend of backends) {
    describe(`${title} [${backend.kind}]`, () => {
      if (!backend.available) {
        it.skip(postgresSkipMessage);
        return;
      }
      let scratch: Scratch | undefined;
      let handle: DatabaseHandle | undefined;
      const servers: FastifyInstance[] = [];
      const fixture: DatabaseFixture = {
        kind: backend.kind,
        get handle() {
          if (!handle) throw new Error('the database is not open yet');
          return handle;
        },
        get db() {
          return this.handle.db;
        },
        async reopen() {
          await handle?.close();
          handle = undefined;
          handle = await openDatabase(scratch!.options);
        },
        server(clock = new TestClock(), options = {}) {
          const app = buildContractServer(this.db, { ...options, now: clock.now });
          servers.push(app);
          databaseOf.set(app, this.db);
          return app;
        },
      };
      beforeAll(async () => {
        scratch = await backend.create();
        handle = await openDatabase(scratch.options);
      });
      afterAll(async () => {
        await Promise.all(servers.map((app) => app.close()));
        await handle?.close();
        await scratch?.remove();
      });
      suite(fixture);
    });
  }
}

export interface CallOptions {
  token?: string;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Sent as is, for malformed payloads. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** The client's address as the server sees it (default 127.0.0.1). */
  remoteAddress?: string;
}

export interface CallResult {
  status: number;
  json: unknown;
  headers: Record<string, unknown>;
}

export async function call(app: FastifyInstance, method: string, url: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.rawBody !== undefined || options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = options.rawBody ?? JSON.stringify(options.body);
  }
  const query = options.query ? Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)])) : undefined;
  const response = await app.inject({ method: method as 'GET', url, query, headers, payload, remoteAddress: options.remoteAddress });
  return { status: response.statusCode, json: response.json(), headers: response.headers };
}

/** Calls a named endpoint of the shared map. */
export function callEndpoint(app: FastifyInstance, name: EndpointName, options: CallOptions = {}): Promise<CallResult> {
  const endpoint = endpoints[name];
  return call(app, endpoint.method, endpoint.path, options);
}

/** Asserts a 200 success envelope and returns `data`, checked against the endpoint's shared schema. */
export function okData<N extends EndpointName>(name: N, result: CallResult): EndpointResponse<N> {
  expect(result.status, JSON.stringify(result.json)).toBe(200);
  const schema: z.ZodType = endpoints[name].response;
  return envelopeSchema(schema).parse(result.json).data as EndpointResponse<N>;
}

/** Asserts an error envelope with this status and code, and returns it. */
export function failure(result: CallResult, status: number, code: ErrorEnvelope['code']): ErrorEnvelope {
  expect(result.status, JSON.stringify(result.json)).toBe(status);
  const envelope = errorEnvelopeSchema.parse(result.json);
  expect(envelope.code).toBe(code);
  return envelope;
}

export async function signIn(app: FastifyInstance, username: string, password: string) {
  return okData('login', await callEndpoint(app, 'login', { body: { username, password } }));
}

/** Raw SQL for the checks the query builder cannot express; both drivers answer with `rows`. */
export async function queryRows<T>(db: ServerDb, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Every page of the contract list, in order, for the given filters. */
export async function listAllContracts(app: FastifyInstance, token: string, filters: { status?: number; q?: string } = {}) {
  const rows: EndpointResponse<'contractList'>['list'] = [];
  for (let pageNum = 1; ; pageNum++) {
    const page = okData('contractList', await callEndpoint(app, 'contractList', { token, query: { ...filters, pageNum, pageSize: 100 } }));
    rows.push(...page.list);
    if (page.list.length < 100) return { rows, count: page.count };
  }
}

/** The contracts a pull page upserts, in order. */
/** The contract changes among a feed's changes (tasks and reminder settings left out). */
export function contractChanges(changes: readonly SyncChange[]): ContractChange[] {
  return changes.flatMap((change) => (change.entity === 'contract' ? [change] : []));
}

/** The contracts a page brings. */
export function upsertedRows(page: EndpointResponse<'syncPull'>) {
  return contractChanges(page.changes).flatMap((change) => (change.op === 'upsert' ? [change.row] : []));
}

/**
 * Empties the task, plan and reminder-settings parts of the feed of a seeded database (TRUNCATE
 * fires no row triggers, so no tombstones), for suites that count the contract feed's pages exactly.
 */
export async function contractsOnlyFeed(db: ServerDb): Promise<void> {
  await db.execute(sql`truncate performance_tasks, performance_task_tombstones, performance_plans, performance_plan_tombstones, reminder_settings cascade`);
  // A first pull makes the user's system scenes (src-server/app.ts): made now, and kept below every cursor.
  const users = await queryRows<{ id: string; organisationId: string }>(db, sql`select id, organisation_id as "organisationId" from users`);
  for (const user of users) await ensureUserScenes(db, user);
  await db.execute(sql`alter table ledger_scenes disable trigger user`);
  await db.execute(sql`update ledger_scenes set change_seq = 0`);
  await db.execute(sql`alter table ledger_scenes enable trigger user`);
}

/** The database behind each test server, so pulls can wait for the feed to settle. */
const databaseOf = new WeakMap<FastifyInstance, ServerDb>();

/**
 * Waits until every transaction that began before this call has ended. The feed serves a change
 * only once all older transactions of the whole PostgreSQL cluster have ended (src-server/sync/pull.ts),
 * and test files running in parallel on the same cluster hold transactions open meanwhile.
 */
export async function settledFeed(db: ServerDb, timeoutMs = 30_000): Promise<void> {
  const [mark] = await queryRows<{ xid: string }>(db, sql`select pg_current_xact_id()::text as xid`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [state] = await queryRows<{ xmin: string }>(db, sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`);
    if (BigInt(state!.xmin) > BigInt(mark!.xid)) return;
    if (Date.now() > deadline) throw new Error('a transaction of the cluster stayed open too long for the feed to settle');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Pulls from `cursor` until the server says there is no more, checking each page's bookkeeping.
 * It first lets the feed settle, so it sees every change committed before the call.
 */
export async function pullAll(app: FastifyInstance, token: string, limit: number, cursor = '0') {
  const db = databaseOf.get(app);
  if (db) await settledFeed(db);
  const pages: EndpointResponse<'syncPull'>[] = [];
  for (;;) {
    const query = { cursor, limit, protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion };
    const page = okData('syncPull', await callEndpoint(app, 'syncPull', { token, query }));
    pages.push(page);
    cursor = page.cursor;
    if (!page.hasMore) return { pages, cursor, rows: pages.flatMap(upsertedRows) };
    if (pages.length > 10_000) throw new Error('the pull never ends');
  }
}

/** The protocol and schema versions every sync request names. */
export const syncVersions = { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion };

/** A sync route's URL with the versions and `query` in its query string. */
export const syncUrl = (path: string, query: Record<string, string | number>) =>
  `${path}?${new URLSearchParams(Object.entries({ ...syncVersions, ...query }).map(([k, v]) => [k, String(v)])).toString()}`;

/** Decoders of the content codings sync bodies travel in. */
export const bodyDecoders = { br: promisify(zlib.brotliDecompress), gzip: promisify(zlib.gunzip), deflate: promisify(zlib.inflate) };
