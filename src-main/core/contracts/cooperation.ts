import { and, desc, eq, ne, notInArray } from 'drizzle-orm';
import { AppFailure } from '../../../src-shared/errors';
import { cooperationRowLimit, type CooperativeInfo } from '../../../src-shared/ipc/drafting';
import { toReplicaContract, type ContractRow } from './contract-rows';
import type { OpenReplica } from '../data/replica';
import { contracts, contractsLocal } from '../data/schema';

// The contract detail's cooperation information (spec 2, 3): the organisation's history with the
// contract's counterparty, i.e. the other contracts with that counterparty (by its id: two
// counterparties of one name are two histories), newest first, as the replica sees them (base
// rows overlaid with the user's unconfirmed edits), so it works offline.

function toCooperativeInfo(row: ContractRow): CooperativeInfo {
  const contract = toReplicaContract(row);
  return {
    contractID: contract.id,
    updateTime: contract.updateTime,
    state: contract.status,
    amount: contract.amount,
    operatorList: contract.responsibleUserName === null ? [] : [contract.responsibleUserName],
    name: contract.name,
    contractNumber: contract.contractNumber,
  };
}

/** Newest first; equal times by id, descending, so the order is stable. */
const newestFirst = (a: ContractRow, b: ContractRow) => (a.updateTime === b.updateTime ? (a.id < b.id ? 1 : -1) : a.updateTime < b.updateTime ? 1 : -1);

/** At most `cooperationRowLimit` rows; `not_found` when the contract is not in the replica. */
export function cooperationInformation({ db }: OpenReplica, contractId: string): CooperativeInfo[] {
  const contract = db.select().from(contractsLocal).where(eq(contractsLocal.id, contractId)).get() ?? db.select().from(contracts).where(eq(contracts.id, contractId)).get();
  if (!contract) throw new AppFailure('not_found');
  if (contract.counterpartyId === null) return [];
  // The local rows are few (one per contract with a live edit); the base rows come off the
  // (counterparty_id, update_time) index, leaving out those a local row replaces.
  const local = db
    .select()
    .from(contractsLocal)
    .where(and(eq(contractsLocal.counterpartyId, contract.counterpartyId), ne(contractsLocal.id, contractId)))
    .all();
  const base = db
    .select()
    .from(contracts)
    .where(
      and(
        eq(contracts.counterpartyId, contract.counterpartyId),
        ne(contracts.id, contractId),
        notInArray(contracts.id, db.select({ id: contractsLocal.id }).from(contractsLocal)),
      ),
    )
    .orderBy(desc(contracts.updateTime), desc(contracts.id))
    .limit(cooperationRowLimit)
    .all();
  return [...local, ...base].sort(newestFirst).slice(0, cooperationRowLimit).map(toCooperativeInfo);
}
