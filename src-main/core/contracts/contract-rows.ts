import type { SyncContract } from '../../../src-shared/api/sync';
import type { Contract } from '../../../src-shared/domain/contract';
import type { ContractStatus } from '../../../src-shared/domain/enums';
import type { contracts } from '../data/schema';

// A contract as sync and the UI know it <-> its row in `contracts` / `contracts_local`.

export type ContractRow = typeof contracts.$inferSelect;

/** A contract in the replica: the feed's row and whether its number is still provisional. */
export type ReplicaContract = SyncContract & { numberProvisional: boolean };

export function toReplicaContract(row: ContractRow): ReplicaContract {
  const { amount, amountUnit, status, ...rest } = row;
  return {
    ...rest,
    status: (status ?? null) as ContractStatus | null,
    amount: amount === null || amountUnit === null ? null : { amount, unit: amountUnit },
  };
}

/** The ledger's row: the form's columns stay in the replica until the detail screen asks. */
export function toContract(row: ContractRow): Contract {
  const {
    contractNumberAuto: _auto,
    contractTypeId: _type,
    templateId: _template,
    formValues: _values,
    numberProvisional: _provisional,
    counterpartyId: _party,
    approvalTrail: _trail,
    ...ledger
  } = toReplicaContract(row);
  return ledger;
}

export function toRow(contract: ReplicaContract): ContractRow {
  const { amount, ...rest } = contract;
  return { ...rest, amount: amount?.amount ?? null, amountUnit: amount?.unit ?? null };
}

/** A pulled row: the server's number is never provisional. */
export const pulledRow = (contract: SyncContract): ContractRow => toRow({ ...contract, numberProvisional: false });
