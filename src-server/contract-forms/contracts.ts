import { and, asc, eq, or, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { MutationArgs } from '../../src-shared/sync/mutations';
import type { alterationBodySchema, createContractSchema, updateContractSchema } from '../../src-shared/api/contract-forms';
import type { ApprovalTrailEntry } from '../../src-shared/domain/approval-trail';
import type { AlterationChange, ContractDetail, FieldConfig } from '../../src-shared/domain/contract-forms';
import { AppFailure, invalidFields, reason } from '../../src-shared/errors';
import { alterationIssues, cleanContractForm, stripContractName } from '../../src-shared/rules/contract-forms';
import { blankContractFields } from '../../src-shared/rules/blank-contract';
import { contractTerms, contractTypeOf, refuseTermsHeldByForm } from '../../src-shared/rules/contract-terms';
import type { SessionUser } from '../auth/service';
import { visibleTo } from '../contracts/repository';
import type { OrgViewer } from '../http/feature-helpers';
import type { ServerDb } from '../db/database';
import { contracts, contractTypes, counterparties, templates, users } from '../db/schema';
import { checkIfMatch, ifMatchVersion, type Headers } from '../http/write-safety';
import { allocateNumber, isNumberEditor, numberingRuleApplies, numberTaken, refuseDuplicateNumber, type NumberingContext } from '../numbering/service';
import { checkApprover, checkEditable, nextStatus, recordApproval, type ApprovalAction } from './lifecycle';
import { contractAlterations } from './schema';
import { uploadedFiles } from '../files/schema';
import { followContract } from '../performance/related-cells';
import { makeNewParties } from '../counterparties/repository';
import { newPartiesIn, withoutNewMarks } from '../../src-shared/form/parties';

// Contracts through the generic form: create, read, update, delete, the approval steps and
// alterations. Every write checks If-Match (the route layer handles Idempotency-Key).

type ContractRow = typeof contracts.$inferSelect;

export function toContractDetail(row: ContractRow): ContractDetail {
  return {
    id: row.id,
    name: row.name,
    contractNumber: row.contractNumber,
    contractNumberAuto: row.contractNumberAuto,
    status: row.status,
    contractTypeId: row.contractTypeId,
    templateId: row.templateId,
    formValues: row.formValues,
    responsibleUserId: row.responsibleUserId,
    departmentId: row.departmentId,
    archiveFileId: row.archiveFileId,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
    version: row.version,
  };
}

/** A contract the user may see (404 when missing, 403 when not theirs), optionally locked for the write. */
async function loadContract(db: ServerDb, user: SessionUser, id: string, lock: boolean): Promise<ContractRow> {
  const condition = visibleTo(user);
  const query = db
    .select({ row: contracts, visible: condition ? sql<boolean>`(${condition})` : sql<boolean>`true` })
    .from(contracts)
    .where(eq(contracts.id, id));
  const [found] = lock ? await query.for('update', { of: contracts }) : await query;
  if (!found) throw new AppFailure('not_found', `contract ${id} does not exist`, undefined, reason('contractMissing'));
  if (!found.visible) throw new AppFailure('forbidden', `contract ${id} is not yours to see or change`, undefined, reason('contractNotYours'));
  return found.row;
}

export async function contractDetail(db: ServerDb, user: SessionUser, id: string): Promise<ContractDetail> {
  return toContractDetail(await loadContract(db, user, id, false));
}

/** A contract's form: its template's fields, type and name, or the built-in blank form without a template. */
async function templateFields(db: ServerDb, organisationId: string, templateId: string | null): Promise<{ fields: readonly FieldConfig[]; contractTypeId: string | null; name: string | null }> {
  if (templateId === null) return { fields: blankContractFields, contractTypeId: null, name: null };
  const [template] = await db
    .select({ fields: templates.fields, contractTypeId: templates.contractTypeId, name: templates.name })
    .from(templates)
    .where(and(eq(templates.id, templateId), eq(templates.organisationId, organisationId)));
  if (!template) throw new AppFailure('not_found', `template ${templateId} does not exist`, undefined, reason('templateMissing'));
  return { fields: template.fields as FieldConfig[], contractTypeId: template.contractTypeId, name: template.name };
}

async function contractTypeName(db: ServerDb, organisationId: string, contractTypeId: string | null): Promise<string | null> {
  if (contractTypeId === null) return null;
  const [type] = await db.select({ name: contractTypes.name }).from(contractTypes).where(and(eq(contractTypes.id, contractTypeId), eq(contractTypes.organisationId, organisationId)));
  if (!type) throw new AppFailure('not_found', `contract type ${contractTypeId} does not exist`, undefined, reason('contractTypeMissing'));
  return type.name;
}

/** The cleaned name and form values, or a validation failure naming every bad field. */
function cleanForm(name: string, fields: readonly FieldConfig[], values: Record<string, unknown>) {
  const { issues, ...form } = cleanContractForm(name, fields, values);
  if (issues.length > 0) throw invalidFields(issues);
  return form;
}

/**
 * The cleaned form as stored: the parties typed in as new ones made counterparties first (with
 * the ids the desktop gave them), so the contract names them by id and its counterparty column,
 * the ledger and the counterparty search find them.
 */
async function storedForm(tx: ServerDb, user: OrgViewer, name: string, fields: readonly FieldConfig[], values: Record<string, unknown>, at: Date) {
  const form = cleanForm(name, fields, values);
  await makeNewParties(tx, user, newPartiesIn(fields, form.formValues), at);
  return { name: form.name, formValues: withoutNewMarks(fields, form.formValues) };
}

/**
 * The ledger's columns the form values hold (counterparty, amount, signing date; see
 * contract-terms), for the terms the template has a field for. A party is found among the
 * organisation's counterparties by its id, or by its name when it was typed in.
 */
export async function termColumns(tx: ServerDb, organisationId: string, fields: readonly FieldConfig[], formValues: Readonly<Record<string, unknown>>) {
  const terms = contractTerms(fields, formValues);
  const columns: Partial<Pick<ContractRow, 'counterpartyId' | 'amount' | 'amountUnit' | 'signDate'>> = {};
  if (terms.counterparty !== undefined) {
    const party = terms.counterparty;
    const [found] = party
      ? await tx
          .select({ id: counterparties.id })
          .from(counterparties)
          .where(and(eq(counterparties.organisationId, organisationId), or(party.id === null ? undefined : eq(counterparties.id, party.id), eq(counterparties.name, party.name))))
          .orderBy(sql`${counterparties.id} = ${party.id ?? ''} desc`, asc(counterparties.id))
          .limit(1)
      : [];
    columns.counterpartyId = found?.id ?? null;
  }
  if (terms.amount !== undefined) {
    columns.amount = terms.amount?.amount ?? null;
    columns.amountUnit = terms.amount?.unit ?? null;
  }
  if (terms.signDate !== undefined) columns.signDate = terms.signDate;
  return columns;
}

const notEditorMessage = 'the contract number is generated automatically: only contract-number editors may change it';

/** Allocation skips serials that a manually numbered contract already carries. */
async function allocateFreeNumber(tx: ServerDb, organisationId: string, context: NumberingContext, at: Date): Promise<string | undefined> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const number = await allocateNumber(tx, 'contract', context, at);
    if (number === undefined || !(await numberTaken(tx, 'contract', organisationId, number, null))) return number;
  }
  throw new AppFailure('conflict', 'no free contract number: the numbering rule meets numbers given by hand one after another', undefined, reason('noFreeNumber'));
}

