import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { preparedUpsert } from '../../src-main/core/data/prepared-upsert';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { contracts, ledgerScenes } from '../../src-main/core/data/schema';
import { pulledRow } from '../../src-main/core/contracts/contract-rows';
import { clientMigrationsDir } from '../../src-main/paths';
import { makeContract } from '../support/contracts';

// The prepared upsert pulls write with must store what the query builder stored: the same
// columns, JSON and boolean modes mapped by each column, and every column replaced on conflict.

describe('preparedUpsert', () => {
  let replica: OpenReplica;
  beforeEach(() => {
    replica = openReplica(':memory:', clientMigrationsDir);
  });
  afterEach(() => replica.close());

  it('writes a row as the query builder does, JSON and boolean columns included, and replaces it on conflict', () => {
    const scene = { id: 's1', name: 'Due this month', isDefault: true, isSystem: false, performanceId: null, filterIds: ['a', 'b'], titleIds: ['name'], filters: [{ id: 'a', op: 'in', value: [1, 2] }], sortField: { id: 'name', key: -1 as const }, sortOrder: 3, version: 1, updateTime: '2026-11-24T00:00:00Z' };
    const upsert = preparedUpsert(replica.sqlite, ledgerScenes);
    upsert(scene);
    expect(replica.db.select().from(ledgerScenes).where(eq(ledgerScenes.id, 's1')).get()).toEqual(scene);
    const raw = replica.sqlite.prepare('select is_default, filter_ids from ledger_scenes where id = ?').get('s1');
    expect(raw).toEqual({ is_default: 1, filter_ids: '["a","b"]' });

    const renamed = { ...scene, name: 'Renamed', isDefault: false, filterIds: [], version: 2 };
    upsert(renamed);
    expect(replica.db.select().from(ledgerScenes).all()).toEqual([renamed]);
  });

  it('stores a pulled contract exactly as the builder-made insert stored it', () => {
    const row = pulledRow(makeContract(7, { formValues: { clause: '甲方应付款', amount: 12.5 } }));
    preparedUpsert(replica.sqlite, contracts)(row);
    const viaUpsert = replica.db.select().from(contracts).where(eq(contracts.id, row.id)).get();
    replica.db.delete(contracts).run();
    replica.db.insert(contracts).values(row).run();
    expect(viaUpsert).toEqual(replica.db.select().from(contracts).where(eq(contracts.id, row.id)).get());
  });
});
