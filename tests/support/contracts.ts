import type { SyncContract } from '../../src-shared/api/sync';
import type { ContractStatus } from '../../src-shared/domain/enums';

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
    ...overrides,
  };
}
