import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { TaskState } from '../../src-shared/domain/enums';
import { isFinishable } from '../../src-shared/rules/fulfilment';
import type { SheetTask } from '../../src-shared/ipc/fulfilment';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { tempDir } from '../support/temp';

// Predecessor relations in the replica (issue 28 item 4): the relations the server holds reach
// the desktop with its first sync, so the finish warning the core gives offline is the server's
// check_front answer, task for task, over every seeded contract (a differential); a relation
// made offline shows at once, holds a finish back at once with the server's reason, and reaches
// the server exactly once; a scene row's finish online is taken where the core offers it.

const serverDir = tempDir('contract-desk-predecessors-server-');
const desktop = tempDir('contract-desk-predecessors-core-');
let running: RunningServer;
let serverUrl: string;
let token = '';
let core: Core;

/** The server's REST API, as the admin on another device. */
const server = () => createContractServerClient(serverUrl);
const checkFront = async (contractId: string, taskId: string) =>
  (await server().call('performanceTaskCheckFront', { token, query: { contractID: contractId, currentTaskID: taskId } })).list.flatMap((group) => group.taskList.map((task) => task.taskID));
const frontTasks = async (taskId: string) => (await server().call('performanceTaskFrontTasks', { token, params: { id: taskId } })).list.map((task) => task.taskID);

/** Every contract's tasks as the core shows them. */
async function replicaTasks(): Promise<{ contractId: string; status: number | null; task: SheetTask }[]> {
  const list = [];
  for (let pageNum = 1; pageNum <= 2; pageNum += 1) list.push(...(await call(core, 'ledger.contractPage', { pageSize: 50, pageNum })).list);
  const tasks = [];
  for (const contract of list) {
    const sheet = await call(core, 'fulfilment.contract', { contractId: contract.id });
    for (const task of [...sheet.plans.flatMap((plan) => plan.tasks), ...sheet.looseTasks]) tasks.push({ contractId: contract.id, status: contract.status, task });
  }
  return tasks;
}

/** For every unfinished task: the core's warning and the server's check_front, and the row's predecessors and front_tasks. */
async function differential() {
  const tasks = await replicaTasks();
  let compared = 0;
  let warned = 0;
  for (const { contractId, task } of tasks) {
    if (task.state === TaskState.Success) continue;
    const form = await call(core, 'fulfilment.finishForm', { taskId: task.id });
    const checked = await checkFront(contractId, task.id);
    expect(form.blockingPredecessors.map((front) => front.id), task.name).toEqual(checked);
    if (task.planId !== null) expect(task.predecessors.map((front) => front.id).sort(), task.name).toEqual((await frontTasks(task.id)).sort());
    compared += 1;
    if (checked.length > 0) warned += 1;
  }
  return { compared, warned };
}

beforeAll(async () => {
  await seedDemoData({ contracts: 60, seed: 13, dataDir: serverDir.path });
  running = await startContractServer({ port: 0, dataDir: serverDir.path });
  serverUrl = running.url;
  token = (await server().call('login', { body: { username: 'admin', password: 'admin123' } })).token;
  core = testCore(desktop.path, { serverUrl, syncSoonMs: 50, syncBackoffMs: 200 });
  await call(core, 'session.signIn', { serverUrl, username: 'admin', password: 'admin123' });
  await settledSync(core, 60_000);
}, 180_000);

afterAll(async () => {
  await core?.close();
  await running?.close().catch(() => undefined);
  desktop.cleanup();
  serverDir.cleanup();
});

