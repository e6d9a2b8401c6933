import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { ScheduleConditionType, TaskState, type ContractStatus } from '../../src-shared/domain/enums';
import { editableStatuses } from '../../src-shared/rules/contract-status';
import type { PlanSheet, SheetTask } from '../../src-shared/ipc/fulfilment';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// A real same-field conflict between two desktops of one user (the core and the contract server
// on PGlite): both change a ledger scene, or one row of a performance sheet, one first. The second
// one's problem names the row's kind and the row, and gives, per field group, its value and the
// server's, marking the field both changed; the field only it changed would have merged.

const serverDir = tempDir('problem-fields-server-');
const mineDir = tempDir('problem-fields-mine-');
const theirsDir = tempDir('problem-fields-theirs-');
let server: RunningServer;
let mine: Core;
let theirs: Core;

async function signedInCore(dataDir: string): Promise<Core> {
  // No periodic round: each pull happens when the test makes it.
  const core = testCore(dataDir, { syncSoonMs: 20, syncIntervalMs: 3_600_000, connectivityProbeMs: 200 });
  await call(core, 'session.signIn', { serverUrl: server.url, username: 'admin', password: 'admin123' });
  await settledSync(core);
  return core;
}

const drained = (core: Core) => waitFor(async () => {
  const status = await call(core, 'sync.status', {});
  return status.queued === 0 && status.phase === 'idle' ? status : undefined;
});

