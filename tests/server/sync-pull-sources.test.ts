import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { SyncChange } from '../../src-shared/api/sync';
import { feedSources } from '../../src-server/sync/feed-sources';
import { defaultSyncHistory, pullChanges, sourcesByFirstChange } from '../../src-server/sync/pull';
import { seedDatabase } from '../../src-server/index';
import { describeOnDatabases, syncVersions } from './support';

// A page asks only the sources with a change in it, earliest first. Before, the first source
// (contracts) was read in full on every page: a first sync of tasks read, and dropped, up to
// 5,000 contracts edited since on each of its pages.

it('orders the sources by their first change and leaves out those with none', () => {
  const firsts = feedSources.map(() => null as string | null);
  firsts[0] = '900';
  firsts[2] = '100';
  firsts[5] = '500';
  expect(sourcesByFirstChange(firsts)).toEqual([
    { source: feedSources[2], first: 100n },
    { source: feedSources[5], first: 500n },
    { source: feedSources[0], first: 900n },
  ]);
  expect(sourcesByFirstChange(feedSources.map(() => null))).toEqual([]);
});

describeOnDatabases('a page of the feed reads the sources it takes from', (fixture) => {
  const admin = { id: 'nobody-in-particular', role: 'admin' as const, departmentId: null };
  const edited = 12;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 20, seed: 9 });
    // Contracts edited after their tasks were written: their changes sort after every task's.
    await fixture.db.execute(sql`update contracts set name = name || ' (edited)', version = version + 1 where id in (select id from contracts order by id limit ${edited})`);
  });

  afterEach(() => vi.restoreAllMocks());

  it('does not read the contracts edited since on the pages of tasks before them, and the feed is whole', async () => {
    const contractSource = feedSources[0]!;
    let contractsRead = 0;
    const original = contractSource.page.bind(contractSource);
    vi.spyOn(contractSource, 'page').mockImplementation(async (...args) => {
      const rows = await original(...args);
      contractsRead += rows.length;
      return rows;
    });

    const changes: SyncChange[] = [];
    let pages = 0;
    const contractChanges = () => changes.filter((change) => change.entity === 'contract');
    const deadline = Date.now() + 30_000;
    for (let cursor = '0'; ; pages += 1) {
      const page = await pullChanges(fixture.db, admin, { ...syncVersions, cursor, limit: 10, maxBytes: 16 * 1024 * 1024 }, new Date(), defaultSyncHistory);
      changes.push(...page.changes);
      cursor = page.cursor;
      if (page.hasMore) continue;
      // The feed serves changes below the oldest transaction still running on the server (another
      // test file's, on the same PostgreSQL): the rest come on a later pull, as a client's next one.
      if (contractChanges().length >= 20 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const contracts = contractChanges();
    expect(contracts).toHaveLength(20);
    expect(new Set(changes.map((change) => (change.op === 'delete' ? change.id : JSON.stringify(change.row)))).size).toBe(changes.length);
    expect(changes.filter((change) => change.entity === 'performanceTask').length).toBeGreaterThan(40);
    expect(pages).toBeGreaterThan(8);
    // Each contract once, plus what the first page of each run of contracts reads past its end
    // before any bound is known (at most a page and one). Reading every source in full on each
    // page read 141 here.
    expect(contractsRead).toBeLessThanOrEqual(20 + 2 * 11);
  });
});
