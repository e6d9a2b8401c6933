import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncChange, SyncTask } from '../../src-shared/api/sync';
import { reminderTaskKinds } from '../../src-shared/domain/enums';
import type { ReminderSettings } from '../../src-shared/domain/reminders';
import { createOutbox } from '../../src-main/core/data/outbox';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { createDashboardReader } from '../../src-main/core/performance/dashboard-store';
import { createFulfilmentReader } from '../../src-main/core/performance/fulfilment-store';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract, makeTask } from '../support/contracts';
import { tempDir } from '../support/temp';

// The dashboard's reads of the replica with this device's queued edits: a queued quick task
// counts and shows at once and gives way to the pulled task (its applied outbox row then goes);
// queued reminder settings apply over the synced ones kind by kind, the later edit winning.

const today = '2026-11-10';
const at = '2026-11-10T00:00:00.000Z';
const task = (id: string, overrides: Partial<SyncTask> = {}): SyncTask =>
  makeTask(0, { id, contractId: contractId(1), name: `Task ${id}`, expirationTime: '2026-11-12', receivableAmount: null, amountUnit: null, createTime: at, updateTime: at, ...overrides });
const kindSettings = (reminderTime: string) => ({ timeNode: { reminderTypes: ['onDue' as const], otherTimes: [] }, condition: { reminderType: 'weekly' as const }, overTime: { reminderType: 'weekly' as const }, reminderTime });
const settings = Object.fromEntries(reminderTaskKinds.map((kind) => [kind, kindSettings('09:00')])) as unknown as ReminderSettings;
const quickId = '0192f000-0000-7000-8000-000000000001';
const range = { startDate: today, endDate: '2026-11-16' };