export function createContract(db: ServerDb, user: SessionUser, body: z.output<typeof createContractSchema>, at: Date) {
  return db.transaction((tx) => insertContract(tx, user, body, at));
}

/**
 * Drafts a contract inside the caller's transaction, by the rules of POST /contracts: the REST
 * call and the sync mutation contract.create (an offline draft) both come here. A null number is
 * allocated from the numbering rules; a given one is checked for the editor right and duplicates.
 */
export async function insertContract(tx: ServerDb, user: OrgViewer, body: z.output<typeof createContractSchema>, at: Date): Promise<ContractDetail> {
  const { organisationId } = user;
  const template = await templateFields(tx, organisationId, body.templateId ?? null);
  const form = await storedForm(tx, user, body.name, template.fields, body.formValues, at);
  // The type given, else the one chosen in the form, else the template's: it numbers the contract.
  const contractTypeId = body.contractTypeId ?? contractTypeOf(template.fields, form.formValues, template.contractTypeId);
  const typeName = await contractTypeName(tx, organisationId, contractTypeId);
  const terms = await termColumns(tx, organisationId, template.fields, form.formValues);
  const context = { organisationId, userId: user.id, departmentId: user.departmentId, contractTypeId };
  let contractNumber = body.contractNumber ?? null;
  let contractNumberAuto = false;
  if (contractNumber === null) {
    contractNumber = (await allocateFreeNumber(tx, organisationId, context, at)) ?? null;
    contractNumberAuto = contractNumber !== null;
  } else {
    // The input is editable only for number editors, or when no auto mode applies (spec 4).
    if ((await numberingRuleApplies(tx, 'contract', context)) && !(await isNumberEditor(tx, user.id))) throw new AppFailure('forbidden', notEditorMessage, undefined, reason('numberEditorsOnly'));
    await refuseDuplicateNumber(tx, 'contract', organisationId, contractNumber, null, 'contractNumber');
  }
  const id = body.id ?? uuidv7();
  const [existing] = await tx.select({ id: contracts.id }).from(contracts).where(eq(contracts.id, id));
  if (existing) throw new AppFailure('conflict', `contract ${id} already exists`, undefined, reason('contractExists'));
  const [row] = await tx
    .insert(contracts)
    .values({
      id,
      ...form,
      ...terms,
      contractNumber,
      contractNumberAuto,
      status: 1,
      contractTypeId,
      contractTypeName: typeName,
      templateId: body.templateId ?? null,
      templateName: template.name,
      responsibleUserId: user.id,
      businessHandlerUserId: user.id,
      departmentId: user.departmentId,
      createdBy: user.id,
      createTime: at,
      updateTime: at,
    })
    .returning();
  return toContractDetail(row!);
}

