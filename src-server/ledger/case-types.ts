import { and, eq, isNull, max, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { caseTypeCreateSchema, caseTypeUpdateSchema } from '../../src-shared/api/ledger';
import { AppFailure, reason } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { notFound, type OrgViewer } from '../http/feature-helpers';
import { caseTypes } from './schema';

// The case-type tree's upkeep (spec 3, "Case type node"): a node is added at the top or under a
// node of the same organisation, after its siblings; renaming or disabling it keeps its place.

const columns = { id: caseTypes.id, parentId: caseTypes.parentId, name: caseTypes.name, state: caseTypes.state };

async function ownNode(db: ServerDb, viewer: OrgViewer, id: string) {
  const [row] = await db.select(columns).from(caseTypes).where(and(eq(caseTypes.id, id), eq(caseTypes.organisationId, viewer.organisationId)));
  return row;
}

export async function createCaseType(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof caseTypeCreateSchema>, at: Date) {
  if (body.parentId !== null && !(await ownNode(db, viewer, body.parentId))) {
    throw new AppFailure('validation_failed', 'the parent case type is unknown', [{ path: 'parentId', message: 'the parent case type is unknown' }], reason('caseTypeParentUnknown'));
  }
  const siblings = and(eq(caseTypes.organisationId, viewer.organisationId), body.parentId === null ? isNull(caseTypes.parentId) : eq(caseTypes.parentId, body.parentId));
  const [last] = await db.select({ sortOrder: max(caseTypes.sortOrder) }).from(caseTypes).where(siblings);
  await db.insert(caseTypes).values({
    id, organisationId: viewer.organisationId, parentId: body.parentId, name: body.name, state: body.state,
    sortOrder: (last?.sortOrder ?? -1) + 1, createTime: at, updateTime: at,
  });
  return { id, parentId: body.parentId, name: body.name, state: body.state };
}

export async function updateCaseType(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof caseTypeUpdateSchema>, at: Date) {
  const [row] = await db
    .update(caseTypes)
    .set({ name: body.name, state: body.state, updateTime: at, version: sql`${caseTypes.version} + 1` })
    .where(and(eq(caseTypes.id, id), eq(caseTypes.organisationId, viewer.organisationId)))
    .returning(columns);
  if (!row) throw notFound('case type');
  return row;
}
