import type { Contract } from '../../../src-shared/domain/contract';
import type { ContractStatus } from '../../../src-shared/domain/enums';
import type { contracts } from './schema';

// A contract as sync and the UI know it <-> its row in `contracts` / `contracts_local`.

export type ContractRow = typeof contracts.$inferSelect;

export function toContract(row: ContractRow): Contract {
  const { amount, amountUnit, status, ...rest } = row;
  return {
    ...rest,
    status: (status ?? null) as ContractStatus | null,
    amount: amount === null || amountUnit === null ? null : { amount, unit: amountUnit },
  };
}

export function toRow(contract: Contract): ContractRow {
  const { amount, ...rest } = contract;
  return { ...rest, amount: amount?.amount ?? null, amountUnit: amount?.unit ?? null };
}
