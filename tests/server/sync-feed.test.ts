import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion, type SyncChange } from '../../src-shared/api/sync';
import { contracts, counterparties, users } from '../../src-server/db/schema';
import { selectContractRows, toSyncContract } from '../../src-server/contracts/repository';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, contractChanges, describeOnDatabases, failure, okData, pullAll, signIn, TestClock } from './support';

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;
const day = 24 * 60 * 60 * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a client holds after applying changes in order. */
function replay(changes: SyncChange[], into = new Map<string, { name: string; version: number }>()) {
  for (const change of contractChanges(changes)) {
    if (change.op === 'delete') into.delete(change.id);
    else into.set(change.row.id, { name: change.row.name, version: change.row.version });
  }
  return into;
}

describeOnDatabases('sync feed: deletes, transfers and the horizon', (fixture) => {
  let app: FastifyInstance;
  const clock = new TestClock();
  const tokens = new Map<string, string>();
  const ids = new Map<string, string>();

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 40, seed: 3 });
    for (const username of ['alice', 'bob']) {
      const [user] = await fixture.db.select().from(users).where(eq(users.username, username));
      ids.set(username, user!.id);
      ids.set(`${username}-department`, user!.departmentId!);
    }
    app = fixture.server(clock, { syncHistory: { tombstoneRetentionDays: 30 } });
    await signInAll();
  });

  async function signInAll() {
    for (const username of ['admin', 'alice', 'bob']) tokens.set(username, (await signIn(app, username, demo(username).password)).token);
  }

  /** Moves the server's clock (the tombstones' age) and signs in again, as tokens expire meanwhile. */
  async function advance(ms: number) {
    clock.advance(ms);
    await signInAll();
  }

  const pull = (username: string, cursor?: string) => pullAll(app, tokens.get(username)!, 7, cursor);
  const changesOf = (pulled: Awaited<ReturnType<typeof pull>>) => pulled.pages.flatMap((p) => p.changes);

  it('sends a contract row as the contract reads: joined names, money, dates, times and nested form values exactly as toSyncContract makes them', async () => {
    const [counterparty] = await fixture.db.select({ id: counterparties.id }).from(counterparties).limit(1);
    const before = await pull('admin');
    const formValues = { b: [1, { c: null, d: 'é' }], a: 1.5, contractName: 'Zahlung "Q1" \\ 合同 \u{1F4B0}\n', long_key_first: true };
    await fixture.db.insert(contracts).values([
      {
        id: 'exact-full', name: 'Zahlung "Q1" \\ 合同 \u{1F4B0}\n', contractNumber: 'HT-1', status: 3, contractTypeName: 'Service', templateName: 'T',
        counterpartyId: counterparty!.id, amount: 9_007_199_254_740_991, amountUnit: 'EUR', responsibleUserId: ids.get('alice')!,
        departmentId: ids.get('alice-department')!, signDate: '0999-02-28', version: 12, contractNumberAuto: true, formValues,
      },
      // Nothing joined, no money, no dates, no status.
      { id: 'exact-bare', name: 'bare', status: null },
    ]);
    // Microseconds, which a JavaScript Date drops.
    await fixture.db.execute(sql`update contracts set create_time = '2026-03-04 05:06:07.891999+00', update_time = '2026-03-04 05:06:07.891999+00' where id in ('exact-full', 'exact-bare')`);
    const sent = contractChanges(changesOf(await pull('admin', before.cursor))).filter((change) => change.op === 'upsert' && change.row.id.startsWith('exact-'));
    const rows = await selectContractRows(fixture.db).where(inArray(contracts.id, ['exact-full', 'exact-bare']));
    expect(sent).toEqual(expect.arrayContaining(rows.map((row) => ({ entity: 'contract', op: 'upsert', row: toSyncContract(row) }))));
    expect(sent).toHaveLength(2);
    expect(sent.find((change) => change.op === 'upsert' && change.row.id === 'exact-full')).toMatchObject({ row: { createTime: '2026-03-04T05:06:07.891Z', amount: { amount: 9_007_199_254_740_991, unit: 'EUR' }, formValues } });
  });

  it('sends a delete to those who saw a deleted contract, and nothing to others', async () => {
    await fixture.db.insert(contracts).values({ id: 'to-delete', name: 'short-lived', responsibleUserId: ids.get('alice')! });
    const [admin, alice, bob] = await Promise.all(['admin', 'alice', 'bob'].map((u) => pull(u)));
    expect(replay(changesOf(alice!)).has('to-delete')).toBe(true);
    await fixture.db.delete(contracts).where(eq(contracts.id, 'to-delete'));
    expect(changesOf(await pull('admin', admin!.cursor))).toEqual([{ entity: 'contract', op: 'delete', id: 'to-delete' }]);
    expect(changesOf(await pull('alice', alice!.cursor))).toEqual([{ entity: 'contract', op: 'delete', id: 'to-delete' }]);
    expect(changesOf(await pull('bob', bob!.cursor))).toEqual([]);
  });

  it('on a transfer, the old owner loses the contract, the new one gets it, and who sees both ends with it', async () => {
    await fixture.db.insert(contracts).values({
      id: 'transferred', name: 'moving', responsibleUserId: ids.get('alice')!, departmentId: ids.get('alice-department')!,
    });
    const before = new Map(await Promise.all(['admin', 'alice', 'bob'].map(async (u) => [u, await pull(u)] as const)));
    await fixture.db
      .update(contracts)
      .set({ responsibleUserId: ids.get('bob')!, departmentId: ids.get('bob-department')! })
      .where(eq(contracts.id, 'transferred'));
    for (const [username, holds] of [['admin', true], ['alice', false], ['bob', true]] as const) {
      const held = replay(changesOf(before.get(username)!));
      const after = replay(changesOf(await pull(username, before.get(username)!.cursor)), held);
      expect(after.has('transferred'), username).toBe(holds);
    }
  });

  it('answers 410 must_resync to a cursor older than the kept tombstones, and serves cursor 0 and newer cursors', async () => {
    const old = await pull('admin');
    const query = (cursor: string) => ({ cursor, limit: 5, protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion });
    const pullOnce = (cursor: string) => callEndpoint(app, 'syncPull', { token: tokens.get('admin')!, query: query(cursor) });
    // A first sync interrupted after one page, to be resumed after the prune.
    const interrupted = okData('syncPull', await pullOnce('0'));
    expect(interrupted.hasMore).toBe(true);
    await fixture.db.insert(contracts).values({ id: 'deleted-long-ago', name: 'gone' });
    await fixture.db.delete(contracts).where(eq(contracts.id, 'deleted-long-ago'));
    const afterDelete = await pull('admin', old.cursor);
    expect(changesOf(afterDelete).at(-1)).toEqual({ entity: 'contract', op: 'delete', id: 'deleted-long-ago' });

    await advance(29 * day);
    await pull('admin', old.cursor);
    await advance(2 * day);
    const resync = failure(await pullOnce(old.cursor), 410, 'must_resync');
    expect(resync.message).toMatch(/downloaded again/);
    failure(await pullOnce(interrupted.cursor), 410, 'must_resync');
    expect((await pull('admin', afterDelete.cursor)).rows).toEqual([]);
    // A first sync after the prune pages through cursors below the pruned tombstones: no resync.
    const fresh = await pull('admin', '0');
    expect(fresh.pages.length).toBeGreaterThan(1);
    expect(fresh.rows.map((r) => r.id)).not.toContain('deleted-long-ago');
    expect(fresh.rows.length).toBe((await fixture.db.select().from(contracts)).length);
  });
});

