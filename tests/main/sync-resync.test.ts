import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractReader } from '../../src-main/core/ledger/contract-ledger';
import { metaReader, replicaWriter } from '../../src-main/core/data/replica-sync';
import { createOutbox, type Outbox } from '../../src-main/core/data/outbox';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { createSyncEngine, type SyncTransport } from '../../src-main/core/sync/sync-engine';
import { clientMigrationsDir } from '../../src-main/paths';
import type { SyncChange, SyncPullResponse } from '../../src-shared/api/sync';
import { AppFailure } from '../../src-shared/errors';
import { ledgerContractPageRequestSchema } from '../../src-shared/ipc/channels';
import { makeContract } from '../support/contracts';
import { ManualTimer } from './sync-fakes';
import { replicaFeatures } from '../../src-main/core/features';

// Long offline (architecture, sync rule 7): the server no longer keeps the changes since our
// cursor and answers must_resync. The replica's base is rebuilt from a full pull, rows the server
// no longer sends go, and the outbox is kept and drained.

const now = () => new Date('2026-11-21T10:00:00Z');
const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const upsert = (row: ReturnType<typeof makeContract>): SyncChange => ({ entity: 'contract', op: 'upsert', row });
const allRows = ledgerContractPageRequestSchema.parse({ pageSize: 50, sort: { field: 'name', order: 'asc' } });

describe('must_resync', () => {
  let replica: OpenReplica;
  let outbox: Outbox;
  beforeEach(() => {
    replica = openReplica(':memory:', clientMigrationsDir);
    outbox = createOutbox(replica, { features: replicaFeatures, clock: { now } });
    replicaWriter(replica, replicaFeatures).applyPulledChanges([1, 2, 3, 4].map((i) => upsert(makeContract(i))), '40', now().toISOString());
  });
  afterEach(() => replica.close());

  it('rebuilds the base from a full pull in pages, keeps and drains the outbox, and drops rows the server no longer sends', async () => {
    const edit = outbox.enqueue('contract.update', { id: makeContract(2).id, patch: { name: 'Edited offline' } });
    const pulls: string[] = [];
    let pushed = 0;
    // The server's state now: contract 4 is gone, contract 1 was renamed elsewhere, 5 is new.
    const pages: SyncPullResponse[] = [
      { changes: [upsert(makeContract(1, { name: 'Renamed elsewhere', version: 2 })), upsert(makeContract(2, { version: 2, name: 'Edited offline' }))], cursor: '90.0', hasMore: true, remaining: 2 },
      { changes: [upsert(makeContract(3)), upsert(makeContract(5))], cursor: '90', hasMore: false, remaining: 0 },
    ];
    const transport: SyncTransport = {
      async push(request) {
        pushed += request.mutations.length;
        return { results: request.mutations.map((m) => ({ id: m.id, status: 'applied' as const, versions: { [`contract:${makeContract(2).id}`]: 2 } })) };
      },
      async pull(cursor) {
        pulls.push(cursor);
        if (cursor === '40') throw new AppFailure('must_resync');
        if (cursor === '0') return pages[0]!;
        // A restart between the pages resumes from the cursor of the first.
        if (cursor === '90.0') return pages[1]!;
        throw new Error(`unexpected cursor ${cursor}`);
      },
    };
    const progress: string[] = [];
    const engine = createSyncEngine({
      outbox, meta: metaReader(replica), writer: replicaWriter(replica, replicaFeatures), transport, timer: new ManualTimer(), logger: silentLogger,
      clientId: '0192f000-0000-7000-8000-000000000001', refreshAuth: async () => undefined, clock: { now },
      onProgress: (p) => progress.push(p.kind),
    });

    // Contract 4 is archived.
    expect(contractReader(replica).statistics()).toMatchObject({ total: 4, archived: 1 });
    expect(await engine.syncNow()).toMatchObject({ phase: 'idle', error: null });
    expect(pulls).toEqual(['40', '0', '90.0']);
    expect(pushed).toBe(1);
    expect(progress).toContain('resync');
    const names = contractReader(replica).page(allRows).list.map((c) => [c.id, c.name]);
    expect(names).toEqual([
      [makeContract(2).id, 'Edited offline'],
      [makeContract(1).id, 'Renamed elsewhere'],
      [makeContract(3).id, makeContract(3).name],
      [makeContract(5).id, makeContract(5).name],
    ]);
    expect(contractReader(replica).statistics().total).toBe(4);
    expect(metaReader(replica).cursor()).toBe('90');
    expect(outbox.status()).toEqual({ queued: 0, oldestQueuedAt: null, problems: [] });
    expect(replica.sqlite.prepare('select count(*) from resync_unseen').pluck().get()).toBe(0);
    expect(edit.id).toBeTruthy();
  });

  it('shows a pending edit throughout a rebuild, even of a row the rebuild has not brought yet', () => {
    outbox.enqueue('contract.update', { id: makeContract(3).id, patch: { name: 'Still mine' } });
    const writer = replicaWriter(replica, replicaFeatures);
    writer.startResync();
    expect(metaReader(replica).cursor()).toBe('0');
    // Mid-way the old base rows stay, so the ledger stays usable.
    writer.applyPulledChanges([upsert(makeContract(1))], '50.0', now().toISOString());
    expect(contractReader(replica).page(allRows).count).toBe(4);
    expect(contractReader(replica).page(allRows).list.find((c) => c.id === makeContract(3).id)?.name).toBe('Still mine');
    writer.applyPulledChanges([upsert(makeContract(3, { version: 1 }))], '50', now().toISOString());
    writer.finishPull();
    const list = contractReader(replica).page(allRows).list;
    expect(list.map((c) => c.id).sort()).toEqual([makeContract(1).id, makeContract(3).id]);
    expect(list.find((c) => c.id === makeContract(3).id)?.name).toBe('Still mine');
    expect(outbox.status().queued).toBe(1);
    expect(contractReader(replica).statistics().total).toBe(2);
  });
});
