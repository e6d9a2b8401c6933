import { and, asc, count, desc, eq, ilike, max, or, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { createTemplateSchema, updateTemplateSchema } from '../../src-shared/api/contract-forms';
import type { Clause, FieldConfig, TemplateDetail } from '../../src-shared/domain/contract-forms';
import { refuseCollidingClaims } from '../../src-shared/contract-document/mapping';
import { ContractStatus } from '../../src-shared/domain/enums';
import { AppFailure, invalidFields, reason } from '../../src-shared/errors';
import { templateIssues } from '../../src-shared/rules/templates';
import type { SessionUser } from '../auth/service';
import type { TemplateDocuments } from '../contract-document/template-document';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import { contractTypes, templates } from '../db/schema';
import { checkIfMatch, ifMatchVersion, type Headers } from '../http/write-safety';
import { allocateNumber, refuseDuplicateNumber } from '../numbering/service';
import { checkApprover, checkEditable, nextStatus, recordApproval, type ApprovalAction } from './lifecycle';
import { templateClauses } from './schema';

// Templates: their field configs and clauses with statements, their numbers from the template
// numbering rules, and template approval. Every member of the organisation reads them; the
// author and administrators change them.

type TemplateRow = typeof templates.$inferSelect;

async function clausesOf(db: ServerDb, templateId: string): Promise<Clause[]> {
  const rows = await db.select().from(templateClauses).where(eq(templateClauses.templateId, templateId)).orderBy(asc(templateClauses.position));
  return rows.map((row) => ({ labelID: row.labelId, name: row.name, isNullable: row.isNullable, bookmarkName: row.bookmarkName, statementList: row.statementList }));
}

async function toTemplateDetail(db: ServerDb, row: TemplateRow): Promise<TemplateDetail> {
  return {
    id: row.id,
    name: row.name,
    templateNumber: row.templateNumber,
    contractTypeId: row.contractTypeId,
    status: row.status,
    createdBy: row.createdBy,
    fields: row.fields as FieldConfig[],
    clauses: await clausesOf(db, row.id),
    document: row.document ?? null,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
    version: row.version,
  };
}

async function loadTemplate(db: ServerDb, user: SessionUser, id: string, lock: boolean): Promise<TemplateRow> {
  const { organisationId } = user;
  const query = db.select().from(templates).where(eq(templates.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row || row.organisationId !== organisationId) throw new AppFailure('not_found', `template ${id} does not exist`, undefined, reason('templateMissing'));
  return row;
}

async function lockForWrite(tx: ServerDb, user: SessionUser, headers: Headers, id: string): Promise<TemplateRow> {
  const row = await loadTemplate(tx, user, id, true);
  if (user.role !== 'admin' && row.createdBy !== user.id) throw new AppFailure('forbidden', `template ${id} is not yours to change`, undefined, reason('templateNotYours'));
  await checkIfMatch('the template', row.version, ifMatchVersion(headers), () => toTemplateDetail(tx, row));
  return row;
}

export async function templateDetail(db: ServerDb, user: SessionUser, id: string): Promise<TemplateDetail> {
  return toTemplateDetail(db, await loadTemplate(db, user, id, false));
}

export async function listTemplates(db: ServerDb, user: SessionUser, query: { pageNum: number; pageSize: number; q?: string | undefined; status?: ContractStatus | undefined }) {
  const { organisationId } = user;
  const pattern = query.q ? containsPattern(query.q) : undefined;
  const where = and(
    eq(templates.organisationId, organisationId),
    pattern ? or(ilike(templates.name, pattern), ilike(templates.templateNumber, pattern)) : undefined,
    query.status === undefined ? undefined : eq(templates.status, query.status),
  );
  const rows = await db
    .select()
    .from(templates)
    .where(where)
    .orderBy(desc(templates.updateTime), desc(templates.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  const [total] = await db.select({ count: count() }).from(templates).where(where);
  const list = rows.map((row) => ({
    id: row.id, name: row.name, templateNumber: row.templateNumber, contractTypeId: row.contractTypeId, status: row.status, createdBy: row.createdBy,
    updateTime: row.updateTime.toISOString(), version: row.version,
  }));
  return { list, count: total?.count ?? 0 };
}

/**
 * The version of the organisation's drafting catalogue: how many templates are approved and when
 * the last of them was. Approved templates are never changed or deleted (the status machine),
 * so a new approval is the only way it moves.
 */
export async function catalogueVersion(db: ServerDb, user: SessionUser): Promise<{ version: string }> {
  const [row] = await db
    .select({ approved: count(), last: max(templates.updateTime) })
    .from(templates)
    .where(and(eq(templates.organisationId, user.organisationId), eq(templates.status, ContractStatus.Approved)));
  return { version: `${row?.approved ?? 0}:${row?.last?.toISOString() ?? ''}` };
}

/**
 * A template the form engine could not draft from is refused, naming each problem
 * (src-shared/rules/templates.ts); so is a document bookmark named by two fields or clauses, which
 * would show two values.
 */
function checkFields(fields: readonly FieldConfig[], clauses: readonly Clause[]): void {
  const issues = templateIssues(fields, clauses);
  if (issues.length > 0) throw invalidFields(issues);
  refuseCollidingClaims(fields, clauses);
}

async function checkContractType(db: ServerDb, organisationId: string, contractTypeId: string | null): Promise<void> {
  if (contractTypeId === null) return;
  const [type] = await db.select({ id: contractTypes.id }).from(contractTypes).where(and(eq(contractTypes.id, contractTypeId), eq(contractTypes.organisationId, organisationId)));
  if (!type) throw new AppFailure('not_found', `contract type ${contractTypeId} does not exist`, undefined, reason('contractTypeMissing'));
}


async function writeClauses(tx: ServerDb, templateId: string, clauses: readonly Clause[]): Promise<void> {
  await tx.delete(templateClauses).where(eq(templateClauses.templateId, templateId));
  if (clauses.length === 0) return;
  await tx.insert(templateClauses).values(
    clauses.map((clause, position) => ({
      id: uuidv7(), templateId, position, labelId: clause.labelID, name: clause.name, isNullable: clause.isNullable,
      bookmarkName: clause.bookmarkName, statementList: clause.statementList,
    })),
  );
}

export function createTemplate(db: ServerDb, documents: TemplateDocuments, user: SessionUser, body: z.output<typeof createTemplateSchema>, at: Date) {
  return db.transaction(async (tx) => {
    const { organisationId } = user;
    checkFields(body.fields, body.clauses);
    const document = body.document ? await documents.resolve(tx, organisationId, body.document.fileId) : null;
    const contractTypeId = body.contractTypeId ?? null;
    await checkContractType(tx, organisationId, contractTypeId);
    let templateNumber = body.templateNumber ?? null;
    if (templateNumber === null) {
      templateNumber = (await allocateNumber(tx, 'template', { organisationId, userId: user.id, departmentId: user.departmentId, contractTypeId }, at)) ?? null;
    }
    if (templateNumber !== null) await refuseDuplicateNumber(tx, 'template', organisationId, templateNumber, null);
    const id = body.id ?? uuidv7();
    const [existing] = await tx.select({ id: templates.id }).from(templates).where(eq(templates.id, id));
    if (existing) throw new AppFailure('conflict', `template ${id} already exists`, undefined, reason('templateExists'));
    const [row] = await tx
      .insert(templates)
      .values({ id, organisationId, name: body.name, templateNumber, contractTypeId, fields: body.fields, document, createdBy: user.id, createTime: at, updateTime: at })
      .returning();
    await writeClauses(tx, id, body.clauses);
    return toTemplateDetail(tx, row!);
  });
}

export function updateTemplate(db: ServerDb, documents: TemplateDocuments, user: SessionUser, headers: Headers, id: string, body: z.output<typeof updateTemplateSchema>, at: Date) {
  return db.transaction(async (tx) => {
    const row = await lockForWrite(tx, user, headers, id);
    checkEditable('template', row.status);
    checkFields(body.fields, body.clauses);
    const document = body.document === undefined ? row.document : body.document && (await documents.resolve(tx, row.organisationId, body.document.fileId));
    const contractTypeId = body.contractTypeId === undefined ? row.contractTypeId : body.contractTypeId;
    await checkContractType(tx, row.organisationId, contractTypeId);
    const templateNumber = body.templateNumber ?? row.templateNumber;
    if (templateNumber !== null && templateNumber !== row.templateNumber) await refuseDuplicateNumber(tx, 'template', row.organisationId, templateNumber, id);
    const [updated] = await tx
      .update(templates)
      .set({ name: body.name, templateNumber, contractTypeId, fields: body.fields, document, version: sql`${templates.version} + 1`, updateTime: at })
      .where(eq(templates.id, id))
      .returning();
    await writeClauses(tx, id, body.clauses);
    return toTemplateDetail(tx, updated!);
  });
}

export function deleteTemplate(db: ServerDb, user: SessionUser, headers: Headers, id: string) {
  return db.transaction(async (tx) => {
    const row = await lockForWrite(tx, user, headers, id);
    checkEditable('template', row.status);
    await tx.delete(templates).where(eq(templates.id, id));
    return { id, deleted: true as const };
  });
}

export function stepTemplate(db: ServerDb, user: SessionUser, headers: Headers, id: string, action: ApprovalAction, comment: string | undefined, at: Date) {
  return db.transaction(async (tx) => {
    checkApprover(user, action);
    const row = await lockForWrite(tx, user, headers, id);
    const status = nextStatus('template', action, row.status);
    const [updated] = await tx
      .update(templates)
      .set({ status, version: sql`${templates.version} + 1`, updateTime: at })
      .where(eq(templates.id, id))
      .returning();
    await recordApproval(tx, { subjectKind: 'template', subjectId: id, action, fromStatus: row.status, toStatus: status, userId: user.id, ...(comment ? { comment } : {}) }, at);
    return toTemplateDetail(tx, updated!);
  });
}
