import { openKeptReplica } from '../support/replica-file';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, reachablePostgres, seedInChild, spawnContractServer } from '../../bench/support';
import { tempDir } from '../support/temp';
import { waitFor } from '../support/core';
import { CoreChild, pendingIn, replicaFile } from './core-child';
import { noFaults, startFaultProxy, type FaultProxy } from './fault-proxy';
import { linkProfiles } from './link-shape';

// Black-box fault tests (issue 4): the real contract server on PostgreSQL in a child process, the
// main core in another (killed with SIGKILL mid-push and mid-pull), a loopback proxy between them
// that refuses, drops, delays and cuts connections, and a server restarted mid-drain. After each
// fault: every edit reached the server exactly once, nothing was lost, the replica matches.

const contracts = 300;
const postgres = await reachablePostgres();
let env: Record<string, string> = {};
let server: Awaited<ReturnType<typeof spawnContractServer>>;
let proxy: FaultProxy;
let db: pg.Client;

function clientIdOf(dataDir: string): string {
  const replica = openKeptReplica(replicaFile(dataDir), { readonly: true });
  const id = replica.prepare("select value from replica_meta where key = 'client_id'").pluck().get() as string;
  replica.close();
  return id;
}

/** A signed-in core with everything pulled, and the ids and versions of the contracts it will edit. */
async function syncedCore(dir: string) {
  const core = new CoreChild(dir, proxy.url);
  await core.call('session.signIn', { serverUrl: proxy.url, username: 'admin', password: 'admin123' });
  await core.drained();
  const list = [];
  for (let pageNum = 1; pageNum <= 6; pageNum += 1) list.push(...(await core.call('ledger.contractPage', { pageSize: 50, pageNum })).list);
  return { core, list };
}

/** Queues one edit per contract while the proxy refuses connections (offline). */
async function queueOffline(core: CoreChild, ids: string[], tag: string) {
  proxy.faults = { ...noFaults, refuse: true };
  // A kept-alive connection would still carry pushes: offline means none is left open.
  proxy.cutAll();
  for (const [i, id] of ids.entries()) await core.call('contract.update', { id, patch: { name: `${tag} ${i}` } });
  expect((await core.call('sync.status', {})).queued).toBe(ids.length);
}

