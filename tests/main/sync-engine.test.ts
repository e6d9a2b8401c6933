import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { metaReader, replicaWriter } from '../../src-main/core/data/replica-sync';
import { createOutbox, type Outbox } from '../../src-main/core/data/outbox';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { createSyncEngine, type SyncEngine } from '../../src-main/core/sync/sync-engine';
import { contractServerTransport } from '../../src-main/core/sync/transport';
import { clientMigrationsDir } from '../../src-main/paths';
import { FakeServer, FaultyTransport, ManualTimer } from './sync-fakes';
import { replicaFeatures } from '../../src-main/core/features';
import { contractId } from '../support/contracts';

const now = () => new Date('2026-11-21T10:00:00Z');
const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('sync engine', () => {
  let replica: OpenReplica;
  let outbox: Outbox;
  let server: FakeServer;
  let transport: FaultyTransport;
  let timer: ManualTimer;
  let engine: SyncEngine;

  beforeEach(() => {
    replica = openReplica(':memory:', clientMigrationsDir);
    outbox = createOutbox(replica, { features: replicaFeatures, clock: { now } });
    server = new FakeServer();
    transport = new FaultyTransport(server);
    timer = new ManualTimer();
    engine = createSyncEngine({
      outbox, meta: metaReader(replica), writer: replicaWriter(replica, replicaFeatures), transport, timer, logger: silentLogger,
      clientId: '0192f000-0000-7000-8000-000000000001', refreshAuth: () => transport.refresh(), clock: { now },
      random: () => 0, baseBackoffMs: 1000, maxBackoffMs: 8000, soonMs: 300, intervalMs: 60_000,
    });
  });
  afterEach(() => replica.close());

  const delays = () => [...timer.due.values()].map((d) => d.ms);

  it('backs off exponentially on network errors, 5xx and 429, capped, then syncs at the interval', async () => {
    // The edited contract is in the replica (an edit of one it lacks is refused at once).
    await engine.syncNow();
    transport.pullFaults = ['drop', '5xx', 'drop', 'drop', 'drop'];
    transport.pushFaults = ['429'];
    outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'Offline edit' } });
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      await (i === 0 ? engine.syncNow() : timer.fireAll());
      seen.push(...delays());
    }
    // With no jitter drawn, each wait is half its ceiling: 1 s, 2 s, 4 s, 8 s (the cap).
    expect(seen).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    await timer.fireAll();
    expect(engine.state()).toMatchObject({ phase: 'idle', failures: 0 });
    expect(delays()).toEqual([60_000]);
    expect(outbox.status().queued).toBe(0);
  });

  it('pauses on a 401 whose refresh is refused, keeps the queue, and drains after sign-in', async () => {
    await engine.syncNow();
    transport.pushFaults = ['401-refused'];
    outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'Kept' } });
    expect(await engine.syncNow()).toMatchObject({ phase: 'paused', error: { code: 'unauthorized' } });
    expect(await engine.syncNow()).toMatchObject({ phase: 'paused' });
    expect(outbox.status().queued).toBe(1);
    // No timer while paused: only a sign-in resumes.
    expect(delays()).toEqual([]);
    transport.refreshRefused = false;
    expect(await engine.resume()).toMatchObject({ phase: 'idle' });
    expect(outbox.status().queued).toBe(0);
    expect(server.rows.get(contractId(1))?.name).toBe('Kept');
  });

  it('retries once after a 401 when the refresh succeeds', async () => {
    await engine.syncNow();
    transport.pushFaults = ['401'];
    outbox.enqueue('contract.update', { id: contractId(1), patch: { name: 'After refresh' } });
    expect(await engine.syncNow()).toMatchObject({ phase: 'idle' });
    expect(server.rows.get(contractId(1))?.name).toBe('After refresh');
  });

  it('treats a push or pull answer that does not match the protocol as a server error, and goes on later', async () => {
    transport.pullFaults = ['garbage'];
    expect(await engine.syncNow()).toMatchObject({ phase: 'backoff', error: { code: 'server_error', message: expect.stringMatching(/pull answer does not match/) } });
    expect(metaReader(replica).cursor()).toBe('0');
    await timer.fireAll();
    expect(engine.state().phase).toBe('idle');
  });

  it('backs off instead of resending at once when a push answer settles none of the mutations sent', async () => {
    await engine.syncNow();
    for (const id of [contractId(1), contractId(2)]) outbox.enqueue('contract.update', { id, patch: { name: 'Waiting' } });
    transport.pushFaults = ['garbage'];
    const push = transport.push.bind(transport);
    transport.push = async (request) => ((await push(request)) && { results: [] }) as never;
    expect(await engine.syncNow()).toMatchObject({ phase: 'backoff', error: { message: expect.stringMatching(/push answer does not match/) } });
    expect(replica.sqlite.prepare('select attempts from outbox').pluck().all()).toEqual([1, 1]);
    transport.push = push;
    await timer.fireAll();
    expect(outbox.status()).toMatchObject({ queued: 0, problems: [] });
  });

  it('pushes shortly after a local edit', async () => {
    await engine.syncNow();
    outbox.enqueue('contract.update', { id: contractId(2), patch: { name: 'Soon' } });
    engine.edited();
    expect(delays()).toEqual([300]);
    await timer.fireAll();
    expect(server.rows.get(contractId(2))?.name).toBe('Soon');
  });
  it('asks for the next page while it writes the current one, and stores only the pages it wrote', async () => {
    const meta = metaReader(replica);
    const asked: { cursor: string; stored: string }[] = [];
    const pull = transport.pull.bind(transport);
    transport.pull = (cursor: string) => {
      asked.push({ cursor, stored: meta.cursor() });
      return pull(cursor);
    };
    expect(await engine.syncNow()).toMatchObject({ phase: 'idle' });
    // Pages of two: each later page was asked before the page before it was written.
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const [i, ask] of asked.entries()) if (i > 0) expect(ask.stored).toBe(asked[i - 1]!.cursor);

    // A write that fails stops the pull: the page read ahead is dropped, the stored cursor is the
    // last page written, and the next round resumes from there.
    server.editElsewhere(1, 'name', 'First');
    server.editElsewhere(2, 'name', 'Second');
    server.editElsewhere(3, 'name', 'Third');
    const before = meta.cursor();
    const failing = replicaWriter(replica, replicaFeatures);
    let writes = 0;
    const broken = createSyncEngine({
      outbox, meta, transport, timer, logger: silentLogger, clientId: '0192f000-0000-7000-8000-000000000001',
      refreshAuth: () => transport.refresh(), clock: { now }, random: () => 0, baseBackoffMs: 1000, maxBackoffMs: 8000, soonMs: 300, intervalMs: 60_000,
      writer: { ...failing, applyPulledChanges: (...args) => (++writes === 1 ? failing.applyPulledChanges(...args) : (() => { throw new Error('disk full'); })()) },
    });
    expect(await broken.syncNow()).toMatchObject({ phase: 'backoff' });
    expect(meta.cursor()).not.toBe(before);
    const afterFirstPage = meta.cursor();
    expect(await engine.syncNow()).toMatchObject({ phase: 'idle' });
    expect(asked.some((ask) => ask.cursor === afterFirstPage)).toBe(true);
    expect(replica.sqlite.prepare('select name from contracts where id = ?').pluck().get(contractId(3))).toBe('Third');
  });
});

describe('contract-server transport', () => {
  it('sends pushes to POST /api/v1/sync/push with the token read at send time', async () => {
    const sent: { url: string; auth: string | null; body: unknown }[] = [];
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      sent.push({ url: String(url), auth: new Headers(init?.headers).get('authorization'), body: JSON.parse(String(init?.body)) });
      return new Response(JSON.stringify({ code: 'ok', message: 'ok', data: { results: [] } }), { headers: { 'content-type': 'application/json' } });
    };
    let token = 'first';
    const transport = contractServerTransport({ client: createContractServerClient('http://server', { fetch: fetch as typeof globalThis.fetch }), token: () => token });
    const request = { protocolVersion: 1, schemaVersion: 1, clientId: '0192f000-0000-7000-8000-000000000001', mutations: [] };
    await transport.push(request);
    token = 'second';
    await transport.push(request);
    expect(sent.map((s) => [s.url, s.auth])).toEqual([
      ['http://server/api/v1/sync/push', 'Bearer first'],
      ['http://server/api/v1/sync/push', 'Bearer second'],
    ]);
    expect(sent[0]?.body).toEqual(request);
  });

});
