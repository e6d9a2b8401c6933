import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { performanceEndpoints } from '../../src-shared/api/performance';
import { syncProtocolVersion, syncSchemaVersion, type MutationResult } from '../../src-shared/api/sync';
import { TaskState } from '../../src-shared/domain/enums';
import { performanceTaskRelations, performanceTasks } from '../../src-server/performance/schema';
import { call, callEndpoint, describeOnDatabases, failure, okData, queryRows } from './support';
import { cny, future, past, performanceWorld, type PerformanceWorld } from './performance-fixture';

const missing = '0190a000-0000-7000-8000-000000000000';

describeOnDatabases('performance tasks', (fixture) => {
  let w: PerformanceWorld;
  beforeAll(async () => {
    w = await performanceWorld(fixture);
  });

  const stateOf = async (id: string) => (await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.id, id)))[0];

  it('refuses every performance endpoint without a token (401)', async () => {
    for (const [name, endpoint] of Object.entries(performanceEndpoints)) {
      const result = await call(w.app, endpoint.method, endpoint.path.replace(':id', missing));
      failure(result, 401, 'unauthorized');
      expect(name).toBeTruthy();
    }
  });

  it('edits a task: the type follows the amounts, the state follows the due date', async () => {
    const { alice } = w.people;
    const plan = await w.newPlan(alice, [{ name: '第1期', expirationTime: future }], 'invoicing');
    const task = plan.taskList[0]!;
    expect(task.type).toBe('invoicing');
    expect(task.taskState).toBe(TaskState.InProgress);
    const edited = okData('performanceTaskUpdate', await w.callWithId('performanceTaskUpdate', task.id, {
      token: alice.token, body: { payableAmount: { amount: 12_345, unit: 'CNY' }, expirationTime: past },
    }));
    expect(edited).toMatchObject({ type: 'payable', payableAmount: { amount: 12_345, unit: 'CNY' }, taskState: TaskState.Overdue, version: task.version + 1 });
    const receivable = okData('performanceTaskUpdate', await w.callWithId('performanceTaskUpdate', task.id, {
      token: alice.token, body: { receivableAmount: { amount: 1, unit: 'CNY' } },
    }));
    expect(receivable.type).toBe('receivable');
  });

  it('refuses a bad edit naming the field, an unknown field, malformed JSON and a stale If-Match', async () => {
    const { alice } = w.people;
    const task = (await w.newPlan(alice, [{ name: 'row', expirationTime: future, receivableAmount: cny(1_000) }])).taskList[0]!;
    const empty = failure(await w.callWithId('performanceTaskUpdate', task.id, { token: alice.token, body: { name: '  ' } }), 400, 'validation_failed');
    expect(empty.message).toContain('name: Please enter the performance content');
    const badDate = failure(await w.callWithId('performanceTaskUpdate', task.id, { token: alice.token, body: { expirationTime: '2026-02-30' } }), 400, 'validation_failed');
    expect(badDate.message).toContain('expirationTime');
    const unknown = failure(await w.callWithId('performanceTaskUpdate', task.id, { token: alice.token, body: { state: 4 } }), 400, 'validation_failed');
    expect(unknown.message).toContain('state');
    const units = failure(await w.callWithId('performanceTaskUpdate', task.id, {
      token: alice.token, body: { payableAmount: { amount: 1, unit: 'CNY' }, receivableAmount: { amount: 1, unit: 'USD' } },
    }), 400, 'validation_failed');
    expect(units.message).toContain('receivableAmount.unit');
    failure(await w.callWithId('performanceTaskUpdate', task.id, { token: alice.token, rawBody: '{"name": ' }), 400, 'bad_request');
    failure(await w.callWithId('performanceTaskUpdate', task.id, { token: alice.token, body: { name: 'x' }, headers: { 'if-match': '"7"' } }), 409, 'conflict');
    expect((await stateOf(task.id))!.name).toBe('row');
    okData('performanceTaskUpdate', await w.callWithId('performanceTaskUpdate', task.id, { token: alice.token, body: { name: 'x' }, headers: { 'if-match': String(task.version) } }));
  });

  it('hides another department’s tasks (404) and answers 404 for a missing task', async () => {
    const { alice, bob, admin } = w.people;
    const task = (await w.newPlan(bob, [{ name: 'bob row', expirationTime: future, receivableAmount: cny(1_000) }])).taskList[0]!;
    for (const name of ['performanceTaskUpdate', 'performanceTaskFinish', 'performanceTaskDelete', 'performanceTaskRestore', 'performanceTaskFrontTasks', 'performanceTaskCompleteForm'] as const) {
      const body = name === 'performanceTaskUpdate' ? { name: 'stolen' } : undefined;
      failure(await w.callWithId(name, task.id, { token: alice.token, body }), 404, 'not_found');
      failure(await w.callWithId(name, missing, { token: bob.token, body }), 404, 'not_found');
    }
    failure(await w.callWithId('performanceTaskUpdate', 'not-a-uuid', { token: bob.token, body: { name: 'x' } }), 400, 'validation_failed');
    expect((await stateOf(task.id))!.name).toBe('bob row');
    // Administrators see every task.
    okData('performanceTaskFrontTasks', await w.callWithId('performanceTaskFrontTasks', task.id, { token: admin.token }));
  });

  it('finishes a task: success (4), the amount times 100, the completion values; a finished task is read-only', async () => {
    const { alice } = w.people;
    const task = (await w.newPlan(alice, [{ name: 'pay', expirationTime: past, receivableAmount: { amount: 50_000, unit: 'CNY' } }])).taskList[0]!;
    expect(task.taskState).toBe(TaskState.Overdue);
    const finished = okData('performanceTaskFinish', await w.callWithId('performanceTaskFinish', task.id, {
      token: alice.token, body: { amount: 1234.56, configFields: { finishDate: '2026-11-01', description: 'paid' } },
    }));
    expect(finished).toMatchObject({ taskState: TaskState.Success, finishedAmount: 123_456 });
    const stored = (await stateOf(task.id))!;
    expect(stored.completionValues).toEqual({ finishDate: '2026-11-01', description: 'paid' });
    expect(stored.finishedBy).toBe(alice.id);

    const form = okData('performanceTaskCompleteForm', await w.callWithId('performanceTaskCompleteForm', task.id, { token: alice.token }));
    expect(form.values).toEqual({ finishDate: '2026-11-01', description: 'paid' });
    expect(form.configFields.map((f) => f.id)).toContain('finishDate');

    failure(await w.callWithId('performanceTaskFinish', task.id, { token: alice.token, body: {} }), 409, 'conflict');
    failure(await w.callWithId('performanceTaskUpdate', task.id, { token: alice.token, body: { name: 'changed' } }), 409, 'conflict');
    failure(await w.callWithId('performanceTaskDelete', task.id, { token: alice.token }), 409, 'conflict');
    expect((await stateOf(task.id))!.name).toBe('pay');
  });

  it('finishes without an amount with the task’s own amount, and refuses a bad finish body naming the field', async () => {
    const { alice } = w.people;
    const task = (await w.newPlan(alice, [{ name: 'pay', expirationTime: future, receivableAmount: { amount: 777, unit: 'CNY' } }])).taskList[0]!;
    const bad = failure(await w.callWithId('performanceTaskFinish', task.id, { token: alice.token, body: { amount: -1 } }), 400, 'validation_failed');
    expect(bad.message).toContain('amount');
    expect((await stateOf(task.id))!.state).toBe(TaskState.InProgress);
    expect(okData('performanceTaskFinish', await w.callWithId('performanceTaskFinish', task.id, { token: alice.token })).finishedAmount).toBe(777);
  });

  it('restores a finished task to the state its due date implies', async () => {
    const { alice } = w.people;
    const [overdue, pending] = (await w.newPlan(alice, [{ name: 'a', expirationTime: past, receivableAmount: cny(1_000) }, { name: 'b', expirationTime: future, receivableAmount: cny(1_000) }])).taskList;
    for (const task of [overdue!, pending!]) okData('performanceTaskFinish', await w.callWithId('performanceTaskFinish', task.id, { token: alice.token }));
    expect(okData('performanceTaskRestore', await w.callWithId('performanceTaskRestore', overdue!.id, { token: alice.token })).taskState).toBe(TaskState.Overdue);
    const restored = okData('performanceTaskRestore', await w.callWithId('performanceTaskRestore', pending!.id, { token: alice.token }));
    expect(restored).toMatchObject({ taskState: TaskState.InProgress, finishedAmount: null });
    expect((await stateOf(pending!.id))!.completionValues).toBeNull();
    failure(await w.callWithId('performanceTaskRestore', pending!.id, { token: alice.token }), 409, 'conflict');
    failure(await w.callWithId('performanceTaskRestore', pending!.id, { token: alice.token, body: { why: 1 } }), 400, 'validation_failed');
  });

  it('deletes an unfinished task', async () => {
    const { alice } = w.people;
    const task = (await w.newPlan(alice, [{ name: 'gone', expirationTime: future, receivableAmount: cny(1_000) }])).taskList[0]!;
    expect(okData('performanceTaskDelete', await w.callWithId('performanceTaskDelete', task.id, { token: alice.token }))).toEqual({ id: task.id });
    expect(await stateOf(task.id)).toBeUndefined();
    failure(await w.callWithId('performanceTaskDelete', task.id, { token: alice.token }), 404, 'not_found');
  });

  it('relates predecessors, earlier tasks of the same contract only, refusing itself, later tasks, cycles, quick tasks and hidden tasks; finishing waits for them', async () => {
    const { alice, bob } = w.people;
    const [first, second, third] = (await w.newPlan(alice, [
      { name: 'first', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'second', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'third', expirationTime: future, receivableAmount: cny(1_000) },
    ])).taskList;
    const related = okData('performanceTaskRelate', await w.callWithId('performanceTaskRelate', second!.id, { token: alice.token, body: { frontTaskIDList: [first!.id] } }));
    expect(related.list.map((t) => t.taskID)).toEqual([first!.id]);
    okData('performanceTaskRelate', await w.callWithId('performanceTaskRelate', third!.id, { token: alice.token, body: { frontTaskIDList: [second!.id] } }));
    // The task carries its predecessors, with a new version, for the feed.
    expect(await stateOf(third!.id)).toMatchObject({ frontTaskIds: [second!.id], version: third!.version + 1 });

    expect(failure(await w.callWithId('performanceTaskRelate', first!.id, { token: alice.token, body: { frontTaskIDList: [first!.id] } }), 400, 'bad_request').reason).toEqual({ key: 'ownPredecessor' });
    const later = failure(await w.callWithId('performanceTaskRelate', first!.id, { token: alice.token, body: { frontTaskIDList: [third!.id] } }), 400, 'bad_request');
    expect(later.reason).toEqual({ key: 'predecessorNotEarlier', params: { front: 'third', task: 'first' } });
    // Once the first row's date moves after the third's, the third comes first in the sheet, yet follows it.
    okData('performanceTaskUpdate', await w.callWithId('performanceTaskUpdate', first!.id, { token: alice.token, body: { expirationTime: '2099-12-31' } }));
    const cycle = failure(await w.callWithId('performanceTaskRelate', first!.id, { token: alice.token, body: { frontTaskIDList: [third!.id] } }), 409, 'conflict');
    expect(cycle.message).toContain('cycle');
    const empty = failure(await w.callWithId('performanceTaskRelate', first!.id, { token: alice.token, body: { frontTaskIDList: [] } }), 400, 'validation_failed');
    expect(empty.message).toContain('frontTaskIDList');
    const quick = await w.newQuickTask(alice);
    expect(failure(await w.callWithId('performanceTaskRelate', first!.id, { token: alice.token, body: { frontTaskIDList: [quick.id] } }), 400, 'bad_request').reason).toEqual({ key: 'predecessorOtherContract', params: { front: quick.taskName } });
    expect(failure(await w.callWithId('performanceTaskRelate', quick.id, { token: alice.token, body: { frontTaskIDList: [first!.id] } }), 400, 'bad_request').message).toBe('This is a quick task.');
    const [elsewhere] = (await w.newPlan(alice, [{ name: 'elsewhere', expirationTime: '2026-01-01', receivableAmount: cny(1_000) }])).taskList;
    failure(await w.callWithId('performanceTaskRelate', first!.id, { token: alice.token, body: { frontTaskIDList: [elsewhere!.id] } }), 400, 'bad_request');
    const hidden = (await w.newPlan(bob, [{ name: 'bob', expirationTime: future, receivableAmount: cny(1_000) }])).taskList[0]!;
    failure(await w.callWithId('performanceTaskRelate', first!.id, { token: alice.token, body: { frontTaskIDList: [hidden.id] } }), 404, 'not_found');
    expect(await fixture.db.select().from(performanceTaskRelations).where(eq(performanceTaskRelations.taskId, first!.id))).toEqual([]);
    okData('performanceTaskUpdate', await w.callWithId('performanceTaskUpdate', first!.id, { token: alice.token, body: { expirationTime: future } }));

    const fronts = okData('performanceTaskFrontTasks', await w.callWithId('performanceTaskFrontTasks', third!.id, { token: alice.token }));
    expect(fronts.list).toEqual([expect.objectContaining({ taskID: second!.id, taskName: 'second', taskState: TaskState.InProgress })]);

    const check = okData('performanceTaskCheckFront', await callEndpoint(w.app, 'performanceTaskCheckFront', {
      token: alice.token, query: { contractID: third!.contractID!, currentTaskID: third!.id },
    }));
    expect(check.list.flatMap((g) => g.taskList.map((t) => t.taskName))).toEqual(['second']);

    const refused = failure(await w.callWithId('performanceTaskFinish', third!.id, { token: alice.token }), 409, 'conflict');
    expect(refused.message).toContain('"second"');
    expect((await stateOf(third!.id))!.state).toBe(TaskState.InProgress);

    // Batch finish takes earlier rows first, so a chain finishes in one call.
    const batch = okData('performanceFinishTasks', await w.callWithId('performanceFinishTasks', w.performanceOf('receivable').id, {
      token: alice.token, body: { planIDList: [third!.id, second!.id, first!.id] },
    }));
    expect(batch.list.map((t) => t.taskState)).toEqual([4, 4, 4]);

    // A finished task is read-only, its predecessors included.
    failure(await w.callWithId('performanceTaskUnrelate', third!.id, { token: alice.token, query: { frontTaskID: second!.id } }), 409, 'conflict');
  });

  it('unrelates: 404 when not related, 400 without the front task id', async () => {
    const { alice } = w.people;
    const [a, b] = (await w.newPlan(alice, [{ name: 'a', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'b', expirationTime: future, receivableAmount: cny(1_000) }])).taskList;
    failure(await w.callWithId('performanceTaskUnrelate', b!.id, { token: alice.token, query: { frontTaskID: a!.id } }), 404, 'not_found');
    okData('performanceTaskRelate', await w.callWithId('performanceTaskRelate', b!.id, { token: alice.token, body: { frontTaskIDList: [a!.id] } }));
    failure(await w.callWithId('performanceTaskUnrelate', b!.id, { token: w.people.bob.token, query: { frontTaskID: a!.id } }), 404, 'not_found');
    const unrelated = okData('performanceTaskUnrelate', await w.callWithId('performanceTaskUnrelate', b!.id, { token: alice.token, query: { frontTaskID: a!.id } }));
    expect(unrelated.list).toEqual([]);
    const bad = failure(await w.callWithId('performanceTaskUnrelate', b!.id, { token: alice.token }), 400, 'validation_failed');
    expect(bad.message).toContain('frontTaskID');
  });

  it('checks the earlier tasks of the contract when a task has no plan', async () => {
    const { alice } = w.people;
    const [early] = (await w.newPlan(alice, [{ name: 'early', expirationTime: '2099-01-01', receivableAmount: cny(1_000) }])).taskList;
    const later = await w.newQuickTask(alice, { name: 'later', relatedID: early!.contractID });
    expect(later.planID).toBeNull();
    const check = okData('performanceTaskCheckFront', await callEndpoint(w.app, 'performanceTaskCheckFront', {
      token: alice.token, query: { contractID: early!.contractID!, currentTaskID: later.id },
    }));
    expect(check.list).toEqual([{ contractID: early!.contractID, contractName: expect.any(String), taskList: [expect.objectContaining({ taskID: early!.id })] }]);
    failure(await w.callWithId('performanceTaskFinish', later.id, { token: alice.token }), 409, 'conflict');
    failure(await callEndpoint(w.app, 'performanceTaskCheckFront', { token: alice.token, query: { contractID: early!.contractID! } }), 400, 'validation_failed');
    failure(await callEndpoint(w.app, 'performanceTaskCheckFront', { token: w.people.bob.token, query: { contractID: early!.contractID!, currentTaskID: later.id } }), 404, 'not_found');
  });

  it('creates quick tasks, visible to their creator and their leader only (admins too: the feed sends them no one else); they cannot be opened', async () => {
    const { alice, bob, carol, admin } = w.people;
    const quick = await w.newQuickTask(alice, { leaderUserID: carol.id, level: 2 });
    expect(quick).toMatchObject({ contractID: null, type: 'custom', expirationTime: future, taskState: TaskState.InProgress, leaderUserID: carol.id, level: 2 });
    for (const viewer of [alice, carol]) {
      okData('performanceTaskCompleteForm', await w.callWithId('performanceTaskCompleteForm', quick.id, { token: viewer.token }));
    }
    for (const viewer of [bob, admin]) failure(await w.callWithId('performanceTaskCompleteForm', quick.id, { token: viewer.token }), 404, 'not_found');
    expect(failure(await w.callWithId('performanceTaskFrontTasks', quick.id, { token: alice.token }), 400, 'bad_request').message).toBe('This is a quick task.');
    expect(okData('performanceTaskFinish', await w.callWithId('performanceTaskFinish', quick.id, { token: carol.token })).taskState).toBe(TaskState.Success);
  });

  it('refuses a quick task without a date or content, with the spec’s messages, and for a hidden contract', async () => {
    const { alice, bob } = w.people;
    const noDate = failure(await callEndpoint(w.app, 'performanceQuickTask', {
      token: alice.token, body: { name: 'x', type: 'custom', fieldList: [{ id: 'performanceDate', name: 'd', type: 'date', required: true }] },
    }), 400, 'validation_failed');
    expect(noDate.message).toContain('fieldList: Please select the performance date');
    const noName = failure(await callEndpoint(w.app, 'performanceQuickTask', {
      token: alice.token, body: { name: '', type: 'custom', fieldList: [{ id: 'd', name: 'd', type: 'date', value: future }] },
    }), 400, 'validation_failed');
    expect(noName.message).toContain('name: Please enter the performance content');
    const bobContract = await w.newContract(bob);
    const before = await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from performance_tasks`);
    failure(await callEndpoint(w.app, 'performanceQuickTask', {
      token: alice.token, body: { name: 'x', type: 'custom', relatedID: bobContract, fieldList: [{ id: 'd', name: 'd', type: 'date', value: future }] },
    }), 404, 'not_found');
    expect(await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from performance_tasks`)).toEqual(before);
  });

  it('lists the tasks that can be predecessors: earlier tasks of its contract, not itself, not related yet nor following it', async () => {
    const { alice, bob } = w.people;
    const [a, b, c, d] = (await w.newPlan(alice, [
      { name: 'a', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'b', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'c', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'd', expirationTime: future, receivableAmount: cny(1_000) },
    ])).taskList;
    okData('performanceTaskRelate', await w.callWithId('performanceTaskRelate', b!.id, { token: alice.token, body: { frontTaskIDList: [a!.id] } }));
    okData('performanceTaskRelate', await w.callWithId('performanceTaskRelate', c!.id, { token: alice.token, body: { frontTaskIDList: [b!.id] } }));
    const page = okData('performanceTaskCanBeFront', await callEndpoint(w.app, 'performanceTaskCanBeFront', {
      token: alice.token, query: { taskID: a!.id, contractID: a!.contractID! },
    }));
    expect(page).toEqual({ list: [], count: 0 });
    const forD = okData('performanceTaskCanBeFront', await callEndpoint(w.app, 'performanceTaskCanBeFront', {
      token: alice.token, query: { taskID: d!.id, contractID: a!.contractID!, pageSize: 2, pageNum: 2 },
    }));
    expect(forD).toEqual({ list: [expect.objectContaining({ taskID: c!.id })], count: 3 });
    const forC = okData('performanceTaskCanBeFront', await callEndpoint(w.app, 'performanceTaskCanBeFront', { token: alice.token, query: { taskID: c!.id } }));
    expect(forC.list.map((t) => t.taskID)).toEqual([a!.id]);
    const named = okData('performanceTaskCanBeFront', await callEndpoint(w.app, 'performanceTaskCanBeFront', { token: alice.token, query: { taskID: d!.id, q: 'B' } }));
    expect(named.list.map((t) => t.taskID)).toEqual([b!.id]);
    const tricky = okData('performanceTaskCanBeFront', await callEndpoint(w.app, 'performanceTaskCanBeFront', {
      token: alice.token, query: { taskID: c!.id, q: "%'; drop table performance_tasks; --" },
    }));
    expect(tricky.count).toBe(0);
    const elsewhere = okData('performanceTaskCanBeFront', await callEndpoint(w.app, 'performanceTaskCanBeFront', { token: alice.token, query: { taskID: d!.id, contractID: await w.newContract(alice) } }));
    expect(elsewhere).toEqual({ list: [], count: 0 });
    failure(await callEndpoint(w.app, 'performanceTaskCanBeFront', { token: alice.token, query: { taskID: c!.id, pageSize: 1000 } }), 400, 'validation_failed');
    failure(await callEndpoint(w.app, 'performanceTaskCanBeFront', { token: bob.token, query: { taskID: c!.id } }), 404, 'not_found');
  });

  it('finishes and restores by performance id (planIDList), all or nothing', async () => {
    const { alice, bob } = w.people;
    const receivable = w.performanceOf('receivable').id;
    const [a, b] = (await w.newPlan(alice, [{ name: 'a', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'b', expirationTime: future, receivableAmount: cny(1_000) }])).taskList;
    const hidden = (await w.newPlan(bob, [{ name: 'bob', expirationTime: future, receivableAmount: cny(1_000) }])).taskList[0]!;
    failure(await w.callWithId('performanceFinishTasks', receivable, { token: alice.token, body: { planIDList: [a!.id, hidden.id] } }), 404, 'not_found');
    failure(await w.callWithId('performanceFinishTasks', w.performanceOf('payment').id, { token: alice.token, body: { planIDList: [a!.id] } }), 404, 'not_found');
    expect((await stateOf(a!.id))!.state).toBe(TaskState.InProgress);
    const empty = failure(await w.callWithId('performanceFinishTasks', receivable, { token: alice.token, body: { planIDList: [] } }), 400, 'validation_failed');
    expect(empty.message).toContain('planIDList');
    const done = okData('performanceFinishTasks', await w.callWithId('performanceFinishTasks', receivable, { token: alice.token, body: { planIDList: [a!.id, b!.id], configFields: { note: 'batch' } } }));
    expect(done.list.map((t) => t.taskState)).toEqual([4, 4]);
    const restored = okData('performanceRestoreTasks', await w.callWithId('performanceRestoreTasks', receivable, { token: alice.token, body: { planIDList: [b!.id] } }));
    expect(restored.list).toEqual([expect.objectContaining({ id: b!.id, taskState: TaskState.InProgress })]);
    failure(await w.callWithId('performanceRestoreTasks', receivable, { token: alice.token, body: { planIDList: [b!.id] } }), 409, 'conflict');
    failure(await w.callWithId('performanceRestoreTasks', receivable, { token: alice.token, body: { planIDList: ['x'.repeat(65)] } }), 400, 'validation_failed');
    failure(await w.callWithId('performanceRestoreTasks', missing, { token: alice.token, body: { planIDList: [b!.id] } }), 404, 'not_found');
  });

  it('records on each task of a batch finish its own amount, never the amount entered for the batch on every one (issue 28)', async () => {
    const { alice } = w.people;
    const receivable = w.performanceOf('receivable').id;
    const money = (amount: number) => ({ amount, unit: 'CNY' });
    const [a, b, c] = (await w.newPlan(alice, [
      { name: 'a', expirationTime: future, receivableAmount: money(1_755_000) },
      { name: 'b', expirationTime: future, receivableAmount: money(1_755_000) },
      { name: 'c', expirationTime: future, receivableAmount: money(2_000_000) },
    ])).taskList;
    // The completion amount typed once in the batch dialog (the two tasks' total) goes to neither.
    okData('performanceFinishTasks', await w.callWithId('performanceFinishTasks', receivable, {
      token: alice.token, body: { planIDList: [a!.id, b!.id], configFields: { finishDate: '2026-11-20', finishAmount: money(3_510_000) } },
    }));
    for (const id of [a!.id, b!.id]) {
      expect(await stateOf(id)).toMatchObject({ state: TaskState.Success, finishedAmount: 1_755_000, completionValues: { finishDate: '2026-11-20', finishAmount: money(1_755_000) } });
    }
    // Bad per-task amounts are refused naming the field, and change nothing.
    const stranger = failure(await w.callWithId('performanceFinishTasks', receivable, { token: alice.token, body: { planIDList: [c!.id], finishAmounts: { [a!.id]: money(1) } } }), 400, 'validation_failed');
    expect(stranger.message).toContain('finishAmounts');
    failure(await w.callWithId('performanceFinishTasks', receivable, { token: alice.token, body: { planIDList: [c!.id], finishAmounts: { [c!.id]: money(-5) } } }), 400, 'validation_failed');
    expect((await stateOf(c!.id))!.state).toBe(TaskState.InProgress);
    // The amount entered for a task is that task's, through REST and through a queued batch alike.
    const push = async (name: string, args: unknown): Promise<MutationResult> => {
      const body = { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId: uuidv7(), mutations: [{ id: uuidv7(), seq: 1, name, args, baseVersions: {} }] };
      return okData('syncPush', await callEndpoint(w.app, 'syncPush', { token: alice.token, body })).results[0]!;
    };
    expect(await push('performance.finishTasks', { performanceId: receivable, planIDList: [c!.id], configFields: { finishAmount: money(3_510_000) }, finishAmounts: { [c!.id]: money(1_900_000) } })).toMatchObject({ status: 'applied' });
    expect(await stateOf(c!.id)).toMatchObject({ state: TaskState.Success, finishedAmount: 1_900_000, completionValues: { finishAmount: money(1_900_000) } });
    // A quick task (no performance) is restored and deleted by its id when the device's queue is pushed.
    const quick = await w.newQuickTask(alice);
    okData('performanceTaskFinish', await w.callWithId('performanceTaskFinish', quick.id, { token: alice.token, body: { configFields: { description: 'called' } } }));
    expect(await push('performance.restoreTask', { id: quick.id })).toMatchObject({ status: 'applied' });
    expect(await stateOf(quick.id)).toMatchObject({ state: TaskState.InProgress, completionValues: null });
    expect(await push('performance.restoreTask', { id: quick.id })).toMatchObject({ status: 'rejected', error: { code: 'conflict' } });
    expect(await push('performance.deleteTask', { id: quick.id })).toMatchObject({ status: 'applied' });
    expect(await stateOf(quick.id)).toBeUndefined();
  });

  it('an edit or a sheet save leaves the state as it was unless the due date moved: untouched rows stay not started (issue 28)', async () => {
    const { alice } = w.people;
    const receivable = w.performanceOf('receivable').id;
    const plan = await w.newPlan(alice, [{ name: 'a', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'b', expirationTime: future, receivableAmount: cny(1_000) }, { name: 'c', expirationTime: future, receivableAmount: cny(1_000) }]);
    const [a, b, c] = plan.taskList;
    await fixture.db.update(performanceTasks).set({ state: TaskState.NotStarted }).where(eq(performanceTasks.planId, plan.id));
    const before = (await stateOf(a!.id))!;
    okData('performancePlanSave', await w.callWithId('performancePlanSave', receivable, {
      token: alice.token, body: { contractID: plan.contractID, conditionType: 1, rows: [{ id: a!.id }, { id: b!.id, name: 'b!' }, { id: c!.id }, { name: 'added', expirationTime: future, receivableAmount: cny(1_000) }] },
    }));
    expect(await stateOf(a!.id)).toMatchObject({ state: TaskState.NotStarted, version: before.version, updateTime: before.updateTime });
    expect(await stateOf(b!.id)).toMatchObject({ name: 'b!', state: TaskState.NotStarted });
    okData('performanceTaskUpdate', await w.callWithId('performanceTaskUpdate', c!.id, { token: alice.token, body: { name: 'c!' } }));
    expect(await stateOf(c!.id)).toMatchObject({ name: 'c!', state: TaskState.NotStarted });
    // A new due date sets the state by the shared rule.
    okData('performancePlanSave', await w.callWithId('performancePlanSave', receivable, {
      token: alice.token, body: { contractID: plan.contractID, conditionType: 1, rows: [{ id: a!.id, expirationTime: past }, { id: b!.id }, { id: c!.id }] },
    }));
    expect((await stateOf(a!.id))!.state).toBe(TaskState.Overdue);
    expect((await stateOf(b!.id))!.state).toBe(TaskState.NotStarted);
  });

  it('deletes a plan task by performance id and plan id', async () => {
    const { alice, bob } = w.people;
    const receivable = w.performanceOf('receivable').id;
    const [a] = (await w.newPlan(alice, [{ name: 'a', expirationTime: future, receivableAmount: cny(1_000) }])).taskList;
    failure(await w.callWithId('performancePlanTaskDelete', receivable, { token: alice.token, body: {} }), 400, 'validation_failed');
    failure(await w.callWithId('performancePlanTaskDelete', receivable, { token: bob.token, body: { planID: a!.id } }), 404, 'not_found');
    failure(await w.callWithId('performancePlanTaskDelete', w.performanceOf('payment').id, { token: alice.token, body: { planID: a!.id } }), 404, 'not_found');
    failure(await w.callWithId('performancePlanTaskDelete', receivable, { token: alice.token, body: { planID: uuidv7() } }), 404, 'not_found');
    expect(okData('performancePlanTaskDelete', await w.callWithId('performancePlanTaskDelete', receivable, { token: alice.token, body: { planID: a!.id } }))).toEqual({ id: a!.id });
  });
});