/** Each edit took effect on the server exactly once: its name, one version up, one processed mutation each. */
async function expectAppliedOnce(list: { id: string; version: number }[], tag: string, clientId: string) {
  const { rows } = await db.query<{ id: string; name: string; version: number }>('select id, name, version from contracts where id = any($1)', [list.map((c) => c.id)]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  list.forEach((contract, i) => expect(byId.get(contract.id)).toMatchObject({ name: `${tag} ${i}`, version: contract.version + 1 }));
  const processed = await db.query<{ n: string }>('select count(*) n from processed_mutations where client_id = $1 and name = $2', [clientId, 'contract.update']);
  return Number(processed.rows[0]!.n);
}

async function appliedCount(clientId: string): Promise<number> {
  const processed = await db.query<{ n: string }>('select count(*) n from processed_mutations where client_id = $1', [clientId]);
  return Number(processed.rows[0]!.n);
}

describe.skipIf(!postgres)('sync under faults (contract server on PostgreSQL, core in a child process)', () => {
  const dirs: ReturnType<typeof tempDir>[] = [];
  const newDir = () => {
    const dir = tempDir('contract-desk-fault-');
    dirs.push(dir);
    return dir.path;
  };

  beforeAll(async () => {
    env = { DATABASE_URL: await freshDatabase(postgres!, 'contract_desk_sync_fault') };
    await seedInChild(contracts, env);
    server = await spawnContractServer(env);
    proxy = await startFaultProxy(Number(new URL(server.url).port));
    db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    // Every contract a draft: only drafts may still be edited, and these tests edit hundreds.
    await db.query('update contracts set status = 1');
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await proxy?.close();
    await server?.stop();
    for (const dir of dirs) dir.cleanup();
  });

  it('kill -9 of the core mid-push: after a restart every edit is applied exactly once', async () => {
    const dir = newDir();
    const { core, list } = await syncedCore(dir);
    const edited = list.slice(0, 120);
    await queueOffline(core, edited.map((c) => c.id), 'Push kill');
    // The server applies the batch, but its answer never arrives: the kill lands between the two.
    proxy.faults = { ...noFaults, answersLost: true };
    await waitFor(() => (core.status?.phase === 'pushing' ? true : undefined));
    await waitFor(async () => ((await appliedCount(clientIdOf(dir))) === edited.length ? true : undefined), 60_000);
    await core.kill9();
    proxy.faults = { ...noFaults };
    // Killed before it recorded the server's answer: the edits are still queued in the replica.
    expect(pendingIn(dir)).toBe(edited.length);

    const restarted = new CoreChild(dir, proxy.url);
    await restarted.call('sync.now', {});
    const status = await restarted.drained();
    expect(status.problems).toEqual([]);
    expect(await expectAppliedOnce(edited, 'Push kill', clientIdOf(dir))).toBe(edited.length);
    const page = await restarted.call('ledger.contractPage', { pageSize: 50, sort: { field: 'name', order: 'asc' }, q: 'Push kill' });
    expect(page.count).toBe(edited.length);
    await restarted.stop();
  }, 180_000);

  it('kill -9 of the core mid-pull: the first sync resumes from its last page and ends complete', async () => {
    const dir = newDir();
    const core = new CoreChild(dir, proxy.url, 20);
    proxy.faults = { ...noFaults, delayMs: 40 };
    await core.call('session.signIn', { serverUrl: proxy.url, username: 'admin', password: 'admin123' });
    await waitFor(() => ((core.status?.pulled ?? 0) >= 60 && core.status?.phase === 'pulling' ? true : undefined), 60_000);
    await core.kill9();
    proxy.faults = { ...noFaults };

    const restarted = new CoreChild(dir, proxy.url, 20);
    const status = await restarted.drained();
    expect(status.firstSync).toBe(false);
    // Resumed, not started over: the restarted core pulled only what was left.
    // Resumed, not begun again: fewer changes than the whole feed (contracts, tasks, settings).
    const whole = await db.query<{ n: string }>(
      'select (select count(*) from contracts) + (select count(*) from performance_tasks) + (select count(*) from performance_plans) + (select count(*) from reminder_settings) as n',
    );
    expect(status.pulled).toBeLessThan(Number(whole.rows[0]!.n));
    expect((await restarted.call('ledger.contractStatistics', {})).total).toBe(contracts);
    await restarted.stop();
  }, 180_000);

  it('a server restarted mid-drain (kill -9, new process) loses nothing and applies nothing twice', async () => {
    const dir = newDir();
    const { core, list } = await syncedCore(dir);
    const edited = list.slice(120, 240);
    await queueOffline(core, edited.map((c) => c.id), 'Server restart');
    // A row lock held here stops the server's push transaction half-way through the batch, so
    // the kill lands mid-drain however fast the machine is.
    const blocker = new pg.Client({ connectionString: env.DATABASE_URL });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select 1 from contracts where id = $1 for update', [edited[60]!.id]);
    proxy.faults = { ...noFaults };
    await waitFor(() => (core.status?.phase === 'pushing' ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGKILL');
    await new Promise((resolve) => server.child.once('exit', resolve));
    await blocker.query('rollback');
    await blocker.end();
    const before = await db.query<{ n: string }>('select count(*) n from processed_mutations where client_id = $1', [clientIdOf(dir)]);
    expect(Number(before.rows[0]!.n)).toBeLessThan(edited.length);
    proxy.cutAll();
    server = await spawnContractServer(env);
    proxy.retarget(Number(new URL(server.url).port));

    const status = await core.drained();
    expect(status.problems).toEqual([]);
    expect(await expectAppliedOnce(edited, 'Server restart', clientIdOf(dir))).toBe(edited.length);
    await core.stop();
  }, 180_000);

  it('a proxy that drops, delays and cuts connections: the queue still drains exactly once', async () => {
    const dir = newDir();
    const { core, list } = await syncedCore(dir);
    const edited = list.slice(240, 300);
    await queueOffline(core, edited.map((c) => c.id), 'Lossy');
    proxy.faults = { ...noFaults, dropRate: 0.3, delayMs: 15, cutAfterBytes: 6000 };
    // A cut mid-request or mid-answer fails the push; the retries after a backoff carry the same ids.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    proxy.faults = { ...noFaults, dropRate: 0.2, delayMs: 5 };
    await core.call('sync.now', {});
    const status = await core.drained();
    expect(status.problems).toEqual([]);
    expect(await expectAppliedOnce(edited, 'Lossy', clientIdOf(dir))).toBe(edited.length);
    proxy.faults = { ...noFaults };
    await core.stop();
  }, 180_000);

  it('two clients edit the same contract field: one gets a conflict record, nothing is overwritten silently', async () => {
    proxy.faults = { ...noFaults };
    const first = await syncedCore(newDir());
    const second = await syncedCore(newDir());
    const contract = first.list[0]!;
    await first.core.call('contract.update', { id: contract.id, patch: { name: 'First client wins' } });
    await first.core.drained();
    await second.core.call('contract.update', { id: contract.id, patch: { name: 'Second client, stale' } });
    const status = await waitFor(async () => {
      const s = await second.core.call('sync.status', {});
      return s.problems.length > 0 && s.phase === 'idle' ? s : undefined;
    });
    expect(status.problems).toMatchObject([{ state: 'conflict', changes: { name: 'Second client, stale' }, theirs: { name: 'First client wins' } }]);
    const { rows } = await db.query<{ name: string }>('select name from contracts where id = $1', [contract.id]);
    expect(rows[0]!.name).toBe('First client wins');
    await first.core.stop();
    await second.core.stop();
  }, 180_000);

  it('through the poor link: a first sync cut mid-page resumes without starting over, and 200 offline edits drain once', async () => {
    // A first sync on the poor link as it is (its 1 % of cut connections included), for the bytes it takes.
    proxy.faults = { ...noFaults, link: linkProfiles.poor };
    const clean = await syncedCore(newDir());
    await clean.core.stop();
    const traffic = () => proxy.traffic().down;
    const cleanStart = traffic();
    const again = await syncedCore(newDir());
    const cleanBytes = traffic() - cleanStart;
    await again.core.stop();

    // The same first sync, with the link cut while the second page comes in.
    const dir = newDir();
    const core = new CoreChild(dir, proxy.url, 300);
    const start = traffic();
    await core.call('session.signIn', { serverUrl: proxy.url, username: 'admin', password: 'admin123' });
    await waitFor(async () => ((core.status?.pulled ?? 0) > 0 && core.status?.firstSync ? true : undefined), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    proxy.cutAll();
    const synced = await core.drained();
    expect(synced.problems).toEqual([]);
    // Everything arrived once: every contract and task of the server, no more.
    const counts = ['select count(*) n from contracts', 'select count(*) n from performance_tasks where contract_id is not null'];
    const there = await Promise.all(counts.map(async (query) => Number((await db.query<{ n: string }>(query)).rows[0]!.n)));
    const replica = openKeptReplica(replicaFile(dir), { readonly: true });
    expect(counts.map((query) => Number(replica.prepare(query).pluck().get()))).toEqual(there);
    replica.close();
    // Resumed from its cursor: at most the cut page came twice, not the whole feed.
    expect(traffic() - start).toBeLessThan(cleanBytes * 1.6);

    const list = [];
    for (let pageNum = 1; pageNum <= 4; pageNum += 1) list.push(...(await core.call('ledger.contractPage', { pageSize: 50, pageNum })).list);
    const edited = list.slice(0, 200);
    // Offline: the kept-alive connection goes too, not only new ones.
    proxy.faults = { ...noFaults, refuse: true };
    proxy.cutAll();
    await queueOffline(core, edited.map((c) => c.id), 'Poor link');
    proxy.faults = { ...noFaults, link: linkProfiles.poor };
    await core.call('sync.now', {});
    expect((await core.drained()).problems).toEqual([]);
    expect(await expectAppliedOnce(edited, 'Poor link', clientIdOf(dir))).toBe(edited.length);
    proxy.faults = { ...noFaults };
    await core.stop();
  }, 240_000);
});