describe('the dashboard reader with queued edits', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const changes: SyncChange[] = [
      { entity: 'contract', op: 'upsert', row: makeContract(1) },
      { entity: 'performanceTask', op: 'upsert', row: task('t-1') },
      { entity: 'performanceTask', op: 'upsert', row: task('t-2', { expirationTime: '2026-11-01' }) },
      { entity: 'reminderSettings', op: 'upsert', row: { userId: 'u-1', settings, version: 1, updateTime: at } },
    ];
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges(changes, '1', at);
    // A finished first sync: until its end the per-day counts are left to it (client migration 0031).
    writer.finishPull();
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('counts and shows a queued quick task until the pull brings it, then drops its applied outbox row', () => {
    const reader = createDashboardReader(replica.sqlite);
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
    expect(reader.statistics(range, today)).toEqual({ total: 1, ongoingCount: 1, completedCount: 0, toBeImprovedCount: 0, overdueCount: 0 });
    const payload = { name: 'Call the notary', type: 'custom' as const, fieldList: [{ id: 'd', name: 'Date', type: 'date', required: true, value: '2026-11-12' }] };
    const { id } = outbox.enqueue('performance.quickTask', { id: quickId, payload });
    expect(reader.statistics(range, today).total).toBe(2);
    const day = reader.board(range, today, 20).find((d) => d.date === '2026-11-12')!;
    expect(day.total).toBe(2);
    expect(day.taskList.find((t) => t.id === quickId)).toMatchObject({ queued: true, name: 'Call the notary', contractId: null, state: 2 });

    const [sent] = outbox.nextBatch(10);
    outbox.settle([sent!], [{ id, status: 'applied', versions: {} }]);
    expect(reader.statistics(range, today).total).toBe(2);
    replicaWriter(replica, replicaFeatures).applyPulledChanges([{ entity: 'performanceTask', op: 'upsert', row: task(quickId, { contractId: null, name: 'Call the notary', type: 'custom' }) }], '2', at);
    expect(reader.statistics(range, today).total).toBe(2);
    expect(reader.board(range, today, 20).find((d) => d.date === '2026-11-12')!.taskList.find((t) => t.id === quickId)?.queued).toBe(false);
    expect(replica.sqlite.prepare('select count(*) from outbox').pluck().get()).toBe(0);
  });

  it('applies queued reminder settings over the synced ones, kind by kind, the last edit winning', () => {
    const reader = createDashboardReader(replica.sqlite);
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
    outbox.enqueue('performance.reminderSettings', { settings: { paymentTask: kindSettings('07:00'), invoiceTask: kindSettings('07:30') } });
    outbox.enqueue('performance.reminderSettings', { settings: { invoiceTask: kindSettings('18:00') } });
    const merged = reader.reminderSettings('u-1')!;
    expect([merged.receivableTask.reminderTime, merged.paymentTask.reminderTime, merged.invoiceTask.reminderTime]).toEqual(['09:00', '07:00', '18:00']);
    expect(reader.reminderSettings('u-2')).toBeNull();
  });

  it('refuses a quick task for a contract the replica does not have, and one without a date, before queueing', () => {
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
    const date = [{ id: 'd', name: 'Date', type: 'date', required: true, value: '2026-11-12' }];
    expect(() => outbox.enqueue('performance.quickTask', { id: quickId, payload: { name: 'X', type: 'custom', relatedID: contractId(9), fieldList: date } })).toThrow('contract not found');
    expect(() => outbox.enqueue('performance.quickTask', { id: quickId, payload: { name: 'X', type: 'custom', fieldList: [] } })).toThrow(/Please select the performance date/);
    expect(replica.sqlite.prepare('select count(*) from outbox').pluck().get()).toBe(0);
  });

  it('counts and boards the tasks as the user sees them: a task finished, deleted or restored offline moves at once', () => {
    replicaWriter(replica, replicaFeatures).applyPulledChanges(
      [
        // An approved contract: its tasks may be finished.
        { entity: 'contract', op: 'upsert', row: makeContract(3) },
        { entity: 'performanceTask', op: 'upsert', row: task('t-1', { contractId: contractId(3) }) },
        { entity: 'performanceTask', op: 'upsert', row: task('t-3', { contractId: contractId(3), performanceId: 'perf-1', name: 'A first' }) },
        { entity: 'performanceTask', op: 'upsert', row: task('t-4', { contractId: contractId(3), performanceId: 'perf-1', state: 4, finishedAmount: 1, completionValues: {} }) },
      ],
      '2',
      at,
    );
    const reader = createDashboardReader(replica.sqlite);
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
    const day = () => reader.board(range, today, 2).find((d) => d.date === '2026-11-12')!;
    expect(reader.statistics(range, today)).toEqual({ total: 3, ongoingCount: 2, completedCount: 1, toBeImprovedCount: 0, overdueCount: 0 });
    expect(day().taskList.map((t) => [t.id, t.state])).toEqual([['t-3', 2], ['t-1', 2]]);

    outbox.enqueue('performance.finishTask', { id: 't-1', amount: 12.5 });
    expect(reader.statistics(range, today)).toEqual({ total: 3, ongoingCount: 1, completedCount: 2, toBeImprovedCount: 0, overdueCount: 0 });
    expect(day()).toMatchObject({ total: 3, taskList: [{ id: 't-3', state: 2 }, { id: 't-1', state: 4 }] });

    outbox.enqueue('performance.deletePlanTask', { performanceId: 'perf-1', planID: 't-3' });
    expect(reader.statistics(range, today)).toEqual({ total: 2, ongoingCount: 0, completedCount: 2, toBeImprovedCount: 0, overdueCount: 0 });
    expect(day()).toMatchObject({ total: 2, taskList: [{ id: 't-1', state: 4 }, { id: 't-4', state: 4 }] });

    outbox.enqueue('performance.restoreTasks', { performanceId: 'perf-1', planIDList: ['t-4'] });
    expect(reader.statistics(range, today)).toEqual({ total: 2, ongoingCount: 1, completedCount: 1, toBeImprovedCount: 0, overdueCount: 0 });
    expect(day().taskList.map((t) => [t.id, t.state])).toEqual([['t-1', 4], ['t-4', 2]]);
    // Outside the range the optimistic rows change nothing.
    expect(reader.statistics({ startDate: '2026-11-13', endDate: '2026-11-20' }, today).total).toBe(0);
  });

  it('offers a quick task without a contract for its actions, and shows on its card a finish the server refused (issue 28)', () => {
    replicaWriter(replica, replicaFeatures).applyPulledChanges([{ entity: 'performanceTask', op: 'upsert', row: task('q-1', { contractId: null, type: 'custom' }) }], '2', at);
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
    const card = (id: string) => createDashboardReader(replica.sqlite).board(range, today, 20).flatMap((day) => day.taskList).find((t) => t.id === id);
    expect(card('q-1')).toMatchObject({ planId: null, contractId: null, state: 2, refusal: null });
    const { id } = outbox.enqueue('performance.finishTask', { id: 'q-1', configFields: { finishDate: today } });
    expect(card('q-1')!.state).toBe(4);
    const error = { code: 'conflict' as const, message: 'the task "Task q-1" is already finished', reason: { key: 'taskAlreadyFinished', params: { task: 'Task q-1' } } };
    outbox.settle(outbox.nextBatch(10), [{ id, status: 'rejected', error }]);
    expect(card('q-1')).toMatchObject({ state: 2, refusal: { mutationId: id, name: 'performance.finishTask', state: 'rejected', error } });
    expect(card('t-1')!.refusal).toBeNull();
  });

  it("shows a queued quick task on its contract's performance tab until the pull brings it", () => {
    const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
    const payload = { name: 'Call the notary', type: 'custom' as const, relatedID: contractId(1), level: 2, fieldList: [{ id: 'd', name: 'Date', type: 'date', required: true, value: '2026-11-12' }] };
    outbox.enqueue('performance.quickTask', { id: quickId, payload });
    outbox.enqueue('performance.quickTask', { id: '0192f000-0000-7000-8000-000000000002', payload: { ...payload, relatedID: undefined, name: 'Elsewhere' } });
    const shown = () => createFulfilmentReader(replica.db).contract(contractId(1), today).looseTasks;
    expect(shown().find((t) => t.id === quickId)).toMatchObject({ name: 'Call the notary', type: 'custom', dueDate: '2026-11-12', state: 2, level: 2, pending: true });
    expect(shown().map((t) => t.name)).not.toContain('Elsewhere');
    replicaWriter(replica, replicaFeatures).applyPulledChanges([{ entity: 'performanceTask', op: 'upsert', row: task(quickId, { name: 'Call the notary', type: 'custom' }) }], '2', at);
    expect(shown().filter((t) => t.id === quickId)).toMatchObject([{ pending: false }]);
  });
});
