import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import type { TaskCard } from '../../src-shared/domain/performance';
import { TaskState } from '../../src-shared/domain/enums';
import { contractInChangeMessage } from '../../src-shared/rules/fulfilment';
import type { ContractPerformance, PlanSheet, SheetTask } from '../../src-shared/ipc/fulfilment';
import { tempDir } from '../support/temp';
import { waitFor } from '../support/core';
import { CoreChild, pendingIn } from './core-child';
import { noFaults, startFaultProxy, type FaultProxy } from './fault-proxy';

// Fulfilment offline (issue 13): the core in a child process behind a loopback proxy that can
// refuse connections (offline), the real contract server on PGlite. Edits queued offline reach
// the server exactly once when it is back (each applied edit raises the task's version by one),
// a kill -9 mid-push loses and duplicates nothing, and the server's refusals at apply time come
// back to the user as problems, never left queued.

const serverDir = tempDir('contract-desk-fulfilment-server-');
const dirs: ReturnType<typeof tempDir>[] = [];
const cores: CoreChild[] = [];
let server: RunningServer;
let proxy: FaultProxy;
let token = '';

/** The server's REST API, as the admin on another device. */
async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

const serverTasks = async (contractId: string) => new Map((await rest<{ list: TaskCard[] }>('GET', `/performances/task/by_contract?contractID=${contractId}`)).list.map((t) => [t.id, t]));

async function syncedCore(): Promise<CoreChild> {
  const dir = tempDir('contract-desk-fulfilment-core-');
  dirs.push(dir);
  const core = new CoreChild(dir.path, proxy.url);
  cores.push(core);
  await core.call('session.signIn', { serverUrl: proxy.url, username: 'admin', password: 'admin123' });
  await core.drained();
  return core;
}

/** Every contract's sheet in the core's replica. */
async function sheets(core: CoreChild): Promise<{ id: string; status: number | null; performance: ContractPerformance }[]> {
  const list = [];
  for (let pageNum = 1; pageNum <= 2; pageNum += 1) list.push(...(await core.call('ledger.contractPage', { pageSize: 50, pageNum })).list);
  return Promise.all(list.map(async (c) => ({ id: c.id, status: c.status, performance: await core.call('fulfilment.contract', { contractId: c.id }) })));
}

const open = (task: SheetTask) => task.state !== TaskState.Success;
/** A plan's first unfinished rows: their predecessors (the rows before them, when a plan chains its rows) are finished. */
const firstOpen = (plan: PlanSheet, n: number) => {
  const start = plan.tasks.findIndex(open);
  const rows = start < 0 ? [] : plan.tasks.slice(start, start + n);
  return rows.length === n && rows.every(open) ? rows : null;
};

/** The server out of reach: new connections refused, kept-alive ones cut. */
async function goOffline(core: CoreChild) {
  proxy.faults = { ...noFaults, refuse: true };
  proxy.cutAll();
  await waitFor(async () => ((await core.call('sync.status', {})).online ? undefined : true));
}

async function offline(core: CoreChild, work: () => Promise<void>) {
  await goOffline(core);
  await work();
  proxy.faults = { ...noFaults };
  await core.call('sync.now', {});
}

