import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncChange, SyncTask } from '../../src-shared/api/sync';
import { reminderTaskKinds } from '../../src-shared/domain/enums';
import type { ReminderSettings } from '../../src-shared/domain/reminders';
import { metaReader, replicaWriter } from '../../src-main/core/data/replica-sync';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { createDashboardReader } from '../../src-main/core/performance/dashboard-store';
import { createTaskReader } from '../../src-main/core/performance/task-store';
import { createFulfilmentReader } from '../../src-main/core/performance/fulfilment-store';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { replicaFeatures } from '../../src-main/core/features';

// Pulled tasks and reminder settings in the replica: applied with the page and the cursor, gone
// with their contract, read back as the reminder scheduler wants them.

const task = (id: string, overrides: Partial<SyncTask> = {}): SyncTask => ({
  id,
  contractId: contractId(1),
  planId: null,
  performanceId: null,
  name: `Task ${id}`,
  type: 'receivable',
  state: 1,
  expirationTime: '2026-12-01',
  receivableAmount: 500_00,
  payableAmount: null,
  amountUnit: 'CNY',
  leaderUserId: null,
  rowIndex: 1,
  level: null,
  values: {},
  completionValues: null,
  finishedAmount: null,
  frontTaskIds: null,
  createTime: '2026-10-01T00:00:00.000Z',
  version: 1,
  updateTime: '2026-11-01T00:00:00.000Z',
  ...overrides,
});
const upsertTask = (row: SyncTask): SyncChange => ({ entity: 'performanceTask', op: 'upsert', row });
const settings = Object.fromEntries(
  reminderTaskKinds.map((kind) => [kind, { timeNode: { reminderTypes: ['onDue'], otherTimes: [] }, condition: { reminderType: 'weekly' }, overTime: { reminderType: 'daily' }, reminderTime: '08:30' }]),
) as unknown as ReminderSettings;

