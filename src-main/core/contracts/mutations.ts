import { ledgerTerms } from '../../../src-shared/rules/contract-terms';
import { AppFailure } from '../../../src-shared/errors';
import { approvalTransitions, stepRefusal } from '../../../src-shared/rules/contract-status';
import { rowKey, type RowKey } from '../../../src-shared/sync/mutations';
import type { ClientMutations, ReplicaTx, WorkingRows } from '../data/replica-features';
import { numberNotices } from '../data/schema';
import type { ReplicaContract } from './contract-rows';
import { contractNotFound, contractOverlay, currentContract } from './contract-store';
import { catalogueNames, type CatalogueNames } from './drafting-store';

// The client side of the contract mutations of src-shared/sync/mutations.ts: what is refused
// before queueing, the optimistic effect on the local rows, and what a server's answer leaves.
// Args are validated with the shared schema before they get here.

export type ContractMutation = 'contract.update' | 'contract.create' | 'contract.alter' | 'contract.approvalStep';

const contractRow = (rows: WorkingRows, key: RowKey) => rows.get(key) as ReplicaContract | null;

/** An edit of a contract the replica does not hold is refused: nothing here could show it, and the server refuses it. */
function contractInReplica(db: ReplicaTx, id: string): void {
  if (contractOverlay.name(db, id) === null) throw contractNotFound(id);
}

/** A row with new form values, and the terms its template's fields hold, as the server will store them. */
function withFormValues(row: ReplicaContract, formValues: Record<string, unknown>, catalogue: CatalogueNames | null): ReplicaContract {
  const fields = row.templateId === null ? [] : (catalogue?.template(row.templateId)?.fields ?? []);
  return { ...row, formValues, ...ledgerTerms(fields, formValues) };
}

export const contractMutations: ClientMutations<ContractMutation> = {
  'contract.update': {
    check: () => undefined,
    apply(args, rows, { owner, db }) {
      const key = rowKey('contract', args.id);
      const row = contractRow(rows, key);
      // A contract gone from the replica (deleted, access lost) has nothing to show the edit on;
      // the server decides the mutation's fate.
      if (!row) return;
      const { formValues, ...patch } = args.patch;
      const patched = { ...row, ...patch };
      rows.put(key, formValues === undefined ? patched : withFormValues(patched, { ...row.formValues, ...formValues }, owner && catalogueNames(db, owner.id)));
    },
    view: (args) => ({ row: rowKey('contract', args.id), changes: args.patch }),
  },
  'contract.create': {
    check: () => undefined,
    apply(args, rows, { at, owner, outcome, db }) {
      const key = rowKey('contract', args.id);
      const catalogue = owner && catalogueNames(db, owner.id);
      // As the server does: the template's contract type unless one is chosen.
      const template = args.templateId === null ? null : (catalogue?.template(args.templateId) ?? null);
      const contractTypeId = args.contractTypeId ?? template?.contractTypeId ?? null;
      // Shown with the number the server gave once known, with the provisional one until then.
      const automatic = args.contractNumber === null;
      const contractNumber = outcome ? outcome.contractNumber : (args.contractNumber ?? args.provisionalNumber);
      const terms = ledgerTerms(template?.fields ?? [], args.formValues);
      rows.put(key, {
        id: args.id,
        name: args.name,
        contractNumber,
        contractNumberAuto: automatic && contractNumber !== null,
        numberProvisional: automatic && !outcome && contractNumber !== null,
        status: 1,
        contractTypeId,
        contractTypeName: contractTypeId === null ? null : (catalogue?.contractTypeName(contractTypeId) ?? null),
        templateId: args.templateId,
        templateName: template?.name ?? null,
        counterpartName: terms.counterpartName ?? null,
        amount: terms.amount ?? null,
        responsibleUserId: owner?.id ?? null,
        responsibleUserName: owner?.displayName ?? null,
        departmentId: owner?.departmentId ?? null,
        departmentName: owner?.departmentName ?? null,
        signDate: terms.signDate ?? null,
        createTime: at,
        updateTime: at,
        version: 0,
        formValues: args.formValues,
      } satisfies ReplicaContract);
    },
    /** A draft's provisional number the server replaced: kept as a notice until dismissed. */
    applied(db, args, outcome, at) {
      if (args.provisionalNumber === null || args.provisionalNumber === outcome.contractNumber) return [];
      const notice = { contractName: args.name, provisional: args.provisionalNumber, confirmed: outcome.contractNumber, at };
      db.insert(numberNotices).values({ contractId: args.id, ...notice }).onConflictDoUpdate({ target: numberNotices.contractId, set: notice }).run();
      return ['numberNotice'];
    },
    view: (args) => ({ row: rowKey('contract', args.id), changes: args.formValues, name: args.name }),
  },
  'contract.alter': {
    check: (args, db) => contractInReplica(db, args.id),
    apply(args, rows, { owner, db }) {
      const key = rowKey('contract', args.id);
      const row = contractRow(rows, key);
      if (row) rows.put(key, withFormValues(row, { ...row.formValues, ...args.formValues }, owner && catalogueNames(db, owner.id)));
    },
    view: (args) => ({ row: rowKey('contract', args.id), changes: args.formValues }),
  },
  'contract.approvalStep': {
    /**
     * The server's refusal, now: the step must start from the contract's status as this device
     * shows it (the user's own queued steps included) and be one the user may take.
     */
    check(args, db, owner) {
      const contract = currentContract(db, args.id);
      if (!contract) throw contractNotFound(args.id);
      if (!owner) throw new AppFailure('not_signed_in');
      const refusal = stepRefusal('contract', args.action, contract.status, owner.role);
      if (refusal) throw refusal;
    },
    apply(args, rows) {
      const key = rowKey('contract', args.id);
      const row = contractRow(rows, key);
      // Shown where it leads until the server decides; the server's answer (a pull) settles it.
      if (row) rows.put(key, { ...row, status: approvalTransitions[args.action].to });
    },
    view: (args) => ({ row: rowKey('contract', args.id), changes: { status: approvalTransitions[args.action].to } }),
  },
};
