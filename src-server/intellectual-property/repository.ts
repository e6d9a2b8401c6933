import { aliasedTable, and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { nextIpStatuses } from '../../src-shared/rules/intellectual-property';
import { checkIpImportRows, ipImportRegistrationNumbers, ipImportRowsFromCsv, ipImportTemplate, ipRegistrationKey } from '../../src-shared/rules/ip-import';
import type { Language } from '../../src-shared/i18n/languages';
import type { z } from 'zod';
import {
  type ipImportSchema,
  type ipInputSchema,
  type intellectualPropertyEndpoints,
  type ipOrganizationInputSchema,
  type ipRecordInputSchema,
} from '../../src-shared/api/intellectual-property';
import { ipImportColumns, type IpType } from '../../src-shared/domain/intellectual-property';
import { AppFailure, defaultErrorMessages, reason, type FieldIssue } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import { isUniqueViolation, notFound, type OrgViewer } from '../http/feature-helpers';
import { checkIfMatch } from '../http/write-safety';
import { intellectualProperties, ipOrganizations, ipRecords, ipTransfers } from './schema';

type Endpoints = typeof intellectualPropertyEndpoints;

const duplicateNumber = () => new AppFailure('conflict', 'this registration number is already registered for this type', undefined, reason('registrationNumberTaken'));
const iso = (at: Date) => at.toISOString();
const contains = (q: string) => containsPattern(q.toLowerCase());

/** Runs a write, turning a unique violation into the given conflict. */
async function unique<T>(write: () => Promise<T>, conflict: () => AppFailure): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}

