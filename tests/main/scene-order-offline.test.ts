import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutbox, type Outbox } from '../../src-main/core/data/outbox';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { readScenes } from '../../src-main/core/ledger/scene-store';
import { clientMigrationsDir } from '../../src-main/paths';
import type { SyncScene } from '../../src-shared/api/sync';
import { tempDir } from '../support/temp';

// The scene tabs keep the order the user sees while scene edits wait offline: a renamed, edited
// or newly default scene stays where it was (one made offline too: replaying its creation must
// not move it after the scenes made since), a reordered list is shown as reordered, and a scene
// made offline comes last, until the next pull brings the server's order.

const pulled = (id: string, name: string, sortOrder: number, extra: Partial<SyncScene> = {}): SyncScene => ({
  id, name, isDefault: false, isSystem: false, performanceId: null, filterIDs: [], titleIDs: ['name'], filter: [], sortField: null, sortOrder, version: 1,
  updateTime: '2026-11-20T10:00:00.000Z', ...extra,
});

describe('scene order with queued edits', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  let outbox: Outbox;
  const names = () => readScenes(replica.db).map((scene) => scene.name);

  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const scenes = [
      pulled('s-all', 'All', 0, { isSystem: true, isDefault: true }),
      pulled('s-mine', 'Mine', 1, { isSystem: true }),
      pulled('s-q1', 'Q1', 2),
      pulled('s-due', 'Due', 3),
    ];
    replicaWriter(replica, replicaFeatures).applyPulledChanges(scenes.map((row) => ({ entity: 'scene' as const, op: 'upsert' as const, row })), '4', '2026-11-20T10:00:00.000Z');
    let n = 0;
    outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(Date.UTC(2026, 10, 21, 10, 0, n)) }, newId: () => `0192f000-0000-7000-8000-${String(++n).padStart(12, '0')}` });
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('keeps a renamed, edited and newly default scene in its place', () => {
    expect(names()).toEqual(['All', 'Mine', 'Q1', 'Due']);
    outbox.enqueue('scene.update', { id: 's-mine', patch: { name: 'Mine, renamed' } });
    outbox.enqueue('scene.update', { id: 's-q1', patch: { titleIDs: ['taskState'] } });
    outbox.enqueue('scene.setDefault', { id: 's-q1' });
    expect(names()).toEqual(['All', 'Mine, renamed', 'Q1', 'Due']);
    expect(readScenes(replica.db).find((scene) => scene.isDefault)?.id).toBe('s-q1');
  });

  it('keeps scenes made offline in the order they were made when one is renamed or made the default', () => {
    const made = (n: number) => `0192f000-0000-7000-8000-0000000000a${n}`;
    const create = (n: number, name: string) => outbox.enqueue('scene.create', { id: made(n), name, titleIDs: [], filterIDs: [], filter: [], sortField: null, performanceId: null });
    create(1, 'First made');
    create(2, 'Second made');
    create(3, 'Third made');
    outbox.enqueue('scene.update', { id: made(1), patch: { name: 'First, renamed' } });
    outbox.enqueue('scene.setDefault', { id: made(2) });
    outbox.enqueue('scene.update', { id: made(1), patch: { filterIDs: ['taskType'] } });
    expect(names()).toEqual(['All', 'Mine', 'Q1', 'Due', 'First, renamed', 'Second made', 'Third made']);
    expect(readScenes(replica.db).find((scene) => scene.isDefault)?.id).toBe(made(2));
  });

  it('shows a reorder, then later edits in the reordered places, and a scene made offline last', () => {
    outbox.enqueue('scene.reorder', { ids: ['s-due', 's-all', 's-mine', 's-q1'] });
    outbox.enqueue('scene.update', { id: 's-all', patch: { name: 'Everything' } });
    outbox.enqueue('scene.create', { id: '0192f000-0000-7000-8000-0000000000aa', name: 'New', titleIDs: [], filterIDs: [], filter: [], sortField: null, performanceId: null });
    outbox.enqueue('scene.setDefault', { id: 's-mine' });
    expect(names()).toEqual(['Due', 'Everything', 'Mine', 'Q1', 'New']);
  });
});
