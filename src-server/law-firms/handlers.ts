import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { lawFirmsEndpoints } from '../../src-shared/api/law-firms';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import type { FeatureHandlers } from '../http/routes';
import { lawFirms, lawyers } from './schema';

const defaultPageSize = 100;

const nameContains = (column: typeof lawFirms.name | typeof lawyers.name, q: string | undefined) =>
  q ? sql`lower(${column}) like ${containsPattern(q.toLowerCase())}` : undefined;

const lawyerColumns = { id: lawyers.id, name: lawyers.name, lawFirmID: lawyers.lawFirmId };

export function lawFirmsHandlers(db: ServerDb, _now: () => Date): FeatureHandlers<typeof lawFirmsEndpoints> {
  return {
    lawFirmList: async ({ user, query }) => {
      const { organisationId } = user;
      const where = and(eq(lawFirms.organisationId, organisationId), nameContains(lawFirms.name, query.q));
      const paged = query.pageSize !== undefined || query.pageNum !== undefined;
      const pageSize = query.pageSize ?? defaultPageSize;
      const select = db.select({ id: lawFirms.id, name: lawFirms.name }).from(lawFirms).where(where).orderBy(asc(lawFirms.name), asc(lawFirms.id));
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
  };
}
