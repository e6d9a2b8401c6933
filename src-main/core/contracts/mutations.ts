import type { User } from '../../../src-shared/domain/user';
import type { FieldConfig } from '../../../src-shared/domain/contract-forms';
import { AppFailure, invalidFields } from '../../../src-shared/errors';
import { alterationIssues, cleanContractForm } from '../../../src-shared/rules/contract-forms';
import { approvalTransitions, stepRefusal } from '../../../src-shared/rules/contract-status';
import { ledgerTerms } from '../../../src-shared/rules/contract-terms';
import { rowKey, type RowKey } from '../../../src-shared/sync/mutations';
import { byFieldGroup } from '../../../src-shared/sync/field-versions';
import type { ClientMutations, ReplicaTx, WorkingRows } from '../data/replica-features';
import { numberNotices } from '../data/schema';
import type { ReplicaContract } from './contract-rows';
import { currentContract } from './contract-store';
import { catalogueNames, catalogueTemplate, type CatalogueNames } from './drafting-store';

// The client side of the contract mutations of src-shared/sync/mutations.ts: what is refused
// before queueing (the server's form rules, from src-shared), the optimistic effect on the local
// rows, and what a server's answer leaves. Args passed the shared schema, and the contract an
// edit touches is in the replica (the outbox checks both first).

export type ContractMutation = 'contract.update' | 'contract.create' | 'contract.alter' | 'contract.approvalStep';

const contractRow = (rows: WorkingRows, key: RowKey) => rows.get(key) as ReplicaContract | null;

/**
 * The fields a contract's values are checked against: none without a template (so every value is
 * refused, as the server does), null when its template is not in the catalogue (the server checks).
 */
function fieldsOf(db: ReplicaTx, owner: User | null, templateId: string | null): readonly FieldConfig[] | null {
  if (templateId === null) return [];
  return (owner && catalogueTemplate(db, owner.id, templateId)?.fields) ?? null;
}

/**
 * The cleaned name and values, or a validation failure naming each issue by the shared rules, as
 * the server checks on sync. Without the template's fields only the name is checked here.
 */
export function checkedForm(name: string, fields: readonly FieldConfig[] | null, formValues: Record<string, unknown>): { name: string; formValues: Record<string, unknown> } {
  const { issues, ...form } = cleanContractForm(name, fields ?? [], formValues);
  const kept = fields ? issues : issues.filter((issue) => issue.path === 'name');
  if (kept.length > 0) throw invalidFields(kept);
  return fields ? form : { name: form.name, formValues };
}

/** The contract an edit touches: the outbox found it in the replica before the check runs. */
const touched = (db: ReplicaTx, id: string) => currentContract(db, id)!;

/** A row with new form values, and the terms its template's fields hold, as the server will store them. */
function withFormValues(row: ReplicaContract, formValues: Record<string, unknown>, catalogue: CatalogueNames | null): ReplicaContract {
  const fields = row.templateId === null ? [] : (catalogue?.template(row.templateId)?.fields ?? []);
  return { ...row, formValues, ...ledgerTerms(fields, formValues) };
}

export const contractMutations: ClientMutations<ContractMutation> = {
  'contract.update': {
    /** As the server's patch: a name that cleans to nothing, then the whole form with the given values. */
    check({ id, patch }, { db, owner }) {
      const named = patch.name === undefined ? [] : cleanContractForm(patch.name, [], {}).issues;
      if (named.length > 0) throw invalidFields(named.map((issue) => ({ ...issue, path: 'patch.name' })));
      if (patch.formValues === undefined) return;
      const row = touched(db, id);
      checkedForm(patch.name ?? row.name, fieldsOf(db, owner, row.templateId), { ...row.formValues, ...patch.formValues });
    },
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
    view: (args) => ({ row: rowKey('contract', args.id), changes: byFieldGroup(args.patch) }),
  },
  'contract.create': {
    check: (args, { db, owner }) => void checkedForm(args.name, fieldsOf(db, owner, args.templateId), args.formValues),
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
    view: (args) => ({ row: rowKey('contract', args.id), changes: byFieldGroup({ formValues: args.formValues }), name: args.name }),
  },
  'contract.alter': {
    /** As the server's alteration: only alterable fields of the form change, and the altered form is valid. */
    check({ id, formValues }, { db, owner }) {
      const row = touched(db, id);
      const fields = fieldsOf(db, owner, row.templateId);
      const refused = fields ? alterationIssues(fields, formValues) : [];
      if (refused.length > 0) throw invalidFields(refused);
      checkedForm(row.name, fields, { ...row.formValues, ...formValues });
    },
    apply(args, rows, { owner, db }) {
      const key = rowKey('contract', args.id);
      const row = contractRow(rows, key);
      if (row) rows.put(key, withFormValues(row, { ...row.formValues, ...args.formValues }, owner && catalogueNames(db, owner.id)));
    },
    view: (args) => ({ row: rowKey('contract', args.id), changes: byFieldGroup({ formValues: args.formValues }) }),
  },
  'contract.approvalStep': {
    /**
     * The server's refusal, now: the step must start from the contract's status as this device
     * shows it (the user's own queued steps included) and be one the user may take.
     */
    check(args, { db, owner }) {
      if (!owner) throw new AppFailure('not_signed_in');
      const refusal = stepRefusal('contract', args.action, touched(db, args.id).status, owner.role);
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
