import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { lawFirmInputSchema, lawFirmsEndpoints, lawyerInputSchema } from '../../src-shared/api/law-firms';
import { AppFailure, reason } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import { isUniqueViolation, notFound, type OrgViewer } from '../http/feature-helpers';
import type { FeatureHandlers } from '../http/routes';
import { lawFirms, lawyers } from './schema';

const defaultPageSize = 100;

const nameContains = (column: typeof lawFirms.name | typeof lawyers.name, q: string | undefined) =>
  q ? sql`lower(${column}) like ${containsPattern(q.toLowerCase())}` : undefined;

const lawFirmColumns = { id: lawFirms.id, name: lawFirms.name, state: lawFirms.state };
const lawyerColumns = { id: lawyers.id, name: lawyers.name, lawFirmID: lawyers.lawFirmId, state: lawyers.state };

const firmNameTaken = () => new AppFailure('conflict', 'a law firm of this name exists already', [{ path: 'name', message: 'a law firm of this name exists already' }], reason('lawFirmNameTaken'));

/** Writes a law firm, a taken name refused as a conflict on the name. */
async function writeFirm<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw firmNameTaken();
    throw error;
  }
}

/** A lawyer belongs to a firm of the writer's organisation. */
async function requireOwnFirm(db: ServerDb, viewer: OrgViewer, lawFirmId: string): Promise<void> {
  const [firm] = await db.select({ id: lawFirms.id }).from(lawFirms).where(and(eq(lawFirms.id, lawFirmId), eq(lawFirms.organisationId, viewer.organisationId)));
  if (!firm) throw new AppFailure('validation_failed', 'the law firm is unknown', [{ path: 'lawFirmID', message: 'the law firm is unknown' }], reason('lawFirmUnknown'));
}

async function updateLawyer(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof lawyerInputSchema>) {
  await requireOwnFirm(db, viewer, body.lawFirmID);
  const own = db.select({ id: lawFirms.id }).from(lawFirms).where(eq(lawFirms.organisationId, viewer.organisationId));
  const [row] = await db
    .update(lawyers)
    .set({ name: body.name, lawFirmId: body.lawFirmID, state: body.state })
    .where(and(eq(lawyers.id, id), inArray(lawyers.lawFirmId, own)))
    .returning(lawyerColumns);
  if (!row) throw notFound('lawyer');
  return row;
}

async function updateFirm(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof lawFirmInputSchema>) {
  const [row] = await writeFirm(() =>
    db.update(lawFirms).set(body).where(and(eq(lawFirms.id, id), eq(lawFirms.organisationId, viewer.organisationId))).returning(lawFirmColumns),
  );
  if (!row) throw notFound('law firm');
  return row;
}

export function lawFirmsHandlers(db: ServerDb, _now: () => Date): FeatureHandlers<typeof lawFirmsEndpoints> {
  return {
    lawFirmList: async ({ user, query }) => {
      const { organisationId } = user;
      const where = and(eq(lawFirms.organisationId, organisationId), nameContains(lawFirms.name, query.q));
      const paged = query.pageSize !== undefined || query.pageNum !== undefined;
      const pageSize = query.pageSize ?? defaultPageSize;
      const select = db.select(lawFirmColumns).from(lawFirms).where(where).orderBy(asc(lawFirms.name), asc(lawFirms.id));
      const list = paged ? await select.limit(pageSize).offset(((query.pageNum ?? 1) - 1) * pageSize) : await select;
      const [total] = await db.select({ count: count() }).from(lawFirms).where(where);
      return { list, count: total?.count ?? 0 };
    },
    lawyersByLawFirms: async ({ user, query }) => {
      const { organisationId } = user;
      if (query.lawFirmIDs.length === 0) return { list: [] };
      const list = await db
        .select(lawyerColumns)
        .from(lawyers)
        .innerJoin(lawFirms, eq(lawFirms.id, lawyers.lawFirmId))
        .where(and(eq(lawFirms.organisationId, organisationId), inArray(lawyers.lawFirmId, query.lawFirmIDs), nameContains(lawyers.name, query.q)))
        .orderBy(asc(lawyers.name), asc(lawyers.id));
      return { list };
    },
    lawyerList: async ({ user }) => {
      const { organisationId } = user;
      const list = await db
        .select(lawyerColumns)
        .from(lawyers)
        .innerJoin(lawFirms, eq(lawFirms.id, lawyers.lawFirmId))
        .where(eq(lawFirms.organisationId, organisationId))
        .orderBy(asc(lawyers.name), asc(lawyers.id));
      return { list };
    },
    lawFirmCreate: async ({ user, body }) => {
      const id = uuidv7();
      await writeFirm(() => db.insert(lawFirms).values({ id, organisationId: user.organisationId, ...body }));
      return { id, ...body };
    },
    lawFirmUpdate: ({ user, params, body }) => updateFirm(db, user, params.id, body),
    lawyerCreate: async ({ user, body }) => {
      await requireOwnFirm(db, user, body.lawFirmID);
      const id = uuidv7();
      await db.insert(lawyers).values({ id, lawFirmId: body.lawFirmID, name: body.name, state: body.state });
      return { id, ...body };
    },
    lawyerUpdate: ({ user, params, body }) => updateLawyer(db, user, params.id, body),
  };
}