beforeAll(async () => {
  await seedDemoData({ contracts: 60, seed: 13, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  proxy = await startFaultProxy(Number(new URL(server.url).port));
  token = (await rest<{ token: string }>('POST', '/auth/login', { username: 'admin', password: 'admin123' })).token;
}, 120_000);

afterAll(async () => {
  for (const core of cores) await core.kill9();
  await proxy?.close();
  await server?.close().catch(() => undefined);
  for (const dir of dirs) dir.cleanup();
  serverDir.cleanup();
});

describe('fulfilment edits made offline', () => {
  it('finish with extra fields, restore, batch finish and a deleted row each reach the server exactly once', async () => {
    const core = await syncedCore();
    const all = (await sheets(core)).filter((c) => c.status === 4 || c.status === 5);
    const plans = all.flatMap((c) => c.performance.plans.map((plan) => ({ contractId: c.id, plan })));
    const [single, batch, deleting] = plans.map((p) => ({ ...p, rows: firstOpen(p.plan, 2) })).filter((p) => p.rows !== null);
    const restoring = plans.map((p) => ({ ...p, done: p.plan.tasks.filter((t) => t.state === TaskState.Success).at(-1) })).find((p) => p.done);
    expect(single && batch && deleting && restoring).toBeTruthy();
    const finishOne = single!.rows![0]!;
    const [batchA, batchB] = batch!.rows!;
    const deleted = deleting!.rows![1]!;
    const restored = restoring!.done!;
    const contracts = [...new Set([single!.contractId, batch!.contractId, deleting!.contractId, restoring!.contractId])];
    const before = new Map<string, TaskCard>();
    for (const id of contracts) for (const [taskId, task] of await serverTasks(id)) before.set(taskId, task);

    await offline(core, async () => {
      await core.call('fulfilment.finish', { id: finishOne.id, amount: 1234.5, configFields: { finishDate: '2026-11-20', description: 'Paid in full offline' } });
      await core.call('fulfilment.restore', { performanceId: restored.performanceId!, planIDList: [restored.id] });
      await core.call('fulfilment.finishBatch', { performanceId: batchA!.performanceId!, planIDList: [batchA!.id, batchB!.id], configFields: { description: 'Batch' } });
      await core.call('fulfilment.deleteTask', { performanceId: deleted.performanceId!, planID: deleted.id });
      const waiting = await core.call('sync.status', {});
      expect(waiting.queued).toBe(4);
      // The sync details list them, oldest first: each by its kind and the task it is about (issue 31).
      expect(waiting.waiting.map((change) => change.name)).toEqual(['performance.finishTask', 'performance.restoreTasks', 'performance.finishTasks', 'performance.deletePlanTask']);
      expect(waiting.waiting[0]!.subject).toMatch(new RegExp(` · ${finishOne.name}$`));
      expect(waiting.waiting.every((change) => change.subject !== null && !/^[0-9a-f]{8}-/.test(change.subject))).toBe(true);
      // The tab shows each edit at once, marked as waiting for the server.
      const sheet = await core.call('fulfilment.contract', { contractId: single!.contractId });
      const shown = [...sheet.plans.flatMap((p) => p.tasks), ...sheet.looseTasks].find((t) => t.id === finishOne.id)!;
      expect(shown).toMatchObject({ state: TaskState.Success, pending: true, finishedAmount: { amount: 123_450 } });
    });
    const status = await core.drained();
    expect(status.problems).toEqual([]);

    const after = new Map<string, TaskCard>();
    for (const id of contracts) for (const [taskId, task] of await serverTasks(id)) after.set(taskId, task);
    const bumped = (id: string) => after.get(id)!.version - before.get(id)!.version;
    expect(after.get(finishOne.id)).toMatchObject({ taskState: TaskState.Success, finishedAmount: 123_450 });
    expect(bumped(finishOne.id)).toBe(1);
    const form = await rest<{ values: Record<string, unknown> }>('GET', `/performances/task/${finishOne.id}/complete_form`);
    expect(form.values).toEqual({ finishDate: '2026-11-20', description: 'Paid in full offline' });
    expect(after.get(restored.id)!.taskState).not.toBe(TaskState.Success);
    expect(bumped(restored.id)).toBe(1);
    for (const id of [batchA!.id, batchB!.id]) {
      expect(after.get(id)!.taskState).toBe(TaskState.Success);
      expect(bumped(id)).toBe(1);
    }
    expect(after.has(deleted.id)).toBe(false);
    // The replica caught up: nothing waits, the deleted row is gone from the sheet.
    const sheet = await core.call('fulfilment.contract', { contractId: deleting!.contractId });
    expect(sheet.plans.flatMap((p) => p.tasks).some((t) => t.id === deleted.id || t.pending)).toBe(false);
    await core.stop();
  }, 180_000);

  it('kill -9 of the core mid-push: every queued finish is applied exactly once after a restart', async () => {
    const core = await syncedCore();
    const targets = (await sheets(core))
      .filter((c) => c.status === 4 || c.status === 5)
      .flatMap((c) => c.performance.plans.map((plan) => ({ contractId: c.id, task: firstOpen(plan, 1)?.[0] })))
      .filter((t): t is { contractId: string; task: SheetTask } => t.task !== undefined)
      .slice(0, 24);
    expect(targets.length).toBeGreaterThanOrEqual(10);
    const before = new Map(await Promise.all(targets.map(async (t) => [t.task.id, (await serverTasks(t.contractId)).get(t.task.id)!.version] as const)));

    await goOffline(core);
    for (const { task } of targets) await core.call('fulfilment.finish', { id: task.id, configFields: { description: 'Kill test' } });
    // Back online, slowly: the kill lands after the server took the batch, before its answer is back.
    proxy.faults = { ...noFaults, delayMs: 300 };
    await waitFor(() => (core.status?.phase === 'pushing' ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 450));
    await core.kill9();
    proxy.faults = { ...noFaults };
    // Killed before it recorded the server's answer: the finishes are still queued in the replica.
    expect(pendingIn(core.dataDir)).toBe(targets.length);

    const restarted = new CoreChild(core.dataDir, proxy.url);
    cores.push(restarted);
    await restarted.call('sync.now', {});
    expect((await restarted.drained()).problems).toEqual([]);
    for (const { contractId, task } of targets) {
      const now = (await serverTasks(contractId)).get(task.id)!;
      expect(now.taskState).toBe(TaskState.Success);
      expect(now.version).toBe(before.get(task.id)! + 1);
    }
    await restarted.stop();
  }, 180_000);
});

describe('fulfilment edits the server refuses when they apply', () => {
  it('a task finished by someone else, a restore of an unfinished task, a finish during a contract change: shown as problems, nothing stays queued', async () => {
    const core = await syncedCore();
    const all = await sheets(core);
    const approved = all.filter((c) => c.status === 4).flatMap((c) => c.performance.plans.map((plan) => ({ contractId: c.id, rows: firstOpen(plan, 1), plan })));
    const finishedElsewhere = approved.find((p) => p.rows)!.rows![0]!;
    const restoring = approved.map((p) => p.plan.tasks.find((t) => t.state === TaskState.Success)).find((t) => t && t.id !== finishedElsewhere.id)!;
    const drafting = all.find((c) => c.status === 1 && c.performance.plans.some((plan) => firstOpen(plan, 2)))!;
    const [inChange, refusedAtOnce] = firstOpen(drafting.performance.plans.find((plan) => firstOpen(plan, 2))!, 2)!;

    await offline(core, async () => {
      await core.call('fulfilment.finish', { id: finishedElsewhere.id, configFields: {} });
      await core.call('fulfilment.restore', { performanceId: restoring.performanceId!, planIDList: [restoring.id] });
      await core.call('fulfilment.finish', { id: inChange!.id, configFields: {} });
      // Meanwhile, on another device: the task is finished, the finished one restored, the contract submitted.
      await rest('PUT', `/performances/task/${finishedElsewhere.id}/finish`, {});
      await rest('PUT', `/performances/task/${restoring.id}/restore`);
      await rest('POST', `/contracts/${drafting.id}/submit`, {});
    });
    const status = await waitFor(async () => {
      const s = await core.call('sync.status', {});
      return s.queued === 0 && s.problems.length === 3 ? s : undefined;
    }, 60_000);
    const messages = status.problems.map((p) => `${p.state}: ${p.error?.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^rejected: .*already finished/),
      expect.stringMatching(/^rejected: .*is not finished/),
      `rejected: ${contractInChangeMessage}`,
    ]);
    // Once the change is pulled, the core refuses a finish on that contract at once, queueing nothing.
    await core.drained();
    const refused = await core.invoke('fulfilment.finish', { id: refusedAtOnce!.id, configFields: {} });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', message: contractInChangeMessage } });
    for (const problem of status.problems) await core.call('sync.dismiss', { id: problem.id });
    expect(await core.call('sync.status', {})).toMatchObject({ queued: 0, problems: [] });
    await core.stop();
  }, 180_000);
});
