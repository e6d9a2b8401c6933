import type { MutationOutcome } from '../../../src-shared/api/sync';
import type { User } from '../../../src-shared/domain/user';
import { ledgerTerms } from '../../../src-shared/rules/contract-terms';
import { rowKey, type MutationArgs, type MutationName, type RowKey } from '../../../src-shared/sync/mutations';
import type { ReplicaContract } from './contract-rows';
import type { CatalogueNames } from './drafting-store';

// The client side of each mutation in src-shared/sync/mutations.ts: its optimistic effect on the
// local rows. Args are validated with the shared schema before they get here. The mapped type
// makes a mutation without a client apply a type error.

/** The rows a replay works on: base rows, changed in place by the mutations re-applied so far. */
export interface WorkingRows {
  get(key: RowKey): ReplicaContract | null;
  put(key: RowKey, row: ReplicaContract): void;
}

/** What a replay knows besides the args. */
export interface LocalContext {
  /** When the edit was made. */
  at: string;
  /** Whose replica this is: the responsible person of a contract drafted here. */
  owner: User | null;
  /** What the server decided, once it applied the mutation (kept until the pull brings the row). */
  outcome?: MutationOutcome;
  /** The owner's drafting catalogue, for the names a draft shows before the server sends them. */
  catalogue: CatalogueNames | null;
}

type LocalApply<N extends MutationName> = (args: MutationArgs<N>, rows: WorkingRows, context: LocalContext) => void;

/** A row with new form values, and the terms its template's fields hold, as the server will store them. */
function withFormValues(row: ReplicaContract, formValues: Record<string, unknown>, catalogue: CatalogueNames | null): ReplicaContract {
  const fields = row.templateId === null ? [] : (catalogue?.template(row.templateId)?.fields ?? []);
  return { ...row, formValues, ...ledgerTerms(fields, formValues) };
}

export const localApplies: { [N in MutationName]: LocalApply<N> } = {
  'contract.update': (args, rows, { catalogue }) => {
    const key = rowKey('contract', args.id);
    const row = rows.get(key);
    // A contract gone from the replica (deleted, access lost) has nothing to show the edit on;
    // the server decides the mutation's fate.
    if (!row) return;
    const { formValues, ...patch } = args.patch;
    const patched = { ...row, ...patch };
    rows.put(key, formValues === undefined ? patched : withFormValues(patched, { ...row.formValues, ...formValues }, catalogue));
  },
  'contract.create': (args, rows, { at, owner, outcome, catalogue }) => {
    const key = rowKey('contract', args.id);
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
    });
  },
  'contract.alter': (args, rows, { catalogue }) => {
    const key = rowKey('contract', args.id);
    const row = rows.get(key);
    if (row) rows.put(key, withFormValues(row, { ...row.formValues, ...args.formValues }, catalogue));
  },
};

export function applyLocal(name: MutationName, args: unknown, rows: WorkingRows, context: LocalContext): void {
  // The name and its args were checked together against the shared registry.
  (localApplies[name] as (args: unknown, rows: WorkingRows, context: LocalContext) => void)(args, rows, context);
}
