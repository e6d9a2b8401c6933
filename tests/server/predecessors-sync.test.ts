import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion, type MutationResult, type SyncChange } from '../../src-shared/api/sync';
import { TaskState } from '../../src-shared/domain/enums';
import { performanceTasks } from '../../src-server/performance/schema';
import { callEndpoint, describeOnDatabases, failure, okData, settledFeed } from './support';
import { cny, future, performanceWorld, type PerformanceWorld } from './performance-fixture';

// Predecessor relations over sync (issue 28 item 4): a relate or unrelate queued offline is
// applied by the REST code, so it is refused exactly where REST refuses, with the same reason;
// a finish its predecessors hold back likewise. Each task's feed row carries its predecessors,
// and any change of them (a relate, an unrelate, a predecessor deleted) sends the task again.

describeOnDatabases('predecessors over sync', (fixture) => {
  let w: PerformanceWorld;
  let seq = 1;
  const clientId = uuidv7();
  beforeAll(async () => {
    w = await performanceWorld(fixture);
  });

  const push = async (name: string, args: unknown): Promise<MutationResult> => {
    const mutation = { id: uuidv7(), seq: seq++, name, args, baseVersions: {} };
    const body = { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations: [mutation] };
    return okData('syncPush', await callEndpoint(w.app, 'syncPush', { token: w.people.alice.token, body })).results[0]!;
  };
  const rejection = (result: MutationResult) => (result.status === 'rejected' ? { code: result.error.code, reason: result.error.reason } : result.status);
  const stored = async (id: string) => (await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.id, id)))[0]!;
  const fronts = async (id: string) => okData('performanceTaskFrontTasks', await w.callWithId('performanceTaskFrontTasks', id, { token: w.people.alice.token })).list.map((t) => t.taskID);

  it('applies a queued relate and unrelate by the REST rules: the same refusals, reasons and effects', async () => {
    const { alice } = w.people;
    const [a, b, c] = (await w.newPlan(alice, [{ name: 'a', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'b', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'c', expirationTime: future, receivableAmount: cny(1_000) }])).taskList;
    const applied = await push('performance.relateTask', { id: b!.id, frontTaskIDList: [a!.id] });
    expect(applied).toMatchObject({ status: 'applied', versions: { [`performanceTask:${b!.id}`]: b!.version + 1 } });
    expect(await fronts(b!.id)).toEqual([a!.id]);
    expect((await stored(b!.id)).fieldVersions).toMatchObject({ front: b!.version + 1 });

    const cases: { name: string; args: Record<string, unknown>; rest: () => ReturnType<PerformanceWorld['callWithId']>; status: number }[] = [
      { name: 'performance.relateTask', args: { id: a!.id, frontTaskIDList: [c!.id] }, rest: () => w.callWithId('performanceTaskRelate', a!.id, { token: alice.token, body: { frontTaskIDList: [c!.id] } }), status: 400 },
      { name: 'performance.relateTask', args: { id: b!.id, frontTaskIDList: [b!.id] }, rest: () => w.callWithId('performanceTaskRelate', b!.id, { token: alice.token, body: { frontTaskIDList: [b!.id] } }), status: 400 },
      { name: 'performance.unrelateTask', args: { id: c!.id, frontTaskID: a!.id }, rest: () => w.callWithId('performanceTaskUnrelate', c!.id, { token: alice.token, query: { frontTaskID: a!.id } }), status: 404 },
      { name: 'performance.finishTask', args: { id: b!.id }, rest: () => w.callWithId('performanceTaskFinish', b!.id, { token: alice.token }), status: 409 },
    ];
    for (const { name, args, rest, status } of cases) {
      const viaSync = rejection(await push(name, args));
      const viaRest = failure(await rest(), status, viaSync === 'applied' || viaSync === 'conflict' ? 'conflict' : viaSync.code);
      expect(viaSync, name).toEqual({ code: viaRest.code, reason: viaRest.reason });
    }
    expect((await push('performance.finishTask', { id: b!.id })) as unknown).toMatchObject({ error: { reason: { key: 'predecessorsOpen', params: { task: 'b', names: '"a"' } } } });
    expect((await stored(b!.id)).state).not.toBe(TaskState.Success);

    expect(await push('performance.unrelateTask', { id: b!.id, frontTaskID: a!.id })).toMatchObject({ status: 'applied' });
    expect(await fronts(b!.id)).toEqual([]);
    expect((await stored(b!.id)).frontTaskIds).toBeNull();
    // Related again, the batch of all three finishes them together, earlier rows first.
    expect(await push('performance.relateTask', { id: c!.id, frontTaskIDList: [a!.id, b!.id] })).toMatchObject({ status: 'applied' });
    expect(await push('performance.finishTasks', { performanceId: w.performanceOf('receivable').id, planIDList: [c!.id, b!.id, a!.id] })).toMatchObject({ status: 'applied' });
  });

  it('sends a task down the feed with its predecessors whenever they change, a deleted predecessor included', async () => {
    const { alice } = w.people;
    const [a, b] = (await w.newPlan(alice, [{ name: 'a', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'b', expirationTime: future, receivableAmount: cny(1_000) }])).taskList;
    const pull = async (cursor: string) => {
      // The feed serves a change once every older transaction of the cluster has ended.
      await settledFeed(fixture.db);
      const query = { cursor, limit: 5000, protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion };
      return okData('syncPull', await callEndpoint(w.app, 'syncPull', { token: alice.token, query }));
    };
    const taskRow = (changes: SyncChange[], id: string) => changes.find((change) => change.entity === 'performanceTask' && change.op === 'upsert' && change.row.id === id);
    let cursor = '0';
    for (let page = await pull(cursor); ; page = await pull(cursor)) {
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    okData('performanceTaskRelate', await w.callWithId('performanceTaskRelate', b!.id, { token: alice.token, body: { frontTaskIDList: [a!.id] } }));
    const related = await pull(cursor);
    expect(taskRow(related.changes, b!.id)).toMatchObject({ row: { frontTaskIds: [a!.id], version: b!.version + 1 } });
    expect(taskRow(related.changes, a!.id)).toBeUndefined();

    okData('performanceTaskDelete', await w.callWithId('performanceTaskDelete', a!.id, { token: alice.token }));
    const deleted = await pull(related.cursor);
    expect(deleted.changes).toContainEqual({ entity: 'performanceTask', op: 'delete', id: a!.id });
    expect(taskRow(deleted.changes, b!.id)).toMatchObject({ row: { frontTaskIds: null, version: b!.version + 2 } });
  });
});
