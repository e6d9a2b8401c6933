import { and, asc, count, desc, eq, ilike, or } from 'drizzle-orm';
import { AppFailure } from '../../src-shared/errors';
import type { SessionUser } from '../auth/service';
import { visibleTo } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import { contracts } from '../db/schema';
import { archiveOfflineSettings, fieldDefinitions, fieldOptions } from './schema';

// The form's helper calls (spec 7, "Form support"): field definitions, paged dynamic options,
// offline archive places and the contracts a related-contracts field can pick.

const relatedPickLimit = 50;

export async function listFields(db: ServerDb, user: SessionUser, q: string | undefined) {
  const { organisationId } = user;
  const list = await db
    .select({ id: fieldDefinitions.id, name: fieldDefinitions.name, type: fieldDefinitions.type })
    .from(fieldDefinitions)
    .where(and(eq(fieldDefinitions.organisationId, organisationId), q ? ilike(fieldDefinitions.name, containsPattern(q)) : undefined))
    .orderBy(asc(fieldDefinitions.sortOrder), asc(fieldDefinitions.id));
  return { list };
}

/** One page of a field's options; the form appends pages as they load. */
export async function dynamicSelect(db: ServerDb, user: SessionUser, fieldId: string, query: { pageNum: number; pageSize: number; q?: string | undefined }) {
  const { organisationId } = user;
  const [field] = await db
    .select({ id: fieldDefinitions.id })
    .from(fieldDefinitions)
    .where(and(eq(fieldDefinitions.id, fieldId), eq(fieldDefinitions.organisationId, organisationId)));
  if (!field) throw new AppFailure('not_found', `field ${fieldId} does not exist`);
  const where = and(eq(fieldOptions.fieldId, fieldId), query.q ? ilike(fieldOptions.name, containsPattern(query.q)) : undefined);
  const list = await db
    .select({ id: fieldOptions.id, name: fieldOptions.name })
    .from(fieldOptions)
    .where(where)
    .orderBy(asc(fieldOptions.sortOrder), asc(fieldOptions.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  const [total] = await db.select({ count: count() }).from(fieldOptions).where(where);
  return { list, count: total?.count ?? 0 };
}

export async function offlineArchiveSettings(db: ServerDb, user: SessionUser) {
  const { organisationId } = user;
  const list = await db
    .select({ id: archiveOfflineSettings.id, name: archiveOfflineSettings.name })
    .from(archiveOfflineSettings)
    .where(eq(archiveOfflineSettings.organisationId, organisationId))
    .orderBy(asc(archiveOfflineSettings.sortOrder), asc(archiveOfflineSettings.id));
  return { list };
}

/**
 * Contracts the user may relate to (spec 7: relationType=3, type=1 as the form sends them): the
 * visible ones, newest first, matched on name or number by q.
 */
export async function contractsForRelated(db: ServerDb, user: SessionUser, q: string | undefined) {
  const pattern = q ? containsPattern(q) : undefined;
  const list = await db
    .select({ id: contracts.id, name: contracts.name, contractNumber: contracts.contractNumber })
    .from(contracts)
    .where(and(visibleTo(user), pattern ? or(ilike(contracts.name, pattern), ilike(contracts.contractNumber, pattern)) : undefined))
    .orderBy(desc(contracts.updateTime), desc(contracts.id))
    .limit(relatedPickLimit);
  return { list };
}
