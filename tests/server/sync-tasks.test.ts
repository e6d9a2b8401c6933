import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SyncChange } from '../../src-shared/api/sync';
import { contractAgents, contracts, users } from '../../src-server/db/schema';
import { performanceTasks, reminderSettings } from '../../src-server/performance/schema';
import { defaultReminderSettings } from '../../src-shared/domain/reminders';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { syncTaskColumns, taskChange } from '../../src-server/sync/feed-sources';
import { describeOnDatabases, pullAll, signIn } from './support';

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;

/** The tasks (id → contract) a client holds after applying changes in order, a contract's delete taking its tasks along. */
function replayTasks(changes: SyncChange[], into = new Map<string, string | null>()) {
  for (const change of changes) {
    if (change.entity === 'performanceTask') {
      if (change.op === 'delete') into.delete(change.id);
      else into.set(change.row.id, change.row.contractId);
    } else if (change.entity === 'contract' && change.op === 'delete') {
      for (const [id, contractId] of into) if (contractId === change.id) into.delete(id);
    }
  }
  return into;
}

describeOnDatabases('sync feed: performance tasks and reminder settings', (fixture) => {
  let app: FastifyInstance;
  const tokens = new Map<string, string>();
  const people = new Map<string, { id: string; departmentId: string; organisationId: string }>();

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 30, seed: 12 });
    for (const username of ['admin', 'alice', 'bob', 'carol']) {
      const [user] = await fixture.db.select().from(users).where(eq(users.username, username));
      people.set(username, { id: user!.id, departmentId: user!.departmentId!, organisationId: user!.organisationId });
    }
    app = fixture.server();
    for (const username of people.keys()) tokens.set(username, (await signIn(app, username, demo(username).password)).token);
  });
  afterAll(() => app.close());

  const pull = (username: string, cursor?: string) => pullAll(app, tokens.get(username)!, 40, cursor);
  const changesOf = (pulled: Awaited<ReturnType<typeof pull>>) => pulled.pages.flatMap((p) => p.changes);

  /**
   * The changes after `cursor` once some arrived. On PostgreSQL the feed serves a change only once
   * every older transaction in the cluster has ended, so under parallel suites it may come late.
   */
  async function changesAfter(username: string, cursor: string): Promise<SyncChange[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const changes = changesOf(await pull(username, cursor));
      if (changes.length > 0 || Date.now() > deadline) return changes;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function addTask(id: string, fields: Partial<typeof performanceTasks.$inferInsert>) {
    const alice = people.get('alice')!;
    await fixture.db.insert(performanceTasks).values({ id, organisationId: alice.organisationId, name: id, type: 'receivable', expirationTime: '2026-12-01', ...fields });
  }

  it('brings each user the tasks of the contracts they see, and the quick tasks they created or lead, after their contract', async () => {
    for (const username of ['admin', 'alice', 'bob']) {
      const pulled = await pull(username);
      const changes = changesOf(pulled);
      const seen = new Set(pulled.rows.map((row) => row.id));
      const user = people.get(username)!;
      const expected = await fixture.db
        .select({ id: performanceTasks.id })
        .from(performanceTasks)
        .where(
          or(
            seen.size > 0 ? inArray(performanceTasks.contractId, [...seen]) : undefined,
            and(isNull(performanceTasks.contractId), or(eq(performanceTasks.createdBy, user.id), eq(performanceTasks.leaderUserId, user.id))),
          ),
        );
      const tasks = replayTasks(changes);
      expect([...tasks.keys()].sort(), username).toEqual(expected.map((t) => t.id).sort());
      expect(tasks.size, username).toBeGreaterThan(0);
      // A task never comes before its contract.
      const position = new Map(changes.map((change, i) => [change.entity === 'contract' && change.op === 'upsert' ? change.row.id : `#${i}`, i]));
      changes.forEach((change, i) => {
        if (change.entity === 'performanceTask' && change.op === 'upsert' && change.row.contractId) expect(position.get(change.row.contractId)).toBeLessThan(i);
      });
    }
  });

  it('sends a task row as the task reads: times, amounts, dates, empty and nested values exactly as taskChange makes them', async () => {
    await fixture.db.insert(contracts).values({ id: 'exact-contract', name: 'exact', responsibleUserId: people.get('alice')!.id, departmentId: people.get('alice')!.departmentId });
    const at = new Date('2026-03-04T05:06:07.891Z');
    const before = await pull('alice');
    await addTask('exact-a', {
      contractId: 'exact-contract',
      name: 'Zahlung "Q1" \\ 合同 \u{1F4B0}\n',
      state: 4,
      level: 2,
      rowIndex: 7,
      expirationTime: '0999-02-28',
      receivableAmount: 9_007_199_254_740_991,
      amountUnit: 'EUR',
      leaderUserId: people.get('bob')!.id,
      values: { b: [1, { c: null, d: 'é' }], a: 1.5, long_key_first: true },
      completionValues: {},
      finishedAmount: 0,
      version: 12,
    });
    await addTask('exact-b', { contractId: 'exact-contract', expirationTime: null, payableAmount: -5, amountUnit: 'CNY', completionValues: null });
    // Microseconds, which a JavaScript Date drops.
    await fixture.db.execute(sql`update performance_tasks set create_time = '2026-03-04 05:06:07.891999+00', update_time = ${at.toISOString()}::timestamptz + interval '999 microseconds' where id in ('exact-a', 'exact-b')`);
    const sent = (await changesAfter('alice', before.cursor))
      .filter((change) => change.entity === 'performanceTask' && change.op === 'upsert')
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const rows = await fixture.db.select(syncTaskColumns).from(performanceTasks).where(inArray(performanceTasks.id, ['exact-a', 'exact-b'])).orderBy(performanceTasks.id);
    expect(sent).toEqual(rows.map(taskChange));
    expect(sent[0]).toMatchObject({ row: { createTime: '2026-03-04T05:06:07.891Z', updateTime: '2026-03-04T05:06:07.891Z', expirationTime: '0999-02-28', receivableAmount: 9_007_199_254_740_991 } });
  });

  it('sends a deleted task as a delete to those who had it, and nothing to others', async () => {
    await fixture.db.insert(contracts).values({ id: 'alice-contract', name: 'with tasks', responsibleUserId: people.get('alice')!.id, departmentId: people.get('alice')!.departmentId });
    await addTask('task-to-delete', { contractId: 'alice-contract' });
    const [alice, bob] = await Promise.all([pull('alice'), pull('bob')]);
    expect(replayTasks(changesOf(alice)).has('task-to-delete')).toBe(true);
    expect(replayTasks(changesOf(bob)).has('task-to-delete')).toBe(false);
    await fixture.db.delete(performanceTasks).where(eq(performanceTasks.id, 'task-to-delete'));
    expect(await changesAfter('alice', alice.cursor)).toEqual([{ entity: 'performanceTask', op: 'delete', id: 'task-to-delete' }]);
    expect(changesOf(await pull('bob', bob.cursor))).toEqual([]);
  });

  it('a quick task reaches its creator and its leader only', async () => {
    const before = new Map(await Promise.all(['alice', 'bob', 'carol'].map(async (u) => [u, await pull(u)] as const)));
    await addTask('quick-task', { type: 'custom', createdBy: people.get('alice')!.id, leaderUserId: people.get('bob')!.id });
    for (const [username, holds] of [['alice', true], ['bob', true], ['carol', false]] as const) {
      const changes = holds ? await changesAfter(username, before.get(username)!.cursor) : changesOf(await pull(username, before.get(username)!.cursor));
      expect(replayTasks(changes).has('quick-task'), username).toBe(holds);
    }
  });

  it('on a transfer, the new owner gets the contract and then its tasks; the old owner loses both', async () => {
    await fixture.db.insert(contracts).values({ id: 'moving', name: 'moving', responsibleUserId: people.get('alice')!.id, departmentId: people.get('alice')!.departmentId });
    await addTask('moving-task-1', { contractId: 'moving' });
    await addTask('moving-task-2', { contractId: 'moving', type: 'payment' });
    const before = new Map(await Promise.all(['admin', 'alice', 'carol'].map(async (u) => [u, await pull(u)] as const)));
    expect(replayTasks(changesOf(before.get('alice')!)).has('moving-task-1')).toBe(true);
    expect(replayTasks(changesOf(before.get('carol')!)).has('moving-task-1')).toBe(false);

    await fixture.db.update(contracts).set({ responsibleUserId: people.get('carol')!.id, departmentId: people.get('carol')!.departmentId }).where(eq(contracts.id, 'moving'));
    const carolChanges = await changesAfter('carol', before.get('carol')!.cursor);
    expect(carolChanges.map((c) => [c.entity, c.op, c.entity === 'reminderSettings' ? c.row.userId : c.op === 'upsert' ? c.row.id : c.id])).toEqual([
      ['contract', 'upsert', 'moving'],
      ['performanceTask', 'upsert', 'moving-task-1'],
      ['performanceTask', 'upsert', 'moving-task-2'],
    ]);
    for (const [username, holds] of [['admin', true], ['alice', false]] as const) {
      const held = replayTasks(changesOf(before.get(username)!));
      const changes = await changesAfter(username, before.get(username)!.cursor);
      expect(replayTasks(changes, held).has('moving-task-2'), username).toBe(holds);
      if (!holds) expect(changes).toEqual([{ entity: 'contract', op: 'delete', id: 'moving' }]);
    }
  });

  it('an agent added gets the contract and then its tasks; an agent removed loses both', async () => {
    await fixture.db.insert(contracts).values({ id: 'with-agent', name: 'with agent', responsibleUserId: people.get('alice')!.id, departmentId: people.get('alice')!.departmentId });
    await addTask('agent-task', { contractId: 'with-agent' });
    const before = await pull('carol');
    await fixture.db.insert(contractAgents).values({ contractId: 'with-agent', userId: people.get('carol')!.id });
    const added = await changesAfter('carol', before.cursor);
    expect(added.map((c) => [c.entity, c.op])).toEqual([['contract', 'upsert'], ['performanceTask', 'upsert']]);
    const held = replayTasks([...changesOf(before), ...added]);
    expect(held.has('agent-task')).toBe(true);

    const cursor = (await pull('carol', before.cursor)).cursor;
    await fixture.db.delete(contractAgents).where(eq(contractAgents.contractId, 'with-agent'));
    const removed = await changesAfter('carol', cursor);
    expect(removed).toEqual([{ entity: 'contract', op: 'delete', id: 'with-agent' }]);
    expect(replayTasks(removed, held).has('agent-task')).toBe(false);
  });

  it('sends reminder settings only to their own user, again after each change', async () => {
    const [alice, bob] = await Promise.all([pull('alice'), pull('bob')]);
    const settingsOf = (changes: SyncChange[]) => changes.flatMap((c) => (c.entity === 'reminderSettings' ? [c.row] : []));
    expect(settingsOf(changesOf(alice)).map((row) => row.userId)).toEqual([people.get('alice')!.id]);
    expect(settingsOf(changesOf(bob)).map((row) => row.userId)).toEqual([people.get('bob')!.id]);

    const changed = { ...defaultReminderSettings, othersTask: { ...defaultReminderSettings.othersTask, reminderTime: '07:30' } };
    await fixture.db.update(reminderSettings).set({ settings: changed }).where(eq(reminderSettings.userId, people.get('bob')!.id));
    expect(changesOf(await pull('alice', alice.cursor))).toEqual([]);
    const [bobSettings] = settingsOf(await changesAfter('bob', bob.cursor));
    expect(bobSettings?.settings.othersTask.reminderTime).toBe('07:30');
  });

  it("counts a first sync's tasks from the kept counts: the first page's remaining is what the pull then brings", async () => {
    for (const username of people.keys()) {
      const { pages } = await pullAll(app, tokens.get(username)!, 5);
      const delivered = pages.reduce((sum, page) => sum + page.changes.length, 0);
      expect(pages.length, username).toBeGreaterThan(1);
      expect(pages[0]!.remaining + pages[0]!.changes.length, username).toBe(delivered);
      expect(pages.at(-1)!.remaining).toBe(0);
    }
  });
});
