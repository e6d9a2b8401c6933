import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope } from '../../src-shared/api/sync';
import type { SheetColumn } from '../../src-shared/domain/performance';
import { contracts } from '../../src-server/db/schema';
import { followContract } from '../../src-server/performance/related-cells';
import { performancePlans, performanceTasks } from '../../src-server/performance/schema';
import { callEndpoint, describeOnDatabases, failure, okData } from './support';
import { performanceWorld, type PerformanceWorld } from './performance-fixture';

// The server refuses a plan save with an invalid sheet cell (src-shared/rules/sheet-cells), by
// REST and by a synced mutation alike, naming the row, the column and why, and writes nothing; a
// column that follows a contract field stores the contract's value and follows it when it changes.

const columns: SheetColumn[] = [
  { id: 'name', name: 'performance content', type: 'text', isRequired: true, isState: false },
  { id: 'expirationTime', name: 'performance date', type: 'date', isRequired: true, isState: false },
  { id: 'receivableAmount', name: 'receivable amount', type: 'money', isRequired: true, isState: false, config: { valueRange: { mode: 1, conditions: [{ comparator: 'lessOrEqual', value: '1000' }] } } },
  { id: 'leader', name: 'task leader', type: 'people', config: { singleSelect: true }, isRequired: false, isState: false },
  { id: 'qty', name: 'quantity', type: 'number', config: { valueRange: { mode: 2, conditions: [{ comparator: 'equal', value: '0' }, { comparator: 'greater', value: '10' }] } }, isRequired: false, isState: false },
  { id: 'grades', name: 'grades', type: 'multiselect', config: { options: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] }, isRequired: false, isState: false },
  { id: 'owners', name: 'owners', type: 'people', isRequired: false, isState: false },
  { id: 'when', name: 'when', type: 'performanceTime', config: { referenceNodes: [{ id: 'accept', name: 'acceptance' }] }, isRequired: false, isState: false },
  { id: 'buyer', name: 'buyer', type: 'outerParty', isRequired: false, isState: false },
  { id: 'note', name: 'note', type: 'textarea', isRequired: false, isState: false },
  { id: 'taskState', name: 'task state', type: 'select', isRequired: false, isState: true },
];

