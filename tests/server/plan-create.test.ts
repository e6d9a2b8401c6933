import { asc, eq, inArray } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope, type MutationResult } from '../../src-shared/api/sync';
import { ContractStatus, TaskState } from '../../src-shared/domain/enums';
import { auditEvents } from '../../src-server/audit/schema';
import { contracts } from '../../src-server/db/schema';
import { performancePlans, performanceTasks } from '../../src-server/performance/schema';
import { callEndpoint, describeOnDatabases, failure, okData } from './support';
import { cny, future, performanceWorld, type PerformanceWorld } from './performance-fixture';

// Adding a plan to a contract (issue 28 item 2): the offline mutation performance.createPlan is
// applied with the plan and task ids the device made, exactly once however often it is pushed;
// it is refused when the contract's status may not have plans (the shared rule, also on the REST
// plan save that creates a plan) and when the contract has a plan under the performance already.

const schedule = { cycle: 'month', startDate: '2027-01-15', endDate: '2027-12-20', amount: { amount: 1_200_000, unit: 'CNY' }, direction: 'payable', name: 'Rent' } as const;

describeOnDatabases('adding a plan to a contract', (fixture) => {
  let world: PerformanceWorld;
  let seq = 1;
  const clientId = uuidv7();

  beforeAll(async () => {
    world = await performanceWorld(fixture);
  });

  const push = async (mutations: MutationEnvelope[]): Promise<MutationResult[]> =>
    okData('syncPush', await callEndpoint(world.app, 'syncPush', {
      token: world.people.alice.token,
      body: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations },
    })).results;

  /** A createPlan of alice's on `contractID`: a 12-month payable schedule and a row typed by hand. */
  function creation(contractID: string, performanceId = world.performanceOf('payment').id) {
    const planId = uuidv7();
    const scheduleTaskIds = Array.from({ length: 12 }, () => uuidv7());
    const handRow = { id: uuidv7(), name: 'Invoice for the deposit', expirationTime: future, payableAmount: cny(50_000), values: { remark: 'by hand' } };
    const args = { planId, performanceId, performance: { name: 'shown name', type: 'payment', columns: [], fields: [] }, plan: { contractID, conditionType: 2, schedule, scheduleTaskIds, rows: [handRow] } };
    return { planId, ids: [...scheduleTaskIds, handRow.id], envelope: (): MutationEnvelope => ({ id: uuidv7(), seq: seq++, name: 'performance.createPlan', args, baseVersions: {} }) };
  }

  const tasksOf = (planId: string) => fixture.db.select().from(performanceTasks).where(eq(performanceTasks.planId, planId)).orderBy(asc(performanceTasks.rowIndex));

  it('makes the plan and its rows with the ids the device made, prorated ends included, and a replay makes nothing more', async () => {
    const contractID = await world.newContract(world.people.alice);
    const { planId, ids, envelope } = creation(contractID);
    const mutation = envelope();
    const [result] = await push([mutation]);
    expect(result, JSON.stringify(result)).toMatchObject({ status: 'applied' });
    // Every row the device showed has its version in the answer, so the device knows when the pull brought it.
    expect(Object.keys((result as { versions: Record<string, number> }).versions).sort()).toEqual([`performancePlan:${planId}`, ...ids.map((id) => `performanceTask:${id}`)].sort());
    const tasks = await tasksOf(planId);
    expect(tasks.map((task) => task.id)).toEqual(ids);
    expect(tasks.map((task) => task.rowIndex)).toEqual(ids.map((_, i) => i + 1));
    expect(tasks[0]).toMatchObject({ name: 'Rent 2027-01-15~2027-01-31', expirationTime: '2027-01-31', type: 'payable', amountUnit: 'CNY', leaderUserId: world.people.alice.id, state: TaskState.InProgress });
    expect(tasks[11]).toMatchObject({ name: 'Rent 2027-12-01~2027-12-20', expirationTime: '2027-12-20' });
    expect(tasks.slice(0, 12).reduce((sum, task) => sum + task.payableAmount!, 0)).toBe(1_200_000);
    // Prorated by days: 17 of 31 days in January, 20 of 31 in December, a full month between.
    expect(tasks[0]!.payableAmount).toBeLessThan(tasks[1]!.payableAmount!);
    expect(tasks[11]!.payableAmount).toBeLessThan(tasks[10]!.payableAmount!);
    expect(tasks[12]).toMatchObject({ name: 'Invoice for the deposit', values: { remark: 'by hand' }, payableAmount: 50_000 });
    const [plan] = await fixture.db.select().from(performancePlans).where(eq(performancePlans.id, planId));
    expect(plan).toMatchObject({ contractId: contractID, conditionType: 2, schedule });

    // The same mutation pushed again (its answer lost on the way): the stored answer, nothing made twice.
    expect(await push([mutation])).toEqual([result]);
    expect(await tasksOf(planId)).toHaveLength(13);
  });

  it('refuses a second plan under the same performance, made elsewhere meanwhile, and writes nothing of it', async () => {
    const contractID = await world.newContract(world.people.alice);
    const first = creation(contractID);
    const second = creation(contractID);
    const [applied, refused] = await push([first.envelope(), second.envelope()]);
    expect(applied).toMatchObject({ status: 'applied' });
    expect(refused).toMatchObject({ status: 'rejected', error: { code: 'conflict', reason: { key: 'planExists' } } });
    expect(await fixture.db.select().from(performancePlans).where(eq(performancePlans.contractId, contractID))).toHaveLength(1);
    expect(await tasksOf(second.planId)).toHaveLength(0);
    // Another performance of the same contract takes its own plan.
    const [other] = await push([creation(contractID, world.performanceOf('invoicing').id).envelope()]);
    expect(other).toMatchObject({ status: 'applied' });
  });

  it('writes a push of several plans together as one by one: rows numbered on per contract, each its versions and audit event; one refused among them alone', async () => {
    const [one, two] = [await world.newContract(world.people.alice), await world.newContract(world.people.alice)];
    const alone = creation(one);
    const aloneMutation = alone.envelope();
    expect((await push([aloneMutation]))[0]).toMatchObject({ status: 'applied' });
    // Together: a second plan of `one` (another performance), two of `two`.
    const batch = [creation(one, world.performanceOf('invoicing').id), creation(two), creation(two, world.performanceOf('invoicing').id)];
    const mutations = batch.map((made) => made.envelope());
    const results = await push(mutations);
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    for (const [i, made] of batch.entries()) {
      const versions = (results[i] as { versions: Record<string, number> }).versions;
      expect(Object.keys(versions).sort()).toEqual([`performancePlan:${made.planId}`, ...made.ids.map((id) => `performanceTask:${id}`)].sort());
    }
    expect((await tasksOf(batch[0]!.planId)).map((task) => task.rowIndex)).toEqual(batch[0]!.ids.map((_, i) => 14 + i));
    expect((await tasksOf(batch[1]!.planId)).map((task) => task.rowIndex)).toEqual(batch[1]!.ids.map((_, i) => 1 + i));
    expect((await tasksOf(batch[2]!.planId)).map((task) => task.rowIndex)).toEqual(batch[2]!.ids.map((_, i) => 14 + i));
    // Each plan's audit event names its plan and every field of its rows, as the plan pushed alone.
    const events = await fixture.db.select().from(auditEvents).where(inArray(auditEvents.mutationId, [aloneMutation.id, ...mutations.map((m) => m.id)]));
    const eventOf = (id: string) => events.find((event) => event.mutationId === id)!;
    const shape = (id: string, made: { planId: string; ids: string[] }) => {
      const names = [made.planId, ...made.ids];
      return Object.keys(eventOf(id).changes).map((key) => key.replace(/^(\w+):([^/]+)/, (_, entity: string, rowId: string) => `${entity}:${names.indexOf(rowId)}`)).sort();
    };
    expect(eventOf(mutations[1]!.id)).toMatchObject({ action: 'performance.createPlan', entity: 'performancePlan', entityId: batch[1]!.planId });
    expect(shape(mutations[1]!.id, batch[1]!)).toEqual(shape(aloneMutation.id, alone));

    // A plan refused among others (here: `two` has its payment plan already) is refused alone; the others apply.
    const [three, four] = [await world.newContract(world.people.alice), await world.newContract(world.people.alice)];
    const mixed = [creation(three), creation(two), creation(four)];
    const mixedResults = await push(mixed.map((made) => made.envelope()));
    expect(mixedResults.map((r) => r.status)).toEqual(['applied', 'rejected', 'applied']);
    expect(mixedResults[1]).toMatchObject({ error: { code: 'conflict', reason: { key: 'planExists' } } });
    expect(await tasksOf(mixed[0]!.planId)).toHaveLength(13);
    expect(await tasksOf(mixed[1]!.planId)).toHaveLength(0);
    expect(await tasksOf(mixed[2]!.planId)).toHaveLength(13);
  });

  it.each([
    [ContractStatus.Drafting],
    [ContractStatus.UnderApproval],
    [ContractStatus.ApprovalRejected],
  ])('refuses a plan on a contract of status %s, by sync and by the REST save that would create one', async (status) => {
    const contractID = await world.newContract(world.people.alice);
    await fixture.db.update(contracts).set({ status }).where(eq(contracts.id, contractID));
    const { planId, envelope } = creation(contractID);
    const [result] = await push([envelope()]);
    expect(result).toMatchObject({ status: 'rejected', error: { code: 'conflict', reason: { key: 'planStatus', params: { status, allowed: [4, 5] } } } });
    expect(await fixture.db.select().from(performancePlans).where(eq(performancePlans.id, planId))).toHaveLength(0);
    const rest = await world.callWithId('performancePlanSave', world.performanceOf('payment').id, { token: world.people.alice.token, body: { contractID, conditionType: 0, rows: [{ name: 'By REST', expirationTime: future, payableAmount: cny(1_000) }] } });
    expect(failure(rest, 409, 'conflict').reason).toMatchObject({ key: 'planStatus' });
    expect(await fixture.db.select().from(performancePlans).where(eq(performancePlans.contractId, contractID))).toHaveLength(0);
  });

  it('takes a plan on an archived contract', async () => {
    const contractID = await world.newContract(world.people.alice);
    await fixture.db.update(contracts).set({ status: ContractStatus.Archived }).where(eq(contracts.id, contractID));
    const [result] = await push([creation(contractID).envelope()]);
    expect(result).toMatchObject({ status: 'applied' });
  });

  it('refuses bad input with a clear message and writes nothing: a schedule that makes another number of rows, a row without a name, a taken id', async () => {
    const contractID = await world.newContract(world.people.alice);
    const { envelope } = creation(contractID);
    const base = envelope();
    const args = base.args as { plan: { scheduleTaskIds: string[]; rows: { id: string; name: string }[] } };
    const fewer = { ...base, id: uuidv7(), seq: seq++, args: { ...args, plan: { ...args.plan, scheduleTaskIds: args.plan.scheduleTaskIds.slice(1) } } };
    const nameless = { ...base, id: uuidv7(), seq: seq++, args: { ...args, plan: { ...args.plan, rows: [{ id: uuidv7(), name: '' }] } } };
    const [a, b] = await push([fewer, nameless]);
    expect(a).toMatchObject({ status: 'rejected', error: { code: 'validation_failed', message: expect.stringContaining('the schedule makes 12 rows, not 11') } });
    expect(b).toMatchObject({ status: 'rejected', error: { code: 'validation_failed' } });
    expect(await fixture.db.select().from(performancePlans).where(eq(performancePlans.contractId, contractID))).toHaveLength(0);
    // A task id in use already (here: by a plan of another contract): refused, nothing of it written.
    const taken = creation(await world.newContract(world.people.alice));
    expect((await push([taken.envelope()]))[0]).toMatchObject({ status: 'applied' });
    const reuse = { ...base, id: uuidv7(), seq: seq++, args: { ...args, plan: { ...args.plan, rows: [{ id: taken.ids[12]!, name: 'Reused id', expirationTime: future, payableAmount: cny(1_000) }] } } };
    expect((await push([reuse]))[0]).toMatchObject({ status: 'rejected', error: { code: 'conflict' } });
    expect(await fixture.db.select().from(performancePlans).where(eq(performancePlans.contractId, contractID))).toHaveLength(0);
  });

  it('removes a plan with its rows by REST and by sync, unless a row is finished; a removal made offline refuses rows added unseen', async () => {
    const performanceId = world.performanceOf('payment').id;
    const made = async () => {
      const contractID = await world.newContract(world.people.alice);
      const created = creation(contractID);
      expect((await push([created.envelope()]))[0]).toMatchObject({ status: 'applied' });
      return { contractID, ...created };
    };
    const remove = (contractID: string) => world.callWithId('performancePlanDelete', performanceId, { token: world.people.alice.token, query: { contractID } });

    const byRest = await made();
    expect(okData('performancePlanDelete', await remove(byRest.contractID))).toEqual({ id: byRest.planId });
    expect(await tasksOf(byRest.planId)).toHaveLength(0);
    expect(await fixture.db.select().from(performancePlans).where(eq(performancePlans.id, byRest.planId))).toHaveLength(0);
    failure(await remove(byRest.contractID), 404, 'not_found');

    // A finished row stays, and so does its plan: by REST and by sync alike.
    const finished = await made();
    await fixture.db.update(performanceTasks).set({ state: TaskState.Success }).where(eq(performanceTasks.id, finished.ids[0]!));
    expect(failure(await remove(finished.contractID), 409, 'conflict').reason).toMatchObject({ key: 'planHasFinished' });
    const versions = async (ids: string[]) => Object.fromEntries((await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.planId, finished.planId))).filter((task) => ids.includes(task.id)).map((task) => [`performanceTask:${task.id}`, task.version]));
    const removal = (planId: string, taskIds: string[], baseVersions: Record<string, number>): MutationEnvelope => ({ id: uuidv7(), seq: seq++, name: 'performance.deletePlan', args: { performanceId, planId, taskIds }, baseVersions });
    expect((await push([removal(finished.planId, finished.ids, await versions(finished.ids))]))[0]).toMatchObject({ status: 'rejected', error: { reason: { key: 'planHasFinished' } } });
    expect(await tasksOf(finished.planId)).toHaveLength(13);

    // Offline: the rows its user saw go; a row added elsewhere meanwhile refuses the removal.
    const offline = await made();
    const seen = Object.fromEntries((await tasksOf(offline.planId)).map((task) => [`performanceTask:${task.id}`, task.version]));
    const added = await world.callWithId('performancePlanSave', performanceId, {
      token: world.people.alice.token, body: { contractID: offline.contractID, conditionType: 1, rows: [...offline.ids.map((id) => ({ id })), { name: 'Added elsewhere', expirationTime: future, payableAmount: cny(1_000) }] },
    });
    expect(added.status).toBe(200);
    expect((await push([removal(offline.planId, offline.ids, seen)]))[0]).toMatchObject({ status: 'rejected', error: { code: 'conflict', message: expect.stringContaining('Added elsewhere') } });
    expect(await tasksOf(offline.planId)).toHaveLength(14);
    const all = (await tasksOf(offline.planId)).map((task) => task.id);
    const current = Object.fromEntries((await tasksOf(offline.planId)).map((task) => [`performanceTask:${task.id}`, task.version]));
    const result = (await push([removal(offline.planId, all, current)]))[0];
    expect(result).toMatchObject({ status: 'applied' });
    expect(await tasksOf(offline.planId)).toHaveLength(0);
    expect(await fixture.db.select().from(performancePlans).where(eq(performancePlans.id, offline.planId))).toHaveLength(0);
  });
});