/** Locks the contract, checks it is the caller's and at the If-Match version. */
async function lockForWrite(tx: ServerDb, user: SessionUser, headers: Headers, id: string): Promise<ContractRow> {
  const row = await loadContract(tx, user, id, true);
  await checkIfMatch('the contract', row.version, ifMatchVersion(headers), () => toContractDetail(row));
  return row;
}

const bump = (at: Date) => ({ version: sql`${contracts.version} + 1`, updateTime: at });

/**
 * A changed contract number: only number editors change an auto-generated one (spec 6), and no
 * other contract may carry it (refused naming the request's field, `path`). Every path that writes contracts.contract_number must call this
 * (the sync mutation contract.update included).
 */
export async function checkNumberChange(
  tx: ServerDb,
  user: Pick<SessionUser, 'id'>,
  organisationId: string,
  row: Pick<ContractRow, 'id' | 'contractNumber' | 'contractNumberAuto'>,
  contractNumber: string | null,
  path: string,
): Promise<void> {
  if (contractNumber === row.contractNumber) return;
  if (row.contractNumberAuto && !(await isNumberEditor(tx, user.id))) throw new AppFailure('forbidden', notEditorMessage, undefined, reason('numberEditorsOnly'));
  if (contractNumber !== null) await refuseDuplicateNumber(tx, 'contract', organisationId, contractNumber, row.id, path);
}

/**
 * The sync mutation contract.update (the desktop's offline edits), under the same rules as the
 * REST writes: the document changes only while editable, the name is cleaned and a number change
 * is checked. The status moves only by an approval step (contract.approvalStep). The push has
 * already locked the row and checked its visibility and base version.
 */