describe('tasks and reminder settings in the replica', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('applies tasks, their deletes and settings with the page and the cursor, and says what changed once', () => {
    const writer = replicaWriter(replica, replicaFeatures);
    const reader = createTaskReader(replica.sqlite);
    writer.applyPulledChanges(
      [
        { entity: 'contract', op: 'upsert', row: makeContract(1, { responsibleUserId: 'u-1' }) },
        upsertTask(task('t-1')),
        upsertTask(task('t-2', { leaderUserId: 'u-2' })),
        upsertTask(task('t-3', { state: 4 })),
        upsertTask(task('t-4', { contractId: null, leaderUserId: 'u-1', type: 'custom', receivableAmount: null, amountUnit: null })),
        { entity: 'reminderSettings', op: 'upsert', row: { userId: 'u-1', settings, version: 1, updateTime: '2026-11-01T00:00:00.000Z' } },
      ],
      '10',
      '2026-11-02T00:00:00.000Z',
    );
    expect(metaReader(replica).cursor()).toBe('10');
    expect(writer.takeRoundChanges().sort()).toEqual(['performanceTask', 'reminderSettings']);
    expect(writer.takeRoundChanges()).toEqual([]);
    // u-1 leads t-4 and is responsible for the contract of t-1 (no leader); t-2 has another leader, t-3 is finished.
    expect(reader.reminderTasks('u-1').map((t) => t.id).sort()).toEqual(['t-1', 't-4']);
    expect(reader.reminderTasks('u-1').find((t) => t.id === 't-1')).toMatchObject({ dueDate: '2026-12-01', amount: { amount: 500_00, unit: 'CNY' } });
    // Only those due on or before a day, with or without named ids.
    expect(reader.reminderTasks('u-1', undefined, '2026-12-01').map((t) => t.id).sort()).toEqual(['t-1', 't-4']);
    expect(reader.reminderTasks('u-1', undefined, '2026-11-30')).toEqual([]);
    expect(reader.reminderTasks('u-1', ['t-1'], '2026-12-01').map((t) => t.id)).toEqual(['t-1']);
    expect(reader.reminderTasks('u-1', ['t-1', 't-4'], '2026-11-30')).toEqual([]);
    expect(createDashboardReader(replica.sqlite).reminderSettings('u-1')?.othersTask.reminderTime).toBe('08:30');
    expect(createDashboardReader(replica.sqlite).reminderSettings('u-2')).toBeNull();
    expect(reader.taskIsOpen('t-1')).toBe(true);
    expect(reader.taskIsOpen('t-3')).toBe(false);

    writer.applyPulledChanges([{ entity: 'performanceTask', op: 'delete', id: 't-4' }], '11', '2026-11-02T00:00:00.000Z');
    expect(reader.taskIsOpen('t-4')).toBe(false);
    // Losing the contract (a transfer's tombstone) takes its tasks along.
    writer.applyPulledChanges([{ entity: 'contract', op: 'delete', id: contractId(1) }], '12', '2026-11-02T00:00:00.000Z');
    expect(replica.sqlite.prepare('select count(*) from performance_tasks').pluck().get()).toBe(0);
    expect(writer.takeRoundChanges()).toEqual(['performanceTask']);
  });

  it('a failed page leaves neither its tasks nor the cursor behind', () => {
    const writer = replicaWriter(replica, replicaFeatures);
    const broken = upsertTask(task('t-9', { name: null as unknown as string }));
    expect(() => writer.applyPulledChanges([upsertTask(task('t-8')), broken], '20', '2026-11-02T00:00:00.000Z')).toThrow();
    expect(replica.sqlite.prepare('select count(*) from performance_tasks').pluck().get()).toBe(0);
    expect(metaReader(replica).cursor()).toBe('0');
  });

  it('a resync brings every task again: the old ones are cleared when it starts', () => {
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges([upsertTask(task('t-1'))], '5', '2026-11-02T00:00:00.000Z');
    writer.startResync();
    expect(replica.sqlite.prepare('select count(*) from performance_tasks').pluck().get()).toBe(0);
    expect(metaReader(replica).cursor()).toBe('0');
  });

  it("reads one contract's tasks for its page, by due date with undated ones last, amounts with their unit", () => {
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges(
      [
        { entity: 'contract', op: 'upsert', row: makeContract(1) },
        { entity: 'contract', op: 'upsert', row: makeContract(2) },
        upsertTask(task('t-late', { expirationTime: '2027-01-05', planId: 'p-1' })),
        upsertTask(task('t-undated', { expirationTime: null, receivableAmount: null, payableAmount: 80_00 })),
        upsertTask(task('t-soon', { expirationTime: '2026-12-01', state: 4, amountUnit: null })),
        upsertTask(task('t-other', { contractId: contractId(2) })),
      ],
      '1',
      '2026-11-02T00:00:00.000Z',
    );
    const reader = createFulfilmentReader(replica.db);
    // No plan of theirs is in the replica: all three are shown as the contract's other tasks.
    const { plans, looseTasks: tasks } = reader.contract(contractId(1), '2026-11-02');
    expect(plans).toEqual([]);
    expect(tasks.map((t) => t.id)).toEqual(['t-soon', 't-late', 't-undated']);
    expect(tasks[0]).toMatchObject({ id: 't-soon', planId: null, name: 'Task t-soon', state: 4, dueDate: '2026-12-01', receivableAmount: null, payableAmount: null, pending: false });
    expect(tasks[1]).toMatchObject({ planId: 'p-1', receivableAmount: { amount: 500_00, unit: 'CNY' }, payableAmount: null });
    expect(tasks[2]).toMatchObject({ dueDate: null, receivableAmount: null, payableAmount: { amount: 80_00, unit: 'CNY' } });
    expect(() => reader.contract('c-missing', '2026-11-02')).toThrow(/not in this device's data/);
  });
});
