import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncContract } from '../../src-shared/api/sync';
import { fullTextPageSchema, fullTextSearchRequestSchema } from '../../src-shared/ipc/archive';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { createEventHub } from '../../src-main/core/events';
import { replicaFeatures } from '../../src-main/core/features';
import { createSearchFeature } from '../../src-main/core/search';
import type { ActiveSession } from '../../src-main/core/session/session-service';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';

// A search while the index of a first sync is still being built (issue 14): its results miss the
// contracts not yet indexed, so it says how far the index is; once whole, it says nothing more.

describe('full-text search while the index is built', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });
  /** The search feature over the replica, with an event hub to play the sync's status, and its search of pages of `pageSize`. */
  const searchFeature = (pageSize: 10 | 20 | 50) => {
    const hub = createEventHub();
    const session = { replica } as unknown as ActiveSession;
    const feature = createSearchFeature({
      hub,
      clock: { now: () => new Date() },
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      signedIn: () => session,
      sync: () => {
        throw new Error('no sync here');
      },
    } as unknown as Parameters<typeof createSearchFeature>[0]);
    const search = (q: string) => fullTextPageSchema.parse(feature.handlers['search.fullText'](fullTextSearchRequestSchema.parse({ q, pageSize })));
    return { hub, session, feature, search };
  };

  it('reports the contracts indexed and all there are until the build ends, and finds them all after', async () => {
    const { hub, session, feature, search } = searchFeature(50);

    // A first sync into the empty replica is writing its pages: the index stands aside.
    const writer = replicaWriter(replica, replicaFeatures);
    const page = (from: number, count: number, cursor: string) =>
      writer.applyPulledChanges(
        Array.from({ length: count }, (_, i): { entity: 'contract'; op: 'upsert'; row: SyncContract } => ({ entity: 'contract', op: 'upsert', row: makeContract(from + i, { name: `Harbour lease ${from + i}` }) })),
        cursor,
        '2026-11-21T10:00:00.000Z',
      );
    // Signed in on an empty replica: the index is whole (nothing to index) until the first sync writes.
    feature.start!(session);
    await nextTurn();
    expect(search('Harbour').indexing).toBeNull();
    page(0, 600, '600');
    expect(search('Harbour')).toMatchObject({ count: 0, indexing: { indexed: 0, total: 600 } });

    page(600, 700, '1300');
    writer.finishPull();
    expect(search('Harbour').indexing).toEqual({ indexed: 0, total: 1300 });
    // The sync settles: the build starts, 500 contracts a step, a step per turn of the event loop.
    hub.emit('sync.statusChanged', { phase: 'idle' } as never);
    const midway = search('Harbour');
    expect(midway.indexing).toEqual({ indexed: 500, total: 1300 });
    expect(midway.count).toBe(500);
    // Both full-text indexes merge their segments 16 at a time while the build runs, 4 (FTS5's default) after it.
    const automerge = () =>
      ['contract_search', 'contract_search_bigrams'].map((table) => replica.sqlite.prepare(`select v from ${table}_config where k = 'automerge'`).pluck().get());
    expect(automerge()).toEqual([16, 16]);
    for (let turn = 0; turn < 20 && search('Harbour').indexing !== null; turn += 1) await nextTurn();
    const done = search('Harbour');
    expect(done.indexing).toBeNull();
    expect(automerge()).toEqual([4, 4]);
    expect(done.count).toBe(1000);
    expect(done.more).toBe(true);
    expect(search('lease 1299').list.map((hit) => hit.contractId)).toContain(contractId(1299));

    // Every contract leaves the replica, and a pull from the start brings others (lower ids than
    // those indexed before): a first sync into an empty replica again, indexed whole once it ends.
    writer.applyPulledChanges(
      Array.from({ length: 1300 }, (_, i) => ({ entity: 'contract' as const, op: 'delete' as const, id: contractId(i) })),
      '1400',
      '2026-11-21T10:00:00.000Z',
    );
    writer.finishPull();
    writer.startResync();
    writer.applyPulledChanges([{ entity: 'contract', op: 'upsert', row: makeContract(7, { name: 'Quarry lease' }) }], '1', '2026-11-21T10:00:00.000Z');
    expect(search('Quarry').indexing).toEqual({ indexed: 0, total: 1 });
    writer.finishPull();
    hub.emit('sync.statusChanged', { phase: 'idle' } as never);
    for (let turn = 0; turn < 20 && search('Quarry').indexing !== null; turn += 1) await nextTurn();
    expect(search('Quarry')).toMatchObject({ count: 1, indexing: null });
    feature.stop!();
  });

  it('reports the build after a first sync no search saw', async () => {
    const { hub, session, feature, search } = searchFeature(10);
    feature.start!(session);
    await nextTurn();
    const writer = replicaWriter(replica, replicaFeatures);
    hub.emit('sync.statusChanged', { phase: 'pulling', firstSync: true } as never);
    writer.applyPulledChanges(Array.from({ length: 1200 }, (_, i) => ({ entity: 'contract' as const, op: 'upsert' as const, row: makeContract(i) })), '1200', '2026-11-21T10:00:00.000Z');
    writer.finishPull();
    hub.emit('sync.statusChanged', { phase: 'idle', firstSync: false } as never);
    expect(search('Contract').indexing).toEqual({ indexed: 500, total: 1200 });
    for (let turn = 0; turn < 20 && search('Contract').indexing !== null; turn += 1) await nextTurn();
    expect(search('Contract').indexing).toBeNull();
    feature.stop!();
  });

  it('leaves a whole index to its triggers: an edit or a pull that is no first sync starts no build', async () => {
    const { hub, session, feature, search } = searchFeature(10);
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges(Array.from({ length: 30 }, (_, i) => ({ entity: 'contract' as const, op: 'upsert' as const, row: makeContract(i, { name: `Harbour lease ${i}` }) })), '30', '2026-11-21T10:00:00.000Z');
    writer.finishPull();
    feature.start!(session);
    for (let turn = 0; turn < 20 && search('Harbour').indexing !== null; turn += 1) await nextTurn();
    expect(search('Harbour')).toMatchObject({ count: 30, indexing: null });
    // An entry gone from the index behind the triggers' back shows whether a build looked again.
    replica.sqlite.prepare(`delete from search_rows where contract_id = ?`).run(contractId(3));
    const missing = () => replica.sqlite.prepare(`select count(*) from search_rows`).pluck().get();
    hub.emit('sync.statusChanged', { phase: 'idle', firstSync: false } as never);
    for (let turn = 0; turn < 5; turn += 1) await nextTurn();
    expect(missing()).toBe(29);
    // A first sync (or a rebuild) is what leaves rows to the build.
    hub.emit('sync.statusChanged', { phase: 'pulling', firstSync: true } as never);
    hub.emit('sync.statusChanged', { phase: 'idle', firstSync: false } as never);
    for (let turn = 0; turn < 20 && missing() !== 30; turn += 1) await nextTurn();
    expect(missing()).toBe(30);
    feature.stop!();
  });
});
