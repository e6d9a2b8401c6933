import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { reminderTaskKinds, TaskState } from '../../src-shared/domain/enums';
import { organisationDay } from '../../src-shared/rules/performance';
import { performances, performanceTasks, reminderSettings } from '../../src-server/performance/schema';
import { seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, failure, okData, queryRows } from './support';
import { cny, future, performanceWorld, type PerformanceWorld } from './performance-fixture';

const missing = '0190a000-0000-7000-8000-000000000000';

describeOnDatabases('performances, plans and the dashboard', (fixture) => {
  let w: PerformanceWorld;
  beforeAll(async () => {
    w = await performanceWorld(fixture);
  });

  it('lists the seeded performances with their sheet columns and completion fields, filtered by type', async () => {
    const { performanceList } = okData('performanceList', await callEndpoint(w.app, 'performanceList', { token: w.people.alice.token }));
    expect(performanceList.map((p) => p.type)).toEqual(['receivable', 'payment', 'invoicing', 'expiration', 'recall']);
    expect(performanceList[0]!.columns.find((c) => c.type === 'money')?.id).toBe('receivableAmount');
    expect(performanceList[0]!.fields.length).toBeGreaterThan(0);
    const filtered = okData('performanceList', await callEndpoint(w.app, 'performanceList', { token: w.people.alice.token, query: { type: 'invoicing' } }));
    expect(filtered.performanceList.map((p) => p.name)).toEqual(['开票履约']);
    const bad = failure(await callEndpoint(w.app, 'performanceList', { token: w.people.alice.token, query: { type: 'bogus' } }), 400, 'validation_failed');
    expect(bad.message).toContain('type');
  });

  it('answers the default form of a type', async () => {
    const form = okData('performanceDefaultForm', await callEndpoint(w.app, 'performanceDefaultForm', { token: w.people.bob.token, query: { type: 'payment' } }));
    expect(form.columns.map((c) => c.id)).toContain('payableAmount');
    failure(await callEndpoint(w.app, 'performanceDefaultForm', { token: w.people.bob.token }), 400, 'validation_failed');
  });

  it('lets administrators create, change and delete a performance; staff get 403', async () => {
    const { admin, alice } = w.people;
    const body = { name: '验收履约', type: 'recall', columns: [{ id: 'name', name: 'content', type: 'text' }] };
    failure(await callEndpoint(w.app, 'performanceCreate', { token: alice.token, body }), 403, 'forbidden');
    const bad = failure(await callEndpoint(w.app, 'performanceCreate', { token: admin.token, body: { ...body, name: '' } }), 400, 'validation_failed');
    expect(bad.message).toContain('name');
    failure(await callEndpoint(w.app, 'performanceCreate', { token: admin.token, body: { ...body, extra: 1 } }), 400, 'validation_failed');
    const created = okData('performanceCreate', await callEndpoint(w.app, 'performanceCreate', { token: admin.token, body }));
    expect(created).toMatchObject({ name: '验收履约', type: 'recall', fields: [], version: 1 });

    failure(await w.callWithId('performanceUpdate', created.id, { token: alice.token, body: { name: 'x' } }), 403, 'forbidden');
    failure(await w.callWithId('performanceUpdate', created.id, { token: admin.token, body: { columns: [] } }), 400, 'validation_failed');
    failure(await w.callWithId('performanceUpdate', created.id, { token: admin.token, body: { name: 'x' }, headers: { 'if-match': '9' } }), 409, 'conflict');
    failure(await w.callWithId('performanceUpdate', missing, { token: admin.token, body: { name: 'x' } }), 404, 'not_found');
    const updated = okData('performanceUpdate', await w.callWithId('performanceUpdate', created.id, { token: admin.token, body: { name: '验收' }, headers: { 'if-match': '1' } }));
    expect(updated).toMatchObject({ name: '验收', version: 2 });

    failure(await w.callWithId('performanceDelete', created.id, { token: alice.token }), 403, 'forbidden');
    failure(await w.callWithId('performanceDelete', w.performanceOf('receivable').id, { token: admin.token }), 409, 'conflict');
    expect(okData('performanceDelete', await w.callWithId('performanceDelete', created.id, { token: admin.token }))).toEqual({ id: created.id });
    failure(await w.callWithId('performanceDelete', created.id, { token: admin.token }), 404, 'not_found');
    expect(await fixture.db.select().from(performances).where(eq(performances.id, created.id))).toEqual([]);
  });

  it('saves a plan: rows added and updated, unfinished rows left out removed, finished rows kept read-only', async () => {
    const { alice, bob } = w.people;
    const receivable = w.performanceOf('receivable').id;
    const plan = await w.newPlan(alice, [
      { name: 'one', expirationTime: future, receivableAmount: { amount: 100, unit: 'CNY' } },
      { name: 'two', expirationTime: future, receivableAmount: cny(1_000) },
      { name: 'three', expirationTime: future, receivableAmount: cny(1_000) },
    ]);
    expect(plan.taskList.map((t) => [t.taskName, t.rowIndex, t.type])).toEqual([['one', 1, 'receivable'], ['two', 2, 'receivable'], ['three', 3, 'receivable']]);
    const [one, two, three] = plan.taskList;
    okData('performanceTaskFinish', await w.callWithId('performanceTaskFinish', one!.id, { token: alice.token }));

    const saved = okData('performancePlanSave', await w.callWithId('performancePlanSave', receivable, {
      token: alice.token, body: { contractID: plan.contractID, conditionType: 1, rows: [{ id: three!.id, name: 'three!' }, { name: 'four', expirationTime: future, receivableAmount: cny(1_000) }] },
    }));
    expect(saved.version).toBe(plan.version + 1);
    expect(saved.taskList.map((t) => [t.taskName, t.rowIndex])).toEqual([['one', 1], ['three!', 3], ['four', 4]]);
    expect(saved.taskList.find((t) => t.id === two!.id)).toBeUndefined();

    failure(await w.callWithId('performancePlanSave', receivable, {
      token: alice.token, body: { contractID: plan.contractID, conditionType: 1, rows: [{ id: one!.id, name: 'changed' }] },
    }), 409, 'conflict');
    const noName = failure(await w.callWithId('performancePlanSave', receivable, {
      token: alice.token, body: { contractID: plan.contractID, conditionType: 1, rows: [{ expirationTime: future }] },
    }), 400, 'validation_failed');
    expect(noName.message).toContain('rows.0.name');
    failure(await w.callWithId('performancePlanSave', receivable, { token: bob.token, body: { contractID: plan.contractID, conditionType: 1, rows: [] } }), 404, 'not_found');
    failure(await w.callWithId('performancePlanSave', missing, { token: alice.token, body: { contractID: plan.contractID, conditionType: 1, rows: [] } }), 404, 'not_found');

    const form = okData('performanceForm', await w.callWithId('performanceForm', receivable, { token: alice.token, query: { contractID: plan.contractID } }));
    expect(form.plan?.taskList.map((t) => t.taskName)).toEqual(['one', 'three!', 'four']);
    failure(await w.callWithId('performanceForm', receivable, { token: bob.token, query: { contractID: plan.contractID } }), 404, 'not_found');
    failure(await w.callWithId('performanceForm', missing, { token: alice.token }), 404, 'not_found');
    failure(await w.callWithId('performanceForm', receivable, { token: alice.token, query: { contractID: 'x'.repeat(65) } }), 400, 'validation_failed');

    const byContract = okData('performanceTasksByContract', await callEndpoint(w.app, 'performanceTasksByContract', { token: alice.token, query: { contractID: plan.contractID } }));
    expect(byContract.list.map((t) => t.taskName)).toEqual(['one', 'three!', 'four']);
    failure(await callEndpoint(w.app, 'performanceTasksByContract', { token: bob.token, query: { contractID: plan.contractID } }), 404, 'not_found');
    failure(await callEndpoint(w.app, 'performanceTasksByContract', { token: alice.token, query: { contractID: '' } }), 400, 'validation_failed');
  });

  it('generates a periodic plan: one task per month, the first and last prorated, summing to the total', async () => {
    const { alice } = w.people;
    const contractID = await w.newContract(alice);
    const schedule = { cycle: 'month', startDate: '2030-01-16', endDate: '2030-03-15', amount: { amount: 200_000, unit: 'CNY' }, direction: 'receivable', name: '租金' };
    const plan = okData('performancePlanSave', await w.callWithId('performancePlanSave', w.performanceOf('receivable').id, {
      token: alice.token, body: { contractID, conditionType: 2, schedule },
    }));
    expect(plan.schedule).toMatchObject({ cycle: 'month' });
    expect(plan.taskList.map((t) => [t.expirationTime, t.receivableAmount?.amount, t.type])).toEqual([
      ['2030-01-31', 51_613, 'receivable'], ['2030-02-28', 100_000, 'receivable'], ['2030-03-15', 48_387, 'receivable'],
    ]);
    const missingSchedule = failure(await w.callWithId('performancePlanSave', w.performanceOf('receivable').id, {
      token: alice.token, body: { contractID, conditionType: 2 },
    }), 400, 'validation_failed');
    expect(missingSchedule.message).toContain('schedule');
    const runaway = failure(await w.callWithId('performancePlanSave', w.performanceOf('receivable').id, {
      token: alice.token, body: { contractID, conditionType: 2, schedule: { ...schedule, cycle: 'day', endDate: '2040-01-01' } },
    }), 400, 'validation_failed');
    expect(runaway.message).toContain('schedule');
    const rows = await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.contractId, contractID));
    expect(rows).toHaveLength(3);
  });

  it('counts the visible tasks of a date range by state, as the rule decides visibility', async () => {
    const range = { startDate: '2025-11-01', endDate: '2026-10-31' };
    const today = organisationDay(new Date());
    const count = async (visibility: ReturnType<typeof sql>) => {
      const [row] = await queryRows<Record<string, number>>(fixture.db, sql`
        select count(*)::int as total,
          count(*) filter (where state = 4)::int as completed,
          count(*) filter (where state = 3 or (state in (1, 2) and expiration_time < ${today}::date))::int as overdue
        from performance_tasks t left join contracts c on c.id = t.contract_id
        where t.expiration_time between ${range.startDate}::date and ${range.endDate}::date and (${visibility})`);
      return row!;
    };
    const { admin, alice } = w.people;
    const all = okData('performanceStatistics', await callEndpoint(w.app, 'performanceStatistics', { token: admin.token, query: range }));
    // Every contract's tasks, and only the quick tasks the admin created or leads (the feed's rule).
    const expectedAll = await count(sql`(c.id is not null) or (t.contract_id is null and (t.created_by = ${admin.id} or t.leader_user_id = ${admin.id}))`);
    expect(expectedAll.total).toBeLessThan((await count(sql`true`)).total!);
    expect(all).toMatchObject({ total: expectedAll.total, completedCount: expectedAll.completed, overdueCount: expectedAll.overdue });
    expect(all.total).toBe(all.ongoingCount + all.completedCount + all.toBeImprovedCount + all.overdueCount);

    const mine = okData('performanceStatistics', await callEndpoint(w.app, 'performanceStatistics', { token: alice.token, query: range }));
    const expectedMine = await count(sql`(c.id is not null and (c.responsible_user_id = ${alice.id} or c.department_id = ${alice.departmentId}))
      or (t.contract_id is null and (t.created_by = ${alice.id} or t.leader_user_id = ${alice.id}))`);
    expect(mine).toMatchObject({ total: expectedMine.total, completedCount: expectedMine.completed, overdueCount: expectedMine.overdue });
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.total).toBeLessThan(all.total);

    const reversed = failure(await callEndpoint(w.app, 'performanceStatistics', { token: alice.token, query: { startDate: '2026-02-01', endDate: '2026-01-01' } }), 400, 'validation_failed');
    expect(reversed.message).toContain('endDate');
    failure(await callEndpoint(w.app, 'performanceStatistics', { token: alice.token, query: { startDate: 'yesterday', endDate: '2026-01-01' } }), 400, 'validation_failed');
  });

  it('answers the reminder board: every day of the range with the visible tasks due that day', async () => {
    const { alice, bob } = w.people;
    const own = (await w.newPlan(alice, [{ name: 'board', expirationTime: '2098-03-02', receivableAmount: cny(1_000) }])).taskList[0]!;
    (await w.newPlan(bob, [{ name: 'bob board', expirationTime: '2098-03-02', receivableAmount: cny(1_000) }]));
    const days = okData('performanceTaskScheduling', await callEndpoint(w.app, 'performanceTaskScheduling', { token: alice.token, query: { startDate: '2098-03-01', endDate: '2098-03-07' } }));
    expect(days.map((d) => d.date)).toEqual(['2098-03-01', '2098-03-02', '2098-03-03', '2098-03-04', '2098-03-05', '2098-03-06', '2098-03-07']);
    expect(days[1]!.taskList.map((t) => t.id)).toEqual([own.id]);
    expect(days[1]).toMatchObject({ total: 1 });
    const seeded = okData('performanceTaskScheduling', await callEndpoint(w.app, 'performanceTaskScheduling', { token: w.people.admin.token, query: { startDate: '2026-10-01', endDate: '2026-10-30' } }));
    expect(seeded.every((d) => d.taskList.every((t) => t.date === d.date) && d.taskList.length <= d.total)).toBe(true);
    expect(seeded.some((d) => d.taskList.length > 0)).toBe(true);
    expect(seeded.every((d) => d.taskList.length === Math.min(d.total, 20))).toBe(true);
    const tooLong = failure(await callEndpoint(w.app, 'performanceTaskScheduling', { token: alice.token, query: { startDate: '2026-01-01', endDate: '2026-12-31' } }), 400, 'validation_failed');
    expect(tooLong.message).toContain('endDate');
  });

  it('reads and saves reminder settings, refusing a kind without a time-node reminder type', async () => {
    const { carol, bob } = w.people;
    const seeded = okData('performanceReminderSettings', await callEndpoint(w.app, 'performanceReminderSettings', { token: carol.token }));
    expect(Object.keys(seeded).sort()).toEqual([...reminderTaskKinds].sort());
    const settings = { ...seeded, othersTask: { timeNode: { reminderTypes: ['other'], otherTimes: ['twoWeeks'] }, condition: { reminderType: 'daily' }, overTime: { reminderType: 'monthly' }, reminderTime: '07:15' } };
    expect(okData('performanceReminderSettingsSave', await callEndpoint(w.app, 'performanceReminderSettingsSave', { token: carol.token, body: settings }))).toEqual(settings);
    expect(okData('performanceReminderSettings', await callEndpoint(w.app, 'performanceReminderSettings', { token: carol.token }))).toEqual(settings);
    // Each user has their own: Bob's are untouched.
    expect(okData('performanceReminderSettings', await callEndpoint(w.app, 'performanceReminderSettings', { token: bob.token })).othersTask.reminderTime).not.toBe('07:15');

    const none = { ...settings, invoiceTask: { ...settings.othersTask, timeNode: { reminderTypes: [], otherTimes: [] } } };
    const refused = failure(await callEndpoint(w.app, 'performanceReminderSettingsSave', { token: carol.token, body: none }), 400, 'validation_failed');
    expect(refused.message).toContain('invoiceTask.timeNode.reminderTypes: Please set the reminder for the date or the node time of performance');
    failure(await callEndpoint(w.app, 'performanceReminderSettingsSave', { token: carol.token, body: { ...settings, extra: {} } }), 400, 'validation_failed');
    const [stored] = await fixture.db.select().from(reminderSettings).where(and(eq(reminderSettings.userId, carol.id)));
    expect(stored!.settings).toEqual(settings);
  });

  it('seeds ~4 tasks per contract around the demo date: finished, overdue and pending ones, amounts in hundredths', async () => {
    const [row] = await queryRows<{ contracts: number; tasks: number; finished: number; overdue: number; pending: number; fractional: number }>(fixture.db, sql`
      select (select count(*) from contracts)::int as contracts,
        count(*) filter (where contract_id is not null)::int as tasks,
        count(*) filter (where state = ${TaskState.Success})::int as finished,
        count(*) filter (where state = ${TaskState.Overdue})::int as overdue,
        count(*) filter (where state in (1, 2))::int as pending,
        count(*) filter (where receivable_amount is not null and receivable_amount <> floor(receivable_amount))::int as fractional
      from performance_tasks`);
    expect(row!.tasks / row!.contracts).toBeGreaterThan(3);
    expect(row!.finished).toBeGreaterThan(0);
    expect(row!.overdue).toBeGreaterThan(0);
    expect(row!.pending).toBeGreaterThan(0);
    expect(row!.fractional).toBe(0);
  });

  it('seeds the same performance rows for the same seed', async () => {
    const snapshot = () =>
      queryRows(fixture.db, sql`select id, plan_id, contract_id, performance_id, name, type, state, row_index, expiration_time::text,
        payable_amount, receivable_amount, amount_unit, leader_user_id, finished_amount from performance_tasks order by id`);
    await seedDatabase(fixture.db, { contracts: 60, seed: 3 });
    const first = await snapshot();
    const relations = await queryRows(fixture.db, sql`select * from performance_task_relations order by task_id`);
    await seedDatabase(fixture.db, { contracts: 60, seed: 3 });
    expect(await snapshot()).toEqual(first);
    expect(await queryRows(fixture.db, sql`select * from performance_task_relations order by task_id`)).toEqual(relations);
    expect(first.length).toBeGreaterThan(200);
  });
});