beforeAll(async () => {
  await seedDemoData({ contracts: 10, seed: 21, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  mine = await signedInCore(mineDir.path);
  theirs = await signedInCore(theirsDir.path);
}, 60_000);

afterAll(async () => {
  await mine?.close();
  await theirs?.close();
  await server?.close().catch(() => undefined);
  for (const dir of [serverDir, mineDir, theirsDir]) dir.cleanup();
});

describe('a problem per field, between two desktops', () => {
  it('gives a scene renamed on both sides as a conflict on the name, with mine and theirs per field', async () => {
    const { id } = await call(mine, 'scene.create', { name: 'Shared scene', titleIDs: ['name', 'taskState'], filterIDs: [], filter: [], performanceId: null });
    await drained(mine);
    await call(theirs, 'sync.now', {});
    await waitFor(async () => ((await call(theirs, 'scene.list', {})).some((scene) => scene.id === id) ? true : undefined));

    // Mine renames it and sends that first; theirs, not having pulled it, renames it and adds a column.
    await call(mine, 'scene.update', { id, patch: { name: 'Renamed by mine' } });
    await drained(mine);
    await call(theirs, 'scene.update', { id, patch: { name: 'Renamed by theirs', titleIDs: ['name', 'taskState', 'expirationTime'] } });
    const problem = await waitFor(async () => (await call(theirs, 'sync.status', {})).problems[0]);

    expect(problem).toMatchObject({
      name: 'scene.update',
      state: 'conflict',
      entity: 'scene',
      changes: { name: 'Renamed by theirs', titleIDs: ['name', 'taskState', 'expirationTime'] },
      theirs: { name: 'Renamed by mine', titleIDs: ['name', 'taskState'] },
      conflicting: ['name'],
    });
    expect(Object.keys(problem.theirs!).sort()).toEqual(['name', 'titleIDs']);
    // Named as this desktop shows it once its own edit is set aside: as it was, or as pulled.
    expect(['Shared scene', 'Renamed by mine']).toContain(problem.subject);
    await call(theirs, 'sync.keepTheirs', { id: problem.id });
  });

  it('gives a sheet cell changed on both sides as a conflict on that task field only, naming the task', async () => {
    // Settling the scene conflict started a round on theirs: it ends before mine edits, so theirs edits from the older sheet.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await drained(theirs);
    const { list } = await call(mine, 'ledger.contractPage', { pageSize: 50, sort: { field: 'name', order: 'asc' } });
    let found: { contractId: string; plan: PlanSheet; task: SheetTask } | undefined;
    for (const contract of list) {
      const { plans } = await call(mine, 'fulfilment.contract', { contractId: contract.id });
      // A plan of rows kept as they are (a periodic one is generated from its schedule).
      const plan = plans.find((p) => p.conditionType !== ScheduleConditionType.Periodicity && p.tasks.some((task) => task.state !== TaskState.Success));
      if (plan) found = { contractId: contract.id, plan, task: plan.tasks.find((task) => task.state !== TaskState.Success)! };
      if (found) break;
    }
    expect(found).toBeDefined();
    const { contractId, plan, task } = found!;
    const save = (core: Core, row: Record<string, unknown>) =>
      call(core, 'fulfilment.savePlan', {
        performanceId: plan.performanceId, planId: plan.id,
        plan: { contractID: contractId, conditionType: plan.conditionType as 0 | 1, rows: plan.tasks.map((t) => (t.id === task.id ? { id: t.id, ...row } : { id: t.id })) },
      });

    // Mine changes the row's due date and sends it first; theirs, based on the same sheet, changes its due date and its content.
    await save(mine, { expirationTime: '2031-01-31' });
    await drained(mine);
    await save(theirs, { expirationTime: '2031-02-28', name: 'Content changed by theirs' });
    const problem = await waitFor(async () => (await call(theirs, 'sync.status', {})).problems.find((p) => p.name === 'performance.savePlan'));

    expect(problem).toMatchObject({
      name: 'performance.savePlan',
      state: 'conflict',
      entity: 'performanceTask',
      subject: task.name,
      changes: { expirationTime: '2031-02-28', name: 'Content changed by theirs' },
      theirs: { expirationTime: '2031-01-31', name: task.name },
      conflicting: ['expirationTime'],
    });
  });

  it("names a contract's type and form field, and a scene's performance, by the names this desktop knows", async () => {
    // The type and form field names come from the catalogue, the performance's from the plans pulled.
    const catalogue = await call(theirs, 'drafting.refresh', {});
    const { list } = await call(theirs, 'ledger.contractPage', { pageSize: 50, sort: { field: 'name', order: 'asc' } });
    let picked: { id: string; field: { id: string; name: string }; typeField: string } | undefined;
    for (const contract of list) {
      const shown = await call(theirs, 'contract.detail', { id: contract.id }).catch(() => undefined);
      const editable = shown && editableStatuses.includes(shown.status as ContractStatus | null);
      const template = editable && shown.templateId ? catalogue.templates.find((t) => t.id === shown.templateId) : undefined;
      const detail = template && (await call(theirs, 'drafting.template', { id: template.id }));
      const field = detail?.fields.find((f) => f.type === 'text' && !f.required);
      const typeField = detail?.fields.find((f) => f.type === 'contractType');
      if (field && typeField) picked = { id: contract.id, field, typeField: typeField.id };
      if (picked) break;
    }
    expect(picked).toBeDefined();
    const [typeA, typeB] = catalogue.contractTypes;
    const { id, field, typeField } = picked!;
    await call(mine, 'sync.now', {});
    // The form holds the type: it changes there, and beside it to the same type.
    await call(mine, 'contract.update', { id, patch: { contractTypeId: typeA!.id, formValues: { [typeField]: typeA!.id, [field.id]: 'Set by mine' } } });
    await drained(mine);
    await call(theirs, 'contract.update', { id, patch: { contractTypeId: typeB!.id, formValues: { [typeField]: typeB!.id, [field.id]: 'Set by theirs' } } });
    const problem = await waitFor(async () => (await call(theirs, 'sync.status', {})).problems.find((p) => p.name === 'contract.update'));
    expect(problem).toMatchObject({
      state: 'conflict',
      fieldNames: { [`form:${field.id}`]: field.name },
      valueNames: { contractTypeId: { [typeA!.id]: typeA!.name, [typeB!.id]: typeB!.name } },
    });
    await call(theirs, 'sync.keepTheirs', { id: problem!.id });

    // Two performances this desktop has plans under, and a scene both desktops point at one of them.
    const performances = new Map<string, string>();
    for (const contract of list) for (const plan of (await call(theirs, 'fulfilment.contract', { contractId: contract.id })).plans) performances.set(plan.performanceId, plan.performanceName);
    expect(performances.size).toBeGreaterThan(1);
    const [[first, firstName], [second, secondName]] = [...performances] as [[string, string], [string, string]];
    const scene = await call(mine, 'scene.create', { name: 'Scene of a performance', titleIDs: ['name'], filterIDs: [], filter: [], performanceId: null });
    await drained(mine);
    await call(theirs, 'sync.now', {});
    await waitFor(async () => ((await call(theirs, 'scene.list', {})).some((s) => s.id === scene.id) ? true : undefined));
    await call(mine, 'scene.update', { id: scene.id, patch: { performanceId: first } });
    await drained(mine);
    await call(theirs, 'scene.update', { id: scene.id, patch: { performanceId: second } });
    const sceneProblem = await waitFor(async () => (await call(theirs, 'sync.status', {})).problems.find((p) => p.name === 'scene.update'));
    expect(sceneProblem).toMatchObject({ state: 'conflict', valueNames: { performanceId: { [first]: firstName, [second]: secondName } } });
  });
});