describeOnDatabases('sheet cells on the server', (fixture) => {
  let w: PerformanceWorld;
  beforeAll(async () => {
    w = await performanceWorld(fixture);
  });

  it('refuses an invalid cell by REST and by sync with its row, column and reason, and changes nothing', async () => {
    const { admin, alice } = w.people;
    const performance = okData('performanceCreate', await callEndpoint(w.app, 'performanceCreate', { token: admin.token, body: { name: 'Every column', type: 'receivable', columns } }));
    const contractID = await w.newContract(alice);
    const good = {
      name: 'Row 1', expirationTime: '2099-01-10', receivableAmount: { amount: 50_000, unit: 'CNY' },
      values: { qty: '12.5', grades: ['a', 'b'], owners: [{ id: alice.id, name: 'Alice' }], when: { conditionType: 1, nodeId: 'accept', days: [30] }, buyer: [{ id: 'p-1', name: 'Buyer Ltd' }], note: 'two\nlines' },
    };
    const save = (rows: unknown[]) => w.callWithId('performancePlanSave', performance.id, { token: alice.token, body: { contractID, conditionType: 1, rows } });
    const plan = okData('performancePlanSave', await save([good]));
    expect(plan.taskList[0]!.values).toMatchObject(good.values);
    const row = plan.taskList[0]!;
    const stored = async () => (await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.planId, plan.id))).map((t) => ({ ...t, updateTime: null }));
    const before = await stored();

    const cases: [unknown[], { row: number; column: string; problem: string }][] = [
      [[{ id: row.id, values: { qty: '5' } }], { row: 1, column: 'quantity', problem: 'valueRange' }],
      [[{ id: row.id, receivableAmount: { amount: 100_001, unit: 'CNY' } }], { row: 1, column: 'receivable amount', problem: 'valueRange' }],
      [[{ id: row.id }, { name: 'Row 2', expirationTime: '2099-02-10', receivableAmount: { amount: 0, unit: 'CNY' } }], { row: 2, column: 'receivable amount', problem: 'paymentAmount' }],
      [[{ id: row.id, values: { grades: ['c'] } }], { row: 1, column: 'grades', problem: 'invalid' }],
      [[{ id: row.id, values: { when: { conditionType: 1, nodeId: 'accept', days: [] } } }], { row: 1, column: 'when', problem: 'conditionTime' }],
      [[{ id: row.id, values: { note: 'x'.repeat(1001) } }], { row: 1, column: 'note', problem: 'tooLong' }],
      [[{ id: row.id, values: { buyer: Array.from({ length: 11 }, (_, i) => ({ id: `p-${i}`, name: `P ${i}` })) } }], { row: 1, column: 'buyer', problem: 'invalid' }],
    ];
    let seq = 1;
    const clientId = uuidv7();
    const [planRow] = await fixture.db.select().from(performancePlans).where(eq(performancePlans.id, plan.id));
    for (const [rows, params] of cases) {
      const refused = failure(await save(rows), 400, 'validation_failed');
      expect(refused.reason).toEqual({ key: 'sheetCellInvalid', params });
      const mutation: MutationEnvelope = {
        id: uuidv7(), seq: seq++, name: 'performance.savePlan',
        args: { performanceId: performance.id, planId: plan.id, plan: { contractID, conditionType: 1, rows }, baseCondition: { conditionType: 1, schedule: null } },
        baseVersions: { [`performancePlan:${plan.id}`]: planRow!.version, [`performanceTask:${row.id}`]: row.version },
      };
      const pushed = okData('syncPush', await callEndpoint(w.app, 'syncPush', { token: alice.token, body: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations: [mutation] } }));
      expect(pushed.results[0]).toMatchObject({ status: 'rejected', error: { code: 'validation_failed', reason: { key: 'sheetCellInvalid', params } } });
    }
    expect(await stored()).toEqual(before);
  });

  it('asks every new row for its required cells and refuses emptying one, by REST plan save, task edit, createPlan and a schedule (issue 28)', async () => {
    const { alice } = w.people;
    const payment = w.performanceOf('payment').id;
    const contractID = await w.newContract(alice);
    const params = (row: number, column: string, problem: string) => ({ key: 'sheetCellInvalid', params: { row, column, problem } });
    const save = (body: object) => w.callWithId('performancePlanSave', payment, { token: alice.token, body: { contractID, ...body } });
    // A new row without the required amount or date; nothing of the plan is made.
    expect(failure(await save({ conditionType: 1, rows: [{ name: 'No amount', expirationTime: '2099-01-10' }] }), 400, 'validation_failed')).toMatchObject({
      message: 'rows.0.payableAmount: please enter payable amount', reason: params(1, 'payable amount', 'paymentAmount'),
    });
    expect(failure(await save({ conditionType: 1, rows: [{ name: 'No date', payableAmount: { amount: 100, unit: 'CNY' } }] }), 400, 'validation_failed').reason).toEqual(params(1, 'performance date', 'enter'));
    // A schedule fills the column it names: a receivable one leaves the payment performance's amount empty.
    const schedule = { cycle: 'month', startDate: '2099-01-01', endDate: '2099-03-31', amount: { amount: 30_000, unit: 'CNY' }, name: 'Rent' };
    expect(failure(await save({ conditionType: 2, schedule: { ...schedule, direction: 'receivable' } }), 400, 'validation_failed').reason).toEqual(params(1, 'payable amount', 'paymentAmount'));
    expect(await fixture.db.select().from(performancePlans).where(eq(performancePlans.contractId, contractID))).toEqual([]);
    const plan = okData('performancePlanSave', await save({ conditionType: 2, schedule: { ...schedule, direction: 'payable' } }));
    expect(plan.taskList.map((task) => [task.expirationTime, task.payableAmount?.amount])).toEqual([['2099-01-31', 10_000], ['2099-02-28', 10_000], ['2099-03-31', 10_000]]);

    // A saved row keeps what it does not send, but a required cell is not emptied: by sheet save or task edit.
    const [first] = plan.taskList;
    expect(failure(await save({ conditionType: 1, rows: [{ id: first!.id, payableAmount: null }] }), 400, 'validation_failed').reason).toEqual(params(1, 'payable amount', 'paymentAmount'));
    const edit = (body: object) => w.callWithId('performanceTaskUpdate', first!.id, { token: alice.token, body });
    expect(failure(await edit({ payableAmount: null }), 400, 'validation_failed').reason).toEqual(params(1, 'payable amount', 'paymentAmount'));
    expect(failure(await edit({ expirationTime: null }), 400, 'validation_failed').reason).toEqual(params(1, 'performance date', 'enter'));
    expect(okData('performanceTaskUpdate', await edit({ name: 'Rent, January' })).payableAmount).toEqual({ amount: 10_000, unit: 'CNY' });
    expect((await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.id, first!.id)))[0]).toMatchObject({ payableAmount: 10_000, expirationTime: '2099-01-31' });

    // A plan made offline: its rows carry the ids the device made, and each is asked for every required cell.
    const other = await w.newContract(alice);
    const mutation: MutationEnvelope = {
      id: uuidv7(), seq: 1, name: 'performance.createPlan', baseVersions: {},
      args: { planId: uuidv7(), performanceId: payment, performance: { name: 'shown', type: 'payment', columns: [], fields: [] }, plan: { contractID: other, conditionType: 1, rows: [{ id: uuidv7(), name: 'By hand', expirationTime: '2099-01-10' }] } },
    };
    const pushed = okData('syncPush', await callEndpoint(w.app, 'syncPush', { token: alice.token, body: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId: uuidv7(), mutations: [mutation] } }));
    expect(pushed.results[0]).toMatchObject({ status: 'rejected', error: { code: 'validation_failed', reason: params(1, 'payable amount', 'paymentAmount') } });
    expect(await fixture.db.select().from(performancePlans).where(eq(performancePlans.contractId, other))).toEqual([]);
  });

  it('stores the contract value in a related cell whatever the save sent, and follows the contract when its values change', async () => {
    const { admin, alice } = w.people;
    const related: SheetColumn[] = [
      ...columns.filter((c) => ['name', 'expirationTime', 'taskState'].includes(c.id)),
      { id: 'price', name: 'unit price', type: 'number', config: { relatedFieldId: 'f_price' }, isRequired: false, isState: false },
      { id: 'site', name: 'site', type: 'text', config: { relatedFieldId: 'f_site' }, isRequired: false, isState: false },
    ];
    failure(await callEndpoint(w.app, 'performanceCreate', { token: admin.token, body: { name: 'Bad relation', type: 'custom', columns: [{ ...related[0]!, config: { relatedFieldId: 'f_site' } }] } }), 400, 'validation_failed');
    const performance = okData('performanceCreate', await callEndpoint(w.app, 'performanceCreate', { token: admin.token, body: { name: 'Follows the contract', type: 'custom', columns: related } }));
    const contractID = await w.newContract(alice);
    await fixture.db.update(contracts).set({ formValues: { f_price: '88.5', f_site: 'North yard' } }).where(eq(contracts.id, contractID));
    const plan = okData(
      'performancePlanSave',
      await w.callWithId('performancePlanSave', performance.id, { token: alice.token, body: { contractID, conditionType: 1, rows: [{ name: 'Delivery', expirationTime: '2099-03-01', values: { price: '1', site: 'typed' } }] } }),
    );
    const [task] = plan.taskList;
    expect(task!.values).toEqual({ price: '88.5', site: 'North yard' });

    // The contract changes (an edit or an alteration): the related cells follow, the version moves so the feed sends them.
    await fixture.db.update(contracts).set({ formValues: { f_price: '90', f_site: 'North yard' } }).where(eq(contracts.id, contractID));
    await followContract(fixture.db, contractID, { f_price: '90', f_site: 'North yard' });
    const [after] = await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.id, task!.id));
    expect(after!.values).toEqual({ price: '90', site: 'North yard' });
    expect(after!.version).toBe(task!.version + 1);
    // Unchanged values touch nothing.
    await followContract(fixture.db, contractID, { f_price: '90', f_site: 'North yard' });
    expect((await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.id, task!.id)))[0]!.version).toBe(after!.version);
  });
});
