import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope, type MutationResult } from '../../src-shared/api/sync';
import { entityFieldGroups } from '../../src-shared/sync/field-versions';
import { contracts, users } from '../../src-server/db/schema';
import { performancePlans, performances, performanceTasks } from '../../src-server/performance/schema';
import { ledgerScenes } from '../../src-server/ledger/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, okData, queryRows, signIn } from './support';

// Per-field merge beyond contracts (issue 12 items 3 and 4): tasks, plans and scenes keep a
// version per field group (server migrations 0024/0025). An edit of a moved row merges unless a
// group it changes moved too; a task's state steps stay decided by the state at apply time. The
// triggers' groups are the shared ones (entityFieldGroups), so client and server name them alike.

const alice = demoUsers.find((u) => u.username === 'alice')!;

describeOnDatabases('sync push: per-field merge of tasks, plans and scenes', (fixture) => {
  let app: FastifyInstance;
  let token: string;
  let aliceContracts: string[];
  /** Those that may have a plan added (approved or archived: the shared rule). */
  let alicePlannable: string[];
  let seq = 1;
  const clientId = uuidv7();

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 200, seed: 8 });
    const [user] = await fixture.db.select().from(users).where(eq(users.username, 'alice'));
    const own = (await fixture.db.select().from(contracts)).filter((c) => c.responsibleUserId === user!.id || c.departmentId === user!.departmentId);
    aliceContracts = own.map((c) => c.id);
    alicePlannable = own.filter((c) => c.status === 4 || c.status === 5).map((c) => c.id);
    app = fixture.server();
    token = (await signIn(app, alice.username, alice.password)).token;
  });

  const envelope = (name: string, args: unknown, baseVersions: Record<string, number> = {}): MutationEnvelope => ({ id: uuidv7(), seq: seq++, name, args, baseVersions });
  const push = async (mutation: MutationEnvelope): Promise<MutationResult> => {
    const answer = okData('syncPush', await callEndpoint(app, 'syncPush', { token, body: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations: [mutation] } }));
    return answer.results[0]!;
  };

  it('names the shared field groups in every trigger that keeps them', async () => {
    const rows = await queryRows<{ table: string; args: string }>(fixture.db, sql`
      select c.relname as "table", encode(t.tgargs, 'escape') as args from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where t.tgname like '%_track_field_versions'`);
    const byTable = Object.fromEntries(rows.map((r) => [r.table, new Set(r.args.split('\\000').filter(Boolean).map((pair) => pair.split('=')[1]))]));
    const tables = { contract: 'contracts', performanceTask: 'performance_tasks', performancePlan: 'performance_plans', scene: 'ledger_scenes' } as const;
    for (const [entity, table] of Object.entries(tables)) {
      expect([...(byTable[table] ?? [])].sort(), entity).toEqual([...entityFieldGroups[entity as keyof typeof tables]].sort());
    }
  });

  it('merges a scene edit of other fields, and answers a conflict on a field both changed', async () => {
    const id = uuidv7();
    expect(await push(envelope('scene.create', { id, name: 'Field merge' }))).toMatchObject({ status: 'applied' });
    const key = `scene:${id}`;
    const [created] = await fixture.db.select().from(ledgerScenes).where(eq(ledgerScenes.id, id));
    // Another device changes the scene's columns.
    await fixture.db.update(ledgerScenes).set({ titleIds: ['name'], version: sql`${ledgerScenes.version} + 1` }).where(eq(ledgerScenes.id, id));
    expect(await push(envelope('scene.update', { id, patch: { name: 'Renamed here' } }, { [key]: created!.version }))).toMatchObject({ status: 'applied' });
    const [merged] = await fixture.db.select().from(ledgerScenes).where(eq(ledgerScenes.id, id));
    expect(merged).toMatchObject({ name: 'Renamed here', titleIds: ['name'], version: created!.version + 2 });
    // Both rename it: the later edit, based before the other's, conflicts on the name and writes nothing.
    const conflict = await push(envelope('scene.update', { id, patch: { name: 'Renamed there', filterIDs: ['name'] } }, { [key]: created!.version }));
    expect(conflict).toMatchObject({ status: 'conflict', fields: ['name'] });
    const [kept] = await fixture.db.select().from(ledgerScenes).where(eq(ledgerScenes.id, id));
    expect(kept).toMatchObject({ name: 'Renamed here', filterIds: merged!.filterIds, version: merged!.version });
  });

  it("merges a scene's kept sort with another device's edit of its columns, and takes the sort away with its column", async () => {
    const id = uuidv7();
    expect(await push(envelope('scene.create', { id, name: 'Sort merge', titleIDs: ['expirationTime', 'receivableAmount'] }))).toMatchObject({ status: 'applied' });
    const key = `scene:${id}`;
    const [created] = await fixture.db.select().from(ledgerScenes).where(eq(ledgerScenes.id, id));
    // Another device drops a column the sort is not on; this one's sort, based before, merges.
    await fixture.db.update(ledgerScenes).set({ titleIds: ['name', 'expirationTime'], version: sql`${ledgerScenes.version} + 1` }).where(eq(ledgerScenes.id, id));
    expect(await push(envelope('scene.update', { id, patch: { sortField: { id: 'expirationTime', key: -1 } } }, { [key]: created!.version }))).toMatchObject({ status: 'applied' });
    const [sorted] = await fixture.db.select().from(ledgerScenes).where(eq(ledgerScenes.id, id));
    expect(sorted).toMatchObject({ titleIds: ['name', 'expirationTime'], sortField: { id: 'expirationTime', key: -1 } });
    expect(sorted!.fieldVersions).toMatchObject({ titleIDs: created!.version + 1, sortField: created!.version + 2 });
    // A sort on a column the scene no longer shows is refused and changes nothing.
    const refused = await push(envelope('scene.update', { id, patch: { sortField: { id: 'receivableAmount', key: 1 } } }, { [key]: sorted!.version }));
    expect(refused).toMatchObject({ status: 'rejected', error: { code: 'validation_failed' } });
    expect((await fixture.db.select().from(ledgerScenes).where(eq(ledgerScenes.id, id)))[0]).toMatchObject({ sortField: sorted!.sortField, version: sorted!.version });
    // The columns edited alone, without the sorted one: the sort goes with it.
    expect(await push(envelope('scene.update', { id, patch: { titleIDs: ['receivableAmount'] } }, { [key]: sorted!.version }))).toMatchObject({ status: 'applied' });
    const [unsorted] = await fixture.db.select().from(ledgerScenes).where(eq(ledgerScenes.id, id));
    expect(unsorted).toMatchObject({ titleIds: ['name', 'receivableAmount'], sortField: null });
  });

  it("merges a plan save when only the plan's version moved, and conflicts when its schedule moved", async () => {
    // A plan made over REST on one of alice's contracts.
    const [performance] = await fixture.db.select().from(performances).where(sql`${performances.id} ~ '^[0-9a-f-]{36}$'`).limit(1);
    const made = await app.inject({
      method: 'PUT', url: `/api/v1/performances/${performance!.id}/plan`, headers: { authorization: `Bearer ${token}` },
      payload: { contractID: alicePlannable[0]!, conditionType: 0, rows: [] },
    });
    expect(made.statusCode, made.body).toBe(200);
    const [plan] = await fixture.db.select().from(performancePlans).where(eq(performancePlans.id, (made.json() as { data: { id: string } }).data.id));
    expect(plan).toBeDefined();
    const key = `performancePlan:${plan!.id}`;
    const save = (base: number) => envelope('performance.savePlan', { performanceId: plan!.performanceId, planId: plan!.id, plan: { contractID: plan!.contractId, conditionType: 0, rows: [] } }, { [key]: base });
    // Another save changed only the plan's rows: its version moved, none of its groups.
    await fixture.db.update(performancePlans).set({ version: sql`${performancePlans.version} + 1` }).where(eq(performancePlans.id, plan!.id));
    expect(await push(save(plan!.version))).toMatchObject({ status: 'applied' });
    // Another save made the plan periodic: a save based before it conflicts on the schedule.
    const [now] = await fixture.db.select().from(performancePlans).where(eq(performancePlans.id, plan!.id));
    await fixture.db.update(performancePlans).set({ conditionType: 1, schedule: { every: 'month' }, version: sql`${performancePlans.version} + 1` }).where(eq(performancePlans.id, plan!.id));
    expect(await push(save(now!.version))).toMatchObject({ status: 'conflict', fields: ['schedule'] });
  });

  it("keeps a task's field versions and decides its finish by its state at apply time, not by its version", async () => {
    const [task] = await fixture.db.select().from(performanceTasks).where(and(inArray(performanceTasks.contractId, aliceContracts), eq(performanceTasks.state, 1))).limit(1);
    expect(task).toBeDefined();
    await fixture.db.update(performanceTasks).set({ values: { ...task!.values, note: 'changed elsewhere' }, version: sql`${performanceTasks.version} + 1` }).where(eq(performanceTasks.id, task!.id));
    const [moved] = await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.id, task!.id));
    expect(moved!.fieldVersions).toMatchObject({ 'value:note': task!.version + 1 });
    expect(Object.keys(moved!.fieldVersions).filter((group) => group !== '*')).toEqual(['value:note']);
    expect(await push(envelope('performance.finishTask', { id: task!.id }))).toMatchObject({ status: 'applied' });
    const [finished] = await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.id, task!.id));
    expect(finished!.fieldVersions).toMatchObject({ state: finished!.version, 'value:note': task!.version + 1 });
    // Finished already: the second finish is refused by the state, not answered as a conflict.
    expect(await push(envelope('performance.finishTask', { id: task!.id }))).toMatchObject({ status: 'rejected' });
  });
});