describeOnDatabases('sync feed under concurrent writers', (fixture) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 30, seed: 4 });
    app = fixture.server();
    token = (await signIn(app, 'admin', demo('admin').password)).token;
  });

  it('a reader pulling all the while gets every change once, nothing skipped or repeated, however commits interleave', async () => {
    // PGlite runs one transaction at a time, so there the property holds trivially; on PostgreSQL
    // the writers overlap: each takes its transaction id with a first write, waits, inserts, waits
    // again and commits, so later transactions commit first and positions commit out of order.
    const seeded = await fixture.db.select({ id: contracts.id }).from(contracts);
    const writers = fixture.kind === 'PostgreSQL' ? 16 : 6;
    const inserted: string[] = [];
    const write = async (w: number) => {
      await sleep((w % 4) * 15);
      await fixture.db.transaction(async (tx) => {
        // Half take their transaction id without a change (so change order differs from id order).
        if (w % 2) await tx.execute(sql`select pg_current_xact_id()`);
        else await tx.update(contracts).set({ name: `touched by writer ${w}` }).where(eq(contracts.id, seeded[w % seeded.length]!.id));
        await tx.execute(sql`select pg_sleep(${((w * 7) % 5) * 0.04})`);
        for (let i = 0; i < 3; i++) {
          const id = `writer-${w}-${i}`;
          await tx.insert(contracts).values({ id, name: id });
          inserted.push(id);
        }
        await tx.execute(sql`select pg_sleep(${((w * 3) % 4) * 0.05})`);
      });
    };

    let done = false;
    const writing = Promise.all(Array.from({ length: writers }, (_, w) => write(w))).finally(() => {
      done = true;
    });
    const delivered: SyncChange[] = [];
    let cursor = '0';
    while (!done) {
      const page = await pullAll(app, token, 5, cursor);
      delivered.push(...page.pages.flatMap((p) => p.changes));
      cursor = page.cursor;
      await sleep(3);
    }
    await writing;
    delivered.push(...(await pullAll(app, token, 5, cursor)).pages.flatMap((p) => p.changes));

    const upserted = contractChanges(delivered).flatMap((c) => (c.op === 'upsert' ? [c.row.id] : []));
    const insertedDeliveries = upserted.filter((id) => id.startsWith('writer-'));
    expect(insertedDeliveries.sort()).toEqual([...inserted].sort());
    const held = replay(delivered);
    const current = await fixture.db.select({ id: contracts.id, name: contracts.name, version: contracts.version }).from(contracts);
    expect(held).toEqual(new Map(current.map(({ id, ...rest }) => [id, rest])));
  });
});

describeOnDatabases('sync feed pages over every source', (fixture) => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 25, seed: 5 });
    app = fixture.server();
    token = (await signIn(app, 'admin', demo('admin').password)).token;
  });

  it('small pages bring the same changes in the same order as one page, whichever source each change comes from', async () => {
    const whole = await pullAll(app, token, 5000);
    expect(whole.pages).toHaveLength(1);
    const changes = whole.pages[0]!.changes;
    // Contracts, their tasks and plans interleave in the feed: the bound each source puts on the
    // next ones must never drop or reorder a change of another.
    expect(new Set(changes.map((change) => change.entity))).toEqual(new Set(['contract', 'performanceTask', 'performancePlan', 'reminderSettings', 'scene']));
    for (const limit of [1, 3, 7, 40]) {
      const paged = await pullAll(app, token, limit);
      expect(paged.pages.every((page) => page.changes.length <= limit)).toBe(true);
      expect(paged.pages.flatMap((page) => page.changes), `pages of ${limit}`).toEqual(changes);
    }
  });
});
