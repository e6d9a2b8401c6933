import { ContractStatus } from '../../../src-shared/domain/enums';
import type { User } from '../../../src-shared/domain/user';
import type { FieldConfig } from '../../../src-shared/domain/contract-forms';
import { and, eq, ne, notExists } from 'drizzle-orm';
import { AppFailure, invalidFields, reason } from '../../../src-shared/errors';
import { alterationIssues, cleanContractForm } from '../../../src-shared/rules/contract-forms';
import { approvalTransitions, stepRefusal } from '../../../src-shared/rules/contract-status';
import { blankContractFields } from '../../../src-shared/rules/blank-contract';
import { contractTypeOf, ledgerTerms, refuseTermsHeldByForm } from '../../../src-shared/rules/contract-terms';
import { rowKey, type RowKey } from '../../../src-shared/sync/mutations';
import { byFieldGroup } from '../../../src-shared/sync/field-versions';
import type { ClientMutations, ReplicaTx, WorkingRows } from '../data/replica-features';
import { contracts, contractsLocal, numberNotices } from '../data/schema';
import type { ReplicaContract } from './contract-rows';
import { currentContract } from './contract-store';
import { catalogueNames, keptTemplate, type CatalogueNames } from './drafting-store';

// The client side of the contract mutations of src-shared/sync/mutations.ts: what is refused
// before queueing (the server's form rules, from src-shared), the optimistic effect on the local
// rows, and what a server's answer leaves. Args passed the shared schema, and the contract an
// edit touches is in the replica (the outbox checks both first).

export type ContractMutation = 'contract.update' | 'contract.create' | 'contract.alter' | 'contract.approvalStep' | 'contract.archive';

const contractRow = (rows: WorkingRows, key: RowKey) => rows.get(key) as ReplicaContract | null;

/**
 * The fields a contract's values are checked against: the blank form's without a template (as the
 * server checks), null when this device holds neither its template nor a kept copy (the server checks).
 */