export async function patchContract(tx: ServerDb, user: OrgViewer, id: string, patch: MutationArgs<'contract.update'>['patch'], at: Date): Promise<void> {
  const [row] = await tx.select().from(contracts).where(eq(contracts.id, id));
  if (!row) throw new AppFailure('not_found', `contract ${id} does not exist`, undefined, reason('contractMissing'));
  const { amount, name, contractNumber, contractTypeId, formValues, ...fields } = patch;
  checkEditable('contract', row.status);
  if (contractNumber !== undefined) await checkNumberChange(tx, user, user.organisationId, row, contractNumber, 'patch.contractNumber');
  const cleanName = name === undefined ? undefined : stripContractName(name);
  if (cleanName === '') throw invalidFields([{ path: 'patch.name', message: 'please enter the contract name' }]);
  // The given form values replace the kept ones and the whole form is checked as PUT checks it.
  let form: Awaited<ReturnType<typeof storedForm>> | undefined;
  let terms = {};
  let typeId = contractTypeId;
  const setsTerm = fields.signDate !== undefined || amount !== undefined || contractTypeId !== undefined;
  const templateFieldList = formValues !== undefined || setsTerm ? (await templateFields(tx, user.organisationId, row.templateId)).fields : [];
  if (formValues !== undefined) {
    form = await storedForm(tx, user, cleanName ?? row.name, templateFieldList, { ...row.formValues, ...formValues }, at);
    // Terms held by the form follow it; a term the template has no field for stays the patch's.
    terms = await termColumns(tx, user.organisationId, templateFieldList, form.formValues);
    // A type chosen in the form is the contract's, unless the patch names one itself.
    if (typeId === undefined) typeId = contractTerms(templateFieldList, form.formValues).contractTypeId ?? undefined;
  }
  // A term the form holds is changed in the form: set beside it, the next write of the form would undo it.
  refuseTermsHeldByForm(templateFieldList, form?.formValues ?? row.formValues, { signDate: fields.signDate, amount, contractTypeId });
  const typeName = typeId === undefined ? undefined : await contractTypeName(tx, user.organisationId, typeId);
  await tx
    .update(contracts)
    .set({
      ...fields,
      ...(cleanName !== undefined && { name: cleanName }),
      ...(form && { formValues: form.formValues }),
      ...(typeId !== undefined && { contractTypeId: typeId, contractTypeName: typeName ?? null }),
      ...(contractNumber !== undefined && { contractNumber }),
      // Money is stored as amount and unit, both set or both null.
      ...(amount !== undefined && { amount: amount?.amount ?? null, amountUnit: amount?.unit ?? null }),
      ...terms,
      ...bump(at),
    })
    .where(eq(contracts.id, id));
  if (form) await followContract(tx, id, form.formValues);
}

export function updateContract(db: ServerDb, user: SessionUser, headers: Headers, id: string, body: z.output<typeof updateContractSchema>, at: Date) {
  return db.transaction(async (tx) => {
    const row = await lockForWrite(tx, user, headers, id);
    checkEditable('contract', row.status);
    const { organisationId } = user;
    const template = await templateFields(tx, organisationId, row.templateId);
    const form = await storedForm(tx, user, body.name, template.fields, body.formValues, at);
    const contractTypeId = body.contractTypeId === undefined ? contractTypeOf(template.fields, form.formValues, row.contractTypeId) : body.contractTypeId;
    const typeName = await contractTypeName(tx, organisationId, contractTypeId);
    const terms = await termColumns(tx, organisationId, template.fields, form.formValues);
    const contractNumber = body.contractNumber ?? row.contractNumber;
    await checkNumberChange(tx, user, organisationId, row, contractNumber, 'contractNumber');
    const [updated] = await tx
      .update(contracts)
      .set({ ...form, ...terms, contractNumber, contractTypeId, contractTypeName: typeName, ...bump(at) })
      .where(eq(contracts.id, id))
      .returning();
    await followContract(tx, id, form.formValues);
    return toContractDetail(updated!);
  });
}

export function deleteContract(db: ServerDb, user: SessionUser, headers: Headers, id: string) {
  return db.transaction(async (tx) => {
    const row = await lockForWrite(tx, user, headers, id);
    checkEditable('contract', row.status);
    await tx.delete(contracts).where(eq(contracts.id, id));
    return { id, deleted: true as const };
  });
}

/**
 * An approval step (submit, approve, reject, or archive with the archived file's id) on a locked
 * contract the user may see: the one path of the REST steps and of the sync mutation
 * contract.approvalStep, so both decide by the contract's status at the time they apply.
 */
