import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncChange, SyncPlan, SyncTask } from '../../src-shared/api/sync';
import { ScheduleConditionType } from '../../src-shared/domain/enums';
import type { SheetColumn } from '../../src-shared/domain/performance';
import { AppFailure } from '../../src-shared/errors';
import { createOutbox } from '../../src-main/core/data/outbox';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { replicaFeatures } from '../../src-main/core/features';
import { createFulfilmentReader } from '../../src-main/core/performance/fulfilment-store';
import { clientMigrationsDir } from '../../src-main/paths';
import { contractId, makeContract, makeTask } from '../support/contracts';
import { tempDir } from '../support/temp';

// The core refuses a plan save with an invalid sheet cell at once (src-shared/rules/sheet-cells),
// as the server would, naming the row and the column: nothing is queued and the sheet stays.

const today = '2026-11-10';
const at = '2026-11-10T00:00:00.000Z';
const approved = contractId(3);
const columns: SheetColumn[] = [
  { id: 'name', name: 'performance content', type: 'text', isRequired: true, isState: false },
  { id: 'receivableAmount', name: 'receivable amount', type: 'money', isRequired: true, isState: false },
  { id: 'qty', name: 'quantity', type: 'number', config: { valueRange: { mode: 1, conditions: [{ comparator: 'greater', value: '0' }, { comparator: 'lessOrEqual', value: '100' }] } }, isRequired: false, isState: false },
  { id: 'grade', name: 'grade', type: 'select', config: { options: [{ id: 'a', name: 'A' }] }, isRequired: false, isState: false },
  { id: 'when', name: 'when', type: 'performanceTime', isRequired: false, isState: false },
];
const plan: SyncPlan = {
  id: 'plan-a', contractId: approved, performanceId: 'perf-a', performanceName: 'Collections', performanceType: 'receivable',
  columns, fields: [], conditionType: ScheduleConditionType.SingleOrMultiple, schedule: null, version: 1, updateTime: at,
};
const task = (id: string, overrides: Partial<SyncTask>): SyncTask =>
  makeTask(0, { id, contractId: approved, planId: 'plan-a', performanceId: 'perf-a', name: `Task ${id}`, expirationTime: '2026-11-20', createTime: at, updateTime: at, ...overrides });

const refusalOf = (run: () => unknown) => {
  try {
    run();
    return null;
  } catch (cause) {
    return cause instanceof AppFailure ? cause.error : null;
  }
};

describe('a sheet save with an invalid cell on this device', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  let outbox: ReturnType<typeof createOutbox>;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const changes: SyncChange[] = [
      { entity: 'contract', op: 'upsert', row: makeContract(3) },
      { entity: 'performancePlan', op: 'upsert', row: plan },
      { entity: 'performanceTask', op: 'upsert', row: task('a-1', { rowIndex: 1 }) },
    ];
    replicaWriter(replica, replicaFeatures).applyPulledChanges(changes, '1', at);
    outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date(at) } });
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  const save = (rows: object[]) => ({ performanceId: 'perf-a', planId: 'plan-a', plan: { contractID: approved, conditionType: 1 as const, rows } });
  const sheet = () => createFulfilmentReader(replica.db).contract(approved, today).plans[0]!;

  it('is refused at once with the row, the column and why; nothing is queued and the sheet is as it was', () => {
    const before = sheet();
    const cases: [object[], { row: number; column: string; problem: string }][] = [
      [[{ id: 'a-1', values: { qty: '101' } }], { row: 1, column: 'quantity', problem: 'valueRange' }],
      [[{ id: 'a-1' }, { name: 'New', receivableAmount: { amount: 0, unit: 'CNY' } }], { row: 2, column: 'receivable amount', problem: 'paymentAmount' }],
      [[{ id: 'a-1', values: { grade: 'z' } }], { row: 1, column: 'grade', problem: 'invalid' }],
      [[{ id: 'a-1', values: { when: { conditionType: 1, nodeId: 'signDate', days: [] } } }], { row: 1, column: 'when', problem: 'conditionTime' }],
    ];
    for (const [rows, params] of cases) {
      const refusal = refusalOf(() => outbox.enqueue('performance.savePlan', save(rows)));
      expect(refusal, JSON.stringify(rows).slice(0, 80)).toMatchObject({ code: 'validation_failed', reason: { key: 'sheetCellInvalid', params } });
    }
    expect(replica.sqlite.prepare('select count(*) from outbox').pluck().get()).toBe(0);
    expect(sheet()).toEqual(before);
  });

  it('takes valid cells of every kind', () => {
    const values = { qty: '100', grade: 'a', when: { conditionType: 2, nodeId: 'signDate', days: [0], cycle: 'month' } };
    expect(refusalOf(() => outbox.enqueue('performance.savePlan', save([{ id: 'a-1', values }, { name: 'New', receivableAmount: { amount: 1, unit: 'CNY' } }])))).toBeNull();
    expect(sheet().pendingRows?.[0]).toMatchObject({ id: 'a-1', values });
  });

  it('asks every new row for its required cells, and refuses emptying one on a saved row (issue 28: not only the editor)', () => {
    const cases: [object[], { row: number; column: string; problem: string }][] = [
      [[{ id: 'a-1' }, { name: 'No amount' }], { row: 2, column: 'receivable amount', problem: 'paymentAmount' }],
      [[{ id: 'a-1', receivableAmount: null }], { row: 1, column: 'receivable amount', problem: 'paymentAmount' }],
    ];
    for (const [rows, params] of cases) {
      expect(refusalOf(() => outbox.enqueue('performance.savePlan', save(rows)))).toMatchObject({ code: 'validation_failed', reason: { key: 'sheetCellInvalid', params } });
    }
    // A schedule's rows hold its amount in the column it names: a payable schedule leaves the required receivable amount empty.
    const schedule = { cycle: 'month' as const, startDate: '2027-01-01', endDate: '2027-03-31', amount: { amount: 30_000, unit: 'CNY' }, direction: 'payable' as const, name: 'Rent' };
    const periodic = { ...save([]), plan: { contractID: approved, conditionType: ScheduleConditionType.Periodicity, schedule, rows: [] } };
    expect(refusalOf(() => outbox.enqueue('performance.savePlan', periodic))).toMatchObject({ reason: { key: 'sheetCellInvalid', params: { row: 1, column: 'receivable amount', problem: 'paymentAmount' } } });
    expect(refusalOf(() => outbox.enqueue('performance.savePlan', { ...periodic, plan: { ...periodic.plan, schedule: { ...schedule, direction: 'receivable' as const } } }))).toBeNull();
    // A new plan's rows carry the ids the device made: each is asked for every required cell all the same.
    const other = makeContract(4);
    replicaWriter(replica, replicaFeatures).applyPulledChanges([{ entity: 'contract', op: 'upsert', row: { ...other, status: 4 } }], '2', at);
    const creation = {
      planId: '019a0000-0000-7000-8000-00000000c0de', performanceId: 'perf-a', performance: { name: plan.performanceName, type: 'receivable', columns, fields: [] },
      plan: { contractID: other.id, conditionType: ScheduleConditionType.SingleOrMultiple, scheduleTaskIds: [], rows: [{ id: '019a0000-0000-7000-8000-00000000beef', name: 'By hand' }] },
    };
    expect(refusalOf(() => outbox.enqueue('performance.createPlan', creation))).toMatchObject({ reason: { key: 'sheetCellInvalid', params: { row: 1, column: 'receivable amount', problem: 'paymentAmount' } } });
    expect(replica.sqlite.prepare('select count(*) from outbox').pluck().get()).toBe(1);
  });
});
