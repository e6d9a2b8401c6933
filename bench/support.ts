import { spawn, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import pg from 'pg';
import { createCore, type Core, type CoreOptions } from '../src-main/core/core';
import type { OpenReplica } from '../src-main/core/data/replica';
import type { ReplicaWriter } from '../src-main/core/data/replica-sync';
import { searchIndexBuilder } from '../src-main/core/search/index-builder';
import { figure } from './stats';
import { clientMigrationsDir, repoRoot } from '../src-main/paths';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The PostgreSQL benches use when one answers (BENCH_DATABASE_URL, else the local default). */
export async function reachablePostgres(): Promise<string | null> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const url = new URL(base);
  const open = await new Promise<boolean>((resolve) => {
    const socket = new Socket();
    socket.setTimeout(1000);
    socket.once('connect', () => resolve(true)).once('error', () => resolve(false)).once('timeout', () => resolve(false));
    socket.connect(Number(url.port || 5432), url.hostname);
  }).catch(() => false);
  return open ? base : null;
}

/** A fresh, empty database named `name` beside the one in `adminUrl`. */
export async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const tsxNode = (script: string, args: string[], env: Record<string, string>, nodeFlags: string[] = []) =>
  spawn(process.execPath, [...nodeFlags, '--import', 'tsx', join(repoRoot, script), ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });

/**
 * The flags `npm run server` starts the server with (package.json): a young generation of 64 MB, so a
 * feed's short-lived rows are collected cheaply. BENCH_PROF=<dir> also writes the server's CPU profile there.
 */
const serverNodeFlags = ['--max-semi-space-size=64', ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [])];

/** Seeds demo data in a child process (`npm run seed`), keeping this process's memory clean. */
export function seedInChild(contracts: number, env: Record<string, string>, args: string[] = []): Promise<string> {
  const child = tsxNode('src-server/seed/cli.ts', ['--contracts', String(contracts), '--seed', '1', ...args], env);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(output.trim()) : reject(new Error(`seeding failed (${code}): ${output}`)))),
  );
}

/** The contract server in a child process, so this process's memory is the core's alone. */
export async function spawnContractServer(env: Record<string, string>, args: string[] = []): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = tsxNode('src-server/cli.ts', ['--port', '0', ...args], env, serverNodeFlags);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening at (http:\/\/[\w.:[\]-]+)/i.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the contract server exited with ${code}`)));
  });
  child.stdout!.resume();
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A core over a bench's replica, as the browser edition opens it: no periodic sync during the
 * timing, and only errors logged (when `logErrors`), so the figures are the calls' own. The
 * replica stays plain (the floors read the same file) unless `keys` are given: what encryption
 * costs is bench/encryption.bench.ts's.
 */
export function benchCore(dataDir: string, logErrors = false, options: Pick<CoreOptions, 'keys'> = { keys: null }): Core {
  return createCore({
    ...options,
    dataDir,
    migrationsDir: clientMigrationsDir,
    host: 'web',
    version: 'bench',
    systemLocale: 'en-US',
    syncIntervalMs: 3_600_000,
    logger: { info: () => undefined, warn: () => undefined, error: logErrors ? (...args: unknown[]) => console.error(...args) : () => undefined },
  });
}

/**
 * Ends a bench's fill as the sync engine ends a first sync (the work it set aside: task upkeep,
 * indexes, statistics) and builds the full-text index the core would build after it, so nothing
 * of the first sync runs beside the timings. Prints how long each took under `name`.
 */
export function settleFirstSync(replica: OpenReplica, writer: ReplicaWriter, name: string): void {
  const finishStart = performance.now();
  writer.finishPull();
  figure(`${name}_first_sync_finish`, (performance.now() - finishStart) / 1000, 's');
  const buildStart = performance.now();
  const builder = searchIndexBuilder(replica.sqlite);
  while (builder.step(500) > 0);
  builder.finish();
  figure(`${name}_full_text_index_build`, (performance.now() - buildStart) / 1000, 's');
}

/** CPU seconds a process has used so far, every thread (Linux /proc); -1 where it cannot be read. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return -1;
  }
}

/**
 * CPU seconds so far of the PostgreSQL backends connected to `databaseUrl`'s database: on a
 * machine shared with other users of the same PostgreSQL, theirs are not counted (nor the
 * server-wide WAL writer and checkpointer). Read before and after a timing, with the connections
 * kept open in between (a backend that ends between the readings takes its seconds with it).
 */
export async function databaseCpuSeconds(databaseUrl: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    return rows.reduce((sum, { pid }) => sum + Math.max(0, processCpuSeconds(pid)), 0);
  } finally {
    await db.end();
  }
}