function validationError(issues: FieldIssue[]): AppFailure {
  return new AppFailure('validation_failed', `${defaultErrorMessages.validation_failed}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}

// Organisations ------------------------------------------------------------------------------

async function organisationsWhere(db: ServerDb, viewer: OrgViewer, where: ReturnType<typeof and>) {
  const rows = await db
    .select({ organization: ipOrganizations, propertyCount: sql<number>`(select count(*)::int from ${intellectualProperties} where ${intellectualProperties.ownerOrganizationId} = ${ipOrganizations.id})` })
    .from(ipOrganizations)
    .where(and(eq(ipOrganizations.organisationId, viewer.organisationId), where))
    .orderBy(asc(ipOrganizations.name), asc(ipOrganizations.id));
  return rows.map(({ organization: { organisationId: _org, createdBy: _by, createTime, updateTime, ...o }, propertyCount }) => ({
    ...o, propertyCount: Number(propertyCount), createTime: iso(createTime), updateTime: iso(updateTime),
  }));
}

export function listOrganizations(db: ServerDb, viewer: OrgViewer, q: string | undefined) {
  return organisationsWhere(db, viewer, q ? and(sql`lower(${ipOrganizations.name}) like ${contains(q)}`) : undefined);
}

async function getOrganization(db: ServerDb, viewer: OrgViewer, id: string) {
  const [row] = await organisationsWhere(db, viewer, and(eq(ipOrganizations.id, id)));
  if (!row) throw notFound('intellectual property organization');
  return row;
}

const duplicateOrganization = () => new AppFailure('conflict', 'an organization with this name already exists', undefined, reason('organizationExists'));

export async function createOrganization(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof ipOrganizationInputSchema>, at: Date) {
  const { version: _version, ...fields } = body;
  await unique(() => db.insert(ipOrganizations).values({ id, organisationId: viewer.organisationId, ...fields, createdBy: viewer.id, createTime: at, updateTime: at }), duplicateOrganization);
  return getOrganization(db, viewer, id);
}

async function lockOrganization(tx: ServerDb, viewer: OrgViewer, id: string) {
  const [row] = await tx.select().from(ipOrganizations).where(and(eq(ipOrganizations.organisationId, viewer.organisationId), eq(ipOrganizations.id, id))).for('update');
  if (!row) throw notFound('intellectual property organization');
  return row;
}

export async function updateOrganization(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof ipOrganizationInputSchema>, at: Date) {
  const { version, ...fields } = body;
  await unique(
    () => db.transaction(async (tx) => {
      const row = await lockOrganization(tx, viewer, id);
      await checkIfMatch('the organization', row.version, version, () => getOrganization(tx, viewer, id));
      await tx.update(ipOrganizations).set({ ...fields, updateTime: at, version: row.version + 1 }).where(eq(ipOrganizations.id, id));
    }),
    duplicateOrganization,
  );
  return getOrganization(db, viewer, id);
}

/** An organisation that holds rights, or appears in a chain of title, stays. */
export async function deleteOrganization(db: ServerDb, viewer: OrgViewer, id: string, version: number | undefined): Promise<{ deleted: true }> {
  await db.transaction(async (tx) => {
    const row = await lockOrganization(tx, viewer, id);
    await checkIfMatch('the organization', row.version, version, () => getOrganization(tx, viewer, id));
    const [held] = await tx.select({ n: count() }).from(intellectualProperties).where(eq(intellectualProperties.ownerOrganizationId, id));
    const [history] = await tx.select({ n: count() }).from(ipTransfers).where(or(eq(ipTransfers.fromOrganizationId, id), eq(ipTransfers.toOrganizationId, id)));
    if ((held?.n ?? 0) + (history?.n ?? 0) > 0) throw new AppFailure('conflict', 'the organization holds or has held intellectual property and cannot be deleted', undefined, reason('organizationHoldsIp'));
    await tx.delete(ipOrganizations).where(eq(ipOrganizations.id, id));
  });
  return { deleted: true };
}

// Rights ---------------------------------------------------------------------------------------

function selectProperties(db: ServerDb) {
  return db
    .select({ property: intellectualProperties, ownerOrganizationName: ipOrganizations.name })
    .from(intellectualProperties)
    .innerJoin(ipOrganizations, eq(ipOrganizations.id, intellectualProperties.ownerOrganizationId));
}

function toProperty({ property, ownerOrganizationName }: { property: typeof intellectualProperties.$inferSelect; ownerOrganizationName: string }) {
  const { organisationId: _org, createdBy: _by, createTime, updateTime, ...fields } = property;
  return { ...fields, ownerOrganizationName, createTime: iso(createTime), updateTime: iso(updateTime) };
}

export async function listProperties(db: ServerDb, viewer: OrgViewer, query: z.output<Endpoints['ipList']['query']>) {
  const where = and(
    eq(intellectualProperties.organisationId, viewer.organisationId),
    query.q ? or(sql`lower(${intellectualProperties.name}) like ${contains(query.q)}`, sql`lower(${intellectualProperties.registrationNumber}) like ${contains(query.q)}`) : undefined,
    query.type ? eq(intellectualProperties.type, query.type) : undefined,
    query.status ? eq(intellectualProperties.status, query.status) : undefined,
    query.ownerOrganizationId ? eq(intellectualProperties.ownerOrganizationId, query.ownerOrganizationId) : undefined,
  );
  const rows = await selectProperties(db)
    .where(where)
    .orderBy(desc(intellectualProperties.updateTime), desc(intellectualProperties.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  const [total] = await db.select({ count: count() }).from(intellectualProperties).where(where);
  return { list: rows.map(toProperty), count: total?.count ?? 0 };
}

export async function getProperty(db: ServerDb, viewer: OrgViewer, id: string) {
  const [row] = await selectProperties(db).where(and(eq(intellectualProperties.organisationId, viewer.organisationId), eq(intellectualProperties.id, id)));
  if (!row) throw notFound('intellectual property');
  const from = aliasedTable(ipOrganizations, 'from_organization');
  const to = aliasedTable(ipOrganizations, 'to_organization');
  const [records, transfers] = await Promise.all([
    db.select().from(ipRecords).where(eq(ipRecords.intellectualPropertyId, id)).orderBy(desc(ipRecords.recordDate), desc(ipRecords.id)),
    db
      .select({ transfer: ipTransfers, fromName: from.name, toName: to.name })
      .from(ipTransfers)
      .innerJoin(from, eq(from.id, ipTransfers.fromOrganizationId))
      .innerJoin(to, eq(to.id, ipTransfers.toOrganizationId))
      .where(eq(ipTransfers.intellectualPropertyId, id))
      .orderBy(asc(ipTransfers.createTime), asc(ipTransfers.id)),
  ]);
  return {
    ...toProperty(row),
    records: records.map(({ intellectualPropertyId: _ip, createdBy: _by, createTime, updateTime, ...r }) => ({ ...r, createTime: iso(createTime), updateTime: iso(updateTime) })),
    transfers: transfers.map(({ transfer: t, fromName, toName }) => ({
      id: t.id, fromOrganizationId: t.fromOrganizationId, fromOrganizationName: fromName, toOrganizationId: t.toOrganizationId,
      toOrganizationName: toName, transferDate: t.transferDate, reason: t.reason, createTime: iso(t.createTime),
    })),
  };
}

async function lockProperty(tx: ServerDb, viewer: OrgViewer, id: string, version?: number) {
  const [row] = await tx
    .select()
    .from(intellectualProperties)
    .where(and(eq(intellectualProperties.organisationId, viewer.organisationId), eq(intellectualProperties.id, id)))
    .for('update');
  if (!row) throw notFound('intellectual property');
  await checkIfMatch('the intellectual property', row.version, version, () => getProperty(tx, viewer, id));
  return row;
}

/** Bumps the right's version: records and transfers are part of it. */
async function touchProperty(tx: ServerDb, row: { id: string; version: number }, at: Date, fields: Partial<typeof intellectualProperties.$inferInsert> = {}) {
  await tx.update(intellectualProperties).set({ ...fields, updateTime: at, version: row.version + 1 }).where(eq(intellectualProperties.id, row.id));
}

async function ownOrganization(tx: ServerDb, viewer: OrgViewer, id: string) {
  const [row] = await tx.select({ id: ipOrganizations.id }).from(ipOrganizations).where(and(eq(ipOrganizations.organisationId, viewer.organisationId), eq(ipOrganizations.id, id)));
  if (!row) throw validationError([{ path: 'ownerOrganizationId', message: 'unknown organization' }]);
}

export async function createProperty(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof ipInputSchema>, at: Date) {
  const { version: _version, ...fields } = body;
  await unique(
    () => db.transaction(async (tx) => {
      await ownOrganization(tx, viewer, fields.ownerOrganizationId);
      await tx.insert(intellectualProperties).values({ id, organisationId: viewer.organisationId, ...fields, createdBy: viewer.id, createTime: at, updateTime: at });
    }),
    duplicateNumber,
  );
  return getProperty(db, viewer, id);
}

/** The owner changes only by a transfer, which keeps the chain of title. */
export async function updateProperty(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof ipInputSchema>, at: Date) {
  const { version, ownerOrganizationId, ...fields } = body;
  await unique(
    () => db.transaction(async (tx) => {
      const row = await lockProperty(tx, viewer, id, version);
      if (ownerOrganizationId !== row.ownerOrganizationId) {
        throw validationError([{ path: 'ownerOrganizationId', message: 'the owner changes only by a transfer' }]);
      }
      await touchProperty(tx, row, at, fields);
    }),
    duplicateNumber,
  );
  return getProperty(db, viewer, id);
}

export async function deleteProperty(db: ServerDb, viewer: OrgViewer, id: string, version: number | undefined): Promise<{ deleted: true }> {
  await db.transaction(async (tx) => {
    await lockProperty(tx, viewer, id, version);
    await tx.delete(intellectualProperties).where(eq(intellectualProperties.id, id));
  });
  return { deleted: true };
}


export async function changeStatus(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<Endpoints['ipStatus']['body']>, at: Date) {
  await db.transaction(async (tx) => {
    const row = await lockProperty(tx, viewer, id, body.version);
    if (!nextIpStatuses[row.status].includes(body.status)) {
      throw new AppFailure('bad_request', `the status cannot change from ${row.status} to ${body.status}`);
    }
    const registrationDate = body.registrationDate ?? row.registrationDate;
    if (body.status === 'registered' && !registrationDate) throw validationError([{ path: 'registrationDate', message: 'please enter the registration date' }]);
    await touchProperty(tx, row, at, { status: body.status, registrationDate });
  });
  return getProperty(db, viewer, id);
}

export async function transferProperty(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<Endpoints['ipTransfer']['body']>, newId: () => string, at: Date) {
  await db.transaction(async (tx) => {
    const row = await lockProperty(tx, viewer, id, body.version);
    if (row.status !== 'filed' && row.status !== 'registered') throw new AppFailure('bad_request', `a right that is ${row.status} cannot be transferred`);
    const [target] = await tx.select({ id: ipOrganizations.id }).from(ipOrganizations).where(and(eq(ipOrganizations.organisationId, viewer.organisationId), eq(ipOrganizations.id, body.toOrganizationId)));
    if (!target) throw validationError([{ path: 'toOrganizationId', message: 'unknown organization' }]);
    if (target.id === row.ownerOrganizationId) throw validationError([{ path: 'toOrganizationId', message: 'the new owner must differ from the current owner' }]);
    await tx.insert(ipTransfers).values({
      id: newId(), intellectualPropertyId: id, fromOrganizationId: row.ownerOrganizationId, toOrganizationId: target.id,
      transferDate: body.transferDate, reason: body.reason, createdBy: viewer.id, createTime: at,
    });
    await touchProperty(tx, row, at, { ownerOrganizationId: target.id });
  });
  return getProperty(db, viewer, id);
}

type RecordInput = z.output<typeof ipRecordInputSchema>;

export async function createRecord(db: ServerDb, viewer: OrgViewer, id: string, body: RecordInput, newId: () => string, at: Date) {
  const { version: _version, ...fields } = body;
  await db.transaction(async (tx) => {
    const row = await lockProperty(tx, viewer, id);
    await tx.insert(ipRecords).values({ id: newId(), intellectualPropertyId: id, ...fields, createdBy: viewer.id, createTime: at, updateTime: at });
    await touchProperty(tx, row, at);
  });
  return getProperty(db, viewer, id);
}

async function lockRecord(tx: ServerDb, propertyId: string, recordId: string) {
  const [record] = await tx.select().from(ipRecords).where(and(eq(ipRecords.id, recordId), eq(ipRecords.intellectualPropertyId, propertyId))).for('update');
  if (!record) throw notFound('record');
  return record;
}

export async function updateRecord(db: ServerDb, viewer: OrgViewer, id: string, recordId: string, body: RecordInput, at: Date) {
  const { version, ...fields } = body;
  await db.transaction(async (tx) => {
    const row = await lockProperty(tx, viewer, id);
    const record = await lockRecord(tx, id, recordId);
    await checkIfMatch('the record', record.version, version, () => getProperty(tx, viewer, id));
    await tx.update(ipRecords).set({ ...fields, updateTime: at, version: record.version + 1 }).where(eq(ipRecords.id, recordId));
    await touchProperty(tx, row, at);
  });
  return getProperty(db, viewer, id);
}

export async function deleteRecord(db: ServerDb, viewer: OrgViewer, id: string, recordId: string, version: number | undefined, at: Date) {
  await db.transaction(async (tx) => {
    const row = await lockProperty(tx, viewer, id);
    const record = await lockRecord(tx, id, recordId);
    await checkIfMatch('the record', record.version, version, () => getProperty(tx, viewer, id));
    await tx.delete(ipRecords).where(eq(ipRecords.id, recordId));
    await touchProperty(tx, row, at);
  });
  return getProperty(db, viewer, id);
}

// Import ---------------------------------------------------------------------------------------

/** CSV rows keyed by the template's header, or the JSON rows as sent; row numbers count from 1 (the CSV header is row 0). */
function importRows(body: z.output<typeof ipImportSchema>): Record<string, unknown>[] {
  if ('rows' in body) return body.rows;
  const read = ipImportRowsFromCsv(body.csv);
  if ('issue' in read) throw validationError([read.issue]);
  return read.rows;
}

/**
 * Validates every row before writing any (the shared rules of src-shared/rules/ip-import.ts):
 * field rules, the owner organisation by name, and registration numbers unique within the file
 * and against the register. One bad row writes nothing.
 */
export async function importProperties(db: ServerDb, viewer: OrgViewer, body: z.output<typeof ipImportSchema>, newId: () => string, at: Date) {
  const rows = importRows(body);
  const organisations = await db.select({ id: ipOrganizations.id, name: ipOrganizations.name }).from(ipOrganizations).where(eq(ipOrganizations.organisationId, viewer.organisationId));
  const numbers = ipImportRegistrationNumbers(rows);
  const existing = numbers.length === 0 ? [] : await db
    .select({ type: intellectualProperties.type, registrationNumber: intellectualProperties.registrationNumber })
    .from(intellectualProperties)
    .where(and(eq(intellectualProperties.organisationId, viewer.organisationId), inArray(intellectualProperties.registrationNumber, numbers)));
  const checked = checkIpImportRows(rows, {
    organisationIdByName: new Map(organisations.map((o) => [o.name, o.id])),
    registered: new Set(existing.map((e) => ipRegistrationKey(e.type, e.registrationNumber))),
  });
  const issues = checked.flatMap((row) => row.issues);
  if (issues.length > 0) throw validationError(issues);
  const valid = checked.flatMap((row) => (row.valid ? [{ id: newId(), organisationId: viewer.organisationId, ...row.valid, createdBy: viewer.id, createTime: at, updateTime: at }] : []));
  await unique(() => db.transaction(async (tx) => {
    for (let start = 0; start < valid.length; start += 1000) await tx.insert(intellectualProperties).values(valid.slice(start, start + 1000));
  }), duplicateNumber);
  return { imported: valid.length };
}

const templateExamples: Record<IpType, [string, string]> = {
  patent: ['一种合同文本智能比对方法', 'ZL202310123456.7'],
  utility_model: ['一种档案柜锁具', 'ZL202220654321.0'],
  design: ['文件盒（合同归档）', 'ZL202330111222.3'],
  trademark: ['华辰', '第45678901号'],
  copyright: ['华辰合同管理白皮书', '国作登字-2024-A-00012345'],
  software_copyright: ['华辰合同管理系统V1.0', '2024SR0123456'],
  domain_name: ['huachen-contracts.example', 'huachen-contracts.example'],
  trade_secret: ['供应商评分模型', 'TS-2024-001'],
};

/** A data: URL of the CSV template in the language, so the client can offer it without another download route. */
export function templateUrl(type: IpType, language: Language) {
  const [name, registrationNumber] = templateExamples[type];
  const { csv, fileName } = ipImportTemplate(type, language, { name, registrationNumber, owner: '华辰科技有限公司' });
  return { url: `data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`, fileName, columns: [...ipImportColumns] };
}
