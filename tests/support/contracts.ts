import type { SyncContract, SyncTask } from '../../src-shared/api/sync';
import { TaskState, type ContractStatus } from '../../src-shared/domain/enums';

/** A contract for tests, as the sync feed carries it; `i` makes it unique and orders update times. */
/** The id of the i-th test contract. */
export const contractId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

export function makeContract(i: number, overrides: Partial<SyncContract> = {}): SyncContract {
  const time = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return {
    // UUID-shaped like the server's ids, numbered so that id order is number order.
    id: contractId(i),
    name: `Service agreement ${i}`,
    contractNumber: `HT-2026-${String(i).padStart(6, '0')}`,
    status: ((i % 5) + 1) as ContractStatus,
    contractTypeName: 'Service',
    templateName: null,
    counterpartName: `Counterparty ${i % 7}`,
    counterpartyId: `cp-${i % 7}`,
    amount: { amount: 100_00 * i, unit: 'CNY' },
    responsibleUserId: 'u-1',
    responsibleUserName: 'Li Hua',
    departmentId: 'd-1',
    departmentName: 'Legal',
    signDate: '2026-01-01',
    createTime: time,
    updateTime: time,
    version: 1,
    contractNumberAuto: false,
    contractTypeId: null,
    templateId: null,
    formValues: {},
    approvalTrail: [],
    ...overrides,
  };
}

/** The id of the i-th test task. */
export const taskId = (i: number) => `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`;

/** A performance task for tests and benches, as the sync feed carries it: a receivable row of no plan. */
export function makeTask(i: number, overrides: Partial<SyncTask> = {}): SyncTask {
  const time = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  return {
    id: taskId(i),
    contractId: null,
    planId: null,
    performanceId: null,
    name: `Task ${i}`,
    type: 'receivable',
    state: TaskState.InProgress,
    expirationTime: '2026-12-31',
    receivableAmount: 100_00,
    payableAmount: null,
    amountUnit: 'CNY',
    leaderUserId: null,
    rowIndex: 1,
    level: null,
    values: {},
    completionValues: null,
    finishedAmount: null,
    frontTaskIds: null,
    createTime: time,
    version: 1,
    updateTime: time,
    ...overrides,
  };
}