function fieldsOf(db: ReplicaTx, owner: User | null, templateId: string | null): readonly FieldConfig[] | null {
  if (templateId === null) return blankContractFields;
  return (owner && keptTemplate(db, owner.id, templateId)?.fields) ?? null;
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

/** Whether another contract on this device carries the number (as shown: its local row, else its synced one). */
function numberShownElsewhere(db: ReplicaTx, contractNumber: string, id: string): boolean {
  const local = db.select({ id: contractsLocal.id }).from(contractsLocal).where(and(eq(contractsLocal.contractNumber, contractNumber), ne(contractsLocal.id, id))).get();
  const base =
    local ??
    db
      .select({ id: contracts.id })
      .from(contracts)
      .where(and(eq(contracts.contractNumber, contractNumber), ne(contracts.id, id), notExists(db.select({ id: contractsLocal.id }).from(contractsLocal).where(eq(contractsLocal.id, contracts.id)))))
      .get();
  return base !== undefined;
}

/**
 * A given number another contract here already carries: the server refuses it (numbers are unique
 * in the organisation), so the core refuses it at once, naming the field (`path`) as the form knows it.
 */
function refuseNumberShownElsewhere(db: ReplicaTx, contractNumber: string | null | undefined, id: string, path: string): void {
  if (contractNumber === null || contractNumber === undefined || !numberShownElsewhere(db, contractNumber, id)) return;
  const message = `this number duplicates the following contract numbers: ${contractNumber}`;
  throw new AppFailure('conflict', message, [{ path, message }], reason('numberDuplicated', { kind: 'contract', number: contractNumber }));
}

/** The contract an edit touches: the outbox found it in the replica before the check runs. */
const touched = (db: ReplicaTx, id: string) => currentContract(db, id)!;

/** A row with new form values, and the terms its form's fields hold (its type too), as the server will store them. */
function withFormValues(row: ReplicaContract, formValues: Record<string, unknown>, catalogue: CatalogueNames | null, typeFromForm: boolean): ReplicaContract {
  const fields = row.templateId === null ? blankContractFields : (catalogue?.template(row.templateId)?.fields ?? []);
  const contractTypeId = contractTypeOf(fields, formValues, row.contractTypeId);
  const typeChanged = typeFromForm && contractTypeId !== row.contractTypeId && contractTypeId !== null;
  return {
    ...row,
    formValues,
    ...ledgerTerms(fields, formValues),
    ...(typeChanged && { contractTypeId, contractTypeName: catalogue?.contractTypeName(contractTypeId) ?? null }),
  };
}

export const contractMutations: ClientMutations<ContractMutation> = {
  'contract.update': {
    /**
     * As the server's patch: a name that cleans to nothing, the whole form with the given values,
     * then a term set beside the form that holds it (the form's fields known here).
     */
    check({ id, patch }, { db, owner }) {
      const named = patch.name === undefined ? [] : cleanContractForm(patch.name, [], {}).issues;
      if (named.length > 0) throw invalidFields(named.map((issue) => ({ ...issue, path: 'patch.name' })));
      refuseNumberShownElsewhere(db, patch.contractNumber, id, 'patch.contractNumber');
      const row = touched(db, id);
      const fields = fieldsOf(db, owner, row.templateId);
      const form = patch.formValues === undefined ? row : checkedForm(patch.name ?? row.name, fields, { ...row.formValues, ...patch.formValues });
      if (fields) refuseTermsHeldByForm(fields, form.formValues, patch);
    },
    apply(args, rows, { owner, db }) {
      const key = rowKey('contract', args.id);
      const row = contractRow(rows, key);
      // A contract gone from the replica (deleted, access lost) has nothing to show the edit on;
      // the server decides the mutation's fate.
      if (!row) return;
      const { formValues, ...patch } = args.patch;
      const patched = { ...row, ...patch };
      // As the server does: a type the patch names stays; else the form's type is the contract's.
      const catalogue = owner && catalogueNames(db, owner.id);
      rows.put(key, formValues === undefined ? patched : withFormValues(patched, { ...row.formValues, ...formValues }, catalogue, patch.contractTypeId === undefined));
    },
    view: (args) => ({ row: rowKey('contract', args.id), changes: byFieldGroup(args.patch) }),
  },
  'contract.create': {
    check(args, { db, owner }) {
      checkedForm(args.name, fieldsOf(db, owner, args.templateId), args.formValues);
      refuseNumberShownElsewhere(db, args.contractNumber, args.id, 'contractNumber');
    },
    // A refused draft exists nowhere else: it stays shown, to be corrected and re-sent or discarded.
    keptWhenRefused: true,
    apply(args, rows, { at, owner, outcome, db }) {
      const key = rowKey('contract', args.id);
      const catalogue = owner && catalogueNames(db, owner.id);
      // As the server does: the type given, else the one chosen in the form, else the template's.
      const template = args.templateId === null ? null : (catalogue?.template(args.templateId) ?? null);
      const fields = args.templateId === null ? blankContractFields : (template?.fields ?? []);
      const contractTypeId = args.contractTypeId ?? contractTypeOf(fields, args.formValues, template?.contractTypeId ?? null);
      // Shown with the number the server gave once known, with the provisional one until then.
      const automatic = args.contractNumber === null;
      const contractNumber = outcome ? outcome.contractNumber : (args.contractNumber ?? args.provisionalNumber);
      const terms = ledgerTerms(fields, args.formValues);
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
        counterpartyId: terms.counterpartyId ?? null,
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
        approvalTrail: [],
      } satisfies ReplicaContract);
    },
    /** A draft's provisional number the server replaced: kept as a notice until dismissed. */
    applied(db, args, outcome, at) {
      if (args.provisionalNumber === null || args.provisionalNumber === outcome.contractNumber) return [];
      const notice = { contractName: args.name, provisional: args.provisionalNumber, confirmed: outcome.contractNumber, at };
      db.insert(numberNotices).values({ contractId: args.id, ...notice }).onConflictDoUpdate({ target: numberNotices.contractId, set: notice }).run();
      return ['numberNotice'];
    },
    view: (args) => ({ row: rowKey('contract', args.id), changes: byFieldGroup({ name: args.name, contractNumber: args.contractNumber ?? args.provisionalNumber, formValues: args.formValues }), name: args.name }),
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
      // An alteration never changes the type (spec 4).
      if (row) rows.put(key, withFormValues(row, { ...row.formValues, ...args.formValues }, owner && catalogueNames(db, owner.id), false));
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
  'contract.archive': {
    /** As the approval steps: the device's status of the contract must allow archiving, and the user may archive. */
    check(args, { db, owner }) {
      if (!owner) throw new AppFailure('not_signed_in');
      const refusal = stepRefusal('contract', 'archive', touched(db, args.id).status, owner.role);
      if (refusal) throw refusal;
    },
    apply(args, rows) {
      const key = rowKey('contract', args.id);
      const row = contractRow(rows, key);
      // Shown as it is, 'archive pending', until the server applies the step and the pull brings it.
      if (row) rows.put(key, row);
    },
    view: (args) => ({ row: rowKey('contract', args.id), changes: { status: ContractStatus.Archived } }),
  },
};