async function stepRow(tx: ServerDb, user: OrgViewer, row: ContractRow, action: ApprovalAction, details: StepDetails, at: Date): Promise<ContractRow> {
  checkApprover(user, action);
  const status = nextStatus('contract', action, row.status);
  if (action === 'archive') await bindArchiveFile(tx, user, row.id, details.fileId);
  const [author] = await tx.select({ name: users.displayName }).from(users).where(eq(users.id, user.id));
  // The trail goes with the contract (the feed sends it): who, the comment, when taken and when applied.
  const entry: ApprovalTrailEntry = {
    action,
    fromStatus: row.status,
    toStatus: status,
    userId: user.id,
    userName: author?.name ?? '',
    comment: details.comment ?? null,
    takenAt: (details.takenAt ?? at).toISOString(),
    appliedAt: at.toISOString(),
  };
  const [updated] = await tx
    .update(contracts)
    .set({
      status,
      ...(action === 'archive' ? { archiveFileId: details.fileId } : {}),
      approvalTrail: sql`${contracts.approvalTrail} || ${JSON.stringify([entry])}::jsonb`,
      ...bump(at),
    })
    .where(eq(contracts.id, row.id))
    .returning();
  await recordApproval(tx, { subjectKind: 'contract', subjectId: row.id, action, fromStatus: row.status, toStatus: status, userId: user.id, ...details }, at);
  return updated!;
}

/**
 * The archive's PDF must be on the server: uploaded for archiving by this user, or already bound to
 * this contract. It is bound to the contract, so whoever may see the contract may read it.
 */
async function bindArchiveFile(tx: ServerDb, user: OrgViewer, contractId: string, fileId: string | undefined): Promise<void> {
  const [file] = fileId
    ? await tx
        .update(uploadedFiles)
        .set({ contractId })
        .where(
          and(
            eq(uploadedFiles.id, fileId),
            eq(uploadedFiles.organisationId, user.organisationId),
            eq(uploadedFiles.purpose, 'archive'),
            eq(uploadedFiles.extension, 'pdf'),
            or(eq(uploadedFiles.contractId, contractId), and(sql`${uploadedFiles.contractId} is null`, eq(uploadedFiles.uploadedBy, user.id))),
          ),
        )
        .returning({ id: uploadedFiles.id })
    : [];
  if (!file) throw new AppFailure('conflict', `the archive PDF ${fileId ?? ''} is not on the server`, undefined, reason('archiveFileMissing'));
}

/** What a step carries besides its action: the comment, the archived file, and the device's time of a step taken offline. */
interface StepDetails {
  comment?: string;
  fileId?: string;
  takenAt?: Date;
}

export function stepContract(
  db: ServerDb,
  user: SessionUser,
  headers: Headers,
  id: string,
  action: ApprovalAction,
  details: { comment?: string; fileId?: string },
  at: Date,
) {
  return db.transaction(async (tx) => {
    // Refused before the lock: a staff member learns nothing of a contract they may not decide.
    checkApprover(user, action);
    const row = await lockForWrite(tx, user, headers, id);
    return toContractDetail(await stepRow(tx, user, row, action, details, at));
  });
}

/**
 * The sync mutation contract.approvalStep (a step taken offline), under the REST rules. The push
 * has already locked the row and checked its visibility; its state is checked here, now.
 */
export async function stepLockedContract(
  tx: ServerDb,
  user: OrgViewer,
  id: string,
  step: { action: ApprovalAction; comment?: string | undefined; takenAt?: string | undefined },
  at: Date,
): Promise<void> {
  const [row] = await tx.select().from(contracts).where(eq(contracts.id, id));
  if (!row) throw new AppFailure('not_found', `contract ${id} does not exist`, undefined, reason('contractMissing'));
  await stepRow(tx, user, row, step.action, { ...(step.comment && { comment: step.comment }), ...(step.takenAt && { takenAt: new Date(step.takenAt) }) }, at);
}

/**
 * The sync mutation contract.archive (archived offline), under the REST rules: the push has locked
 * the row and checked its visibility; its status and the PDF are checked here, now.
 */