describe('predecessors in the replica', () => {
  it('pulls every relation with its task: the core warns offline exactly where the server checks, over every seeded contract', async () => {
    const { compared, warned } = await differential();
    expect(compared).toBeGreaterThan(50);
    // The seed chains a fifth of the plans: some tasks wait for their row before.
    expect(warned).toBeGreaterThan(5);
  }, 300_000);

  it("finishes a scene row online where the core offers it, and refuses at once a row its predecessor holds back, with the server's reason", async () => {
    // The ledger's row action (issue 28 items 6 and 8) finishes through the same channel: a row the
    // server would refuse after the sync is refused before anything is queued.
    type Row = Awaited<ReturnType<typeof call<'ledger.search'>>>['list'][number];
    let held: Row | undefined;
    let free: Row | undefined;
    // The default scene's pages, until a row held back and a free one: the core's warning is the server's on each.
    for (let pageNum = 1; pageNum <= 20 && !(held && free); pageNum += 1) {
      for (const row of (await call(core, 'ledger.search', { pageSize: 50, pageNum })).list.filter((shown) => isFinishable(shown.taskState as TaskState))) {
        const checked = await checkFront(row.contractID, row.id);
        expect((await call(core, 'fulfilment.finishForm', { taskId: row.id })).blockingPredecessors.map((front) => front.id), row.id).toEqual(checked);
        if (checked.length > 0) held ??= row;
        else free ??= row;
      }
    }
    if (!held || !free) throw new Error('the seed gives the scene a row held back by its predecessor and a free one');

    const refused = await core.invoke('fulfilment.finish', { id: held.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', reason: { key: 'predecessorsOpen' } } });
    expect((await call(core, 'sync.status', {})).queued).toBe(0);

    await call(core, 'fulfilment.finish', { id: free.id, configFields: { finishDate: '2026-11-20' } });
    const synced = await waitFor(async () => {
      const sheet = await call(core, 'fulfilment.contract', { contractId: free.contractID });
      const task = [...sheet.plans.flatMap((plan) => plan.tasks), ...sheet.looseTasks].find((shown) => shown.id === free.id);
      return task && !task.pending ? task : undefined;
    }, 30_000);
    // Taken by the server: the pulled row is finished, and no refusal came back.
    expect(synced).toMatchObject({ state: TaskState.Success, refusal: null });
    expect((await call(core, 'sync.status', {})).problems).toEqual([]);
  }, 120_000);

  it('relates offline: shown at once, a finish refused at once with the server’s reason, a relation the server would refuse never queued', async () => {
    const tasks = await replicaTasks();
    const open = tasks.filter(({ status, task }) => status === 4 && task.state !== TaskState.Success && task.planId !== null && task.predecessors.length === 0);
    // Two unfinished tasks of one plan, in sheet order, the earlier not waiting for anything.
    const pair = open.map((first) => open.filter(({ task }) => task.planId === first.task.planId)).find((rows) => rows.length >= 2)!;
    const [{ contractId, task: earlier }, { task: later }] = pair as [(typeof pair)[0], (typeof pair)[0]];
    await running.close();
    await waitFor(async () => ((await call(core, 'sync.now', {})).online ? undefined : true));

    const later409 = await core.invoke('fulfilment.relate', { id: earlier.id, frontTaskIDList: [later.id] });
    expect(later409).toMatchObject({ ok: false, error: { reason: { key: 'predecessorNotEarlier' } } });
    await call(core, 'fulfilment.relate', { id: later.id, frontTaskIDList: [earlier.id] });
    const sheet = await call(core, 'fulfilment.contract', { contractId });
    const shown = [...sheet.plans.flatMap((plan) => plan.tasks), ...sheet.looseTasks].find((task) => task.id === later.id)!;
    expect(shown).toMatchObject({ pending: true, predecessors: [{ id: earlier.id, name: earlier.name, finished: false }] });
    expect((await call(core, 'fulfilment.finishForm', { taskId: later.id })).blockingPredecessors.map((front) => front.id)).toEqual([earlier.id]);
    expect((await call(core, 'fulfilment.relateCandidates', { taskId: later.id })).map((candidate) => candidate.id)).not.toContain(earlier.id);
    const refused = await core.invoke('fulfilment.finish', { id: later.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', reason: { key: 'predecessorsOpen', params: { task: later.name, names: `"${earlier.name}"` } } } });
    // Finished together, earlier rows first, the batch is taken (as the server takes it); not queued here.
    const batch = await call(core, 'fulfilment.finishForm', { taskId: later.id, batch: [earlier.id] });
    expect(batch.blockingPredecessors.filter((front) => front.id === earlier.id)).toEqual([]);
    expect((await call(core, 'sync.status', {})).queued).toBe(1);

    running = await startContractServer({ port: Number(new URL(serverUrl).port), dataDir: serverDir.path });
    await waitFor(async () => {
      const status = await call(core, 'sync.now', {});
      return status.online && status.queued === 0 && status.phase === 'idle' ? status : undefined;
    }, 60_000);
    expect(await frontTasks(later.id)).toEqual([earlier.id]);
    expect(await checkFront(contractId, later.id)).toEqual([earlier.id]);
    await waitFor(async () => {
      const after = await call(core, 'fulfilment.contract', { contractId });
      const row = after.plans.flatMap((plan) => plan.tasks).find((task) => task.id === later.id);
      return row && !row.pending ? row : undefined;
    });
    // Unrelating goes the same way, and the warning follows the server's again.
    await call(core, 'fulfilment.unrelate', { id: later.id, frontTaskID: earlier.id });
    await waitFor(async () => ((await call(core, 'sync.now', {})).queued === 0 ? true : undefined), 30_000);
    expect(await frontTasks(later.id)).toEqual([]);
    await differential();
  }, 300_000);
});