export async function archiveLockedContract(tx: ServerDb, user: OrgViewer, id: string, step: { fileId: string; takenAt?: string | undefined }, at: Date): Promise<void> {
  const [row] = await tx.select().from(contracts).where(eq(contracts.id, id));
  if (!row) throw new AppFailure('not_found', `contract ${id} does not exist`, undefined, reason('contractMissing'));
  await stepRow(tx, user, row, 'archive', { fileId: step.fileId, ...(step.takenAt && { takenAt: new Date(step.takenAt) }) }, at);
}

function toAlteration(row: typeof contractAlterations.$inferSelect, userName: string) {
  return { id: row.id, contractId: row.contractId, userId: row.userId, userName, reason: row.reason, changes: row.changes, createTime: row.createTime.toISOString() };
}

/**
 * Alters an approved contract: only fields with alterEditStatus 2 (and never upload, contract
 * type, contract number, serial number or the contract name, spec 4) change; the record keeps
 * each changed value before and after.
 */
export function alterContract(db: ServerDb, user: SessionUser, headers: Headers, id: string, body: z.output<typeof alterationBodySchema>, at: Date) {
  return db.transaction(async (tx) => alterRow(tx, user, await lockForWrite(tx, user, headers, id), body, at));
}

/**
 * The sync mutation contract.alter (an alteration made offline), under the REST rules. The push
 * has already locked the row and checked its visibility and base version.
 */
export async function alterLockedContract(tx: ServerDb, user: OrgViewer, id: string, body: z.output<typeof alterationBodySchema>, at: Date): Promise<void> {
  const [row] = await tx.select().from(contracts).where(eq(contracts.id, id));
  if (!row) throw new AppFailure('not_found', `contract ${id} does not exist`, undefined, reason('contractMissing'));
  await alterRow(tx, user, row, body, at);
}

async function alterRow(tx: ServerDb, user: OrgViewer, row: ContractRow, body: z.output<typeof alterationBodySchema>, at: Date) {
  const { id } = row;
  if (row.status !== 4) throw new AppFailure('conflict', 'only an approved contract can be altered', undefined, reason('onlyApprovedAltered'));
  const { organisationId } = user;
  const { fields } = await templateFields(tx, organisationId, row.templateId);
  const byId = new Map(fields.map((field) => [field.id, field]));
  const refused = alterationIssues(fields, body.formValues);
  if (refused.length > 0) throw invalidFields(refused);
  const merged = { ...row.formValues, ...body.formValues };
  const form = await storedForm(tx, user, row.name, fields, merged, at);
  const changes: AlterationChange[] = Object.keys(body.formValues)
    .filter((fieldId) => JSON.stringify(row.formValues[fieldId]) !== JSON.stringify(form.formValues[fieldId]))
    .map((fieldId) => ({ fieldId, name: byId.get(fieldId)!.name, before: row.formValues[fieldId] ?? null, after: form.formValues[fieldId] ?? null }));
  const terms = await termColumns(tx, organisationId, fields, form.formValues);
  const [updated] = await tx.update(contracts).set({ formValues: form.formValues, ...terms, ...bump(at) }).where(eq(contracts.id, id)).returning();
  await followContract(tx, id, form.formValues);
  const [alteration] = await tx
    .insert(contractAlterations)
    .values({ id: uuidv7(), contractId: id, userId: user.id, reason: body.reason, changes, createTime: at })
    .returning();
  const [author] = await tx.select({ name: users.displayName }).from(users).where(eq(users.id, user.id));
  return { alteration: toAlteration(alteration!, author?.name ?? ''), contract: toContractDetail(updated!) };
}

export async function listAlterations(db: ServerDb, user: SessionUser, id: string) {
  await loadContract(db, user, id, false);
  const rows = await db
    .select({ alteration: contractAlterations, userName: users.displayName })
    .from(contractAlterations)
    .innerJoin(users, eq(users.id, contractAlterations.userId))
    .where(eq(contractAlterations.contractId, id))
    .orderBy(asc(contractAlterations.createTime), asc(contractAlterations.id));
  return { list: rows.map((row) => toAlteration(row.alteration, row.userName)) };
}
