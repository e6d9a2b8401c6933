import { and, asc, count, desc, eq, gte, lt, lte, type SQL } from 'drizzle-orm';
import type { auditEndpoints, AuditEvent, AuditEventsQuery } from '../../src-shared/api/audit';
import { AppFailure, reason } from '../../src-shared/errors';
import type { ServerDb } from '../db/database';
import { contracts, organisations } from '../db/schema';
import { visibleTo } from '../contracts/repository';
import { notFound, type OrgViewer } from '../http/feature-helpers';
import type { FeatureHandlers } from '../http/routes';
import { verifyAuditChain } from './chain';
import { auditEvents } from './schema';

// Reading the audit trail: administrators read and check their organisation's events; whoever
// may see a contract reads that contract's events (its history tab).

function requireAdmin(viewer: OrgViewer): void {
  if (viewer.role !== 'admin') throw new AppFailure('forbidden', 'only administrators may read the audit trail', undefined, reason('adminsOnly'));
}

function toEvent({ organisationId: _organisation, editedAt, appliedAt, ...row }: typeof auditEvents.$inferSelect): AuditEvent {
  return { ...row, editedAt: editedAt && editedAt.toISOString(), appliedAt: appliedAt.toISOString() };
}

function filters(viewer: OrgViewer, query: Omit<AuditEventsQuery, 'pageNum' | 'pageSize'>): SQL | undefined {
  return and(
    eq(auditEvents.organisationId, viewer.organisationId),
    query.userId ? eq(auditEvents.userId, query.userId) : undefined,
    query.device ? eq(auditEvents.device, query.device) : undefined,
    query.entity ? eq(auditEvents.entity, query.entity) : undefined,
    query.entityId ? eq(auditEvents.entityId, query.entityId) : undefined,
    query.from ? gte(auditEvents.appliedAt, new Date(query.from)) : undefined,
    query.to ? lt(auditEvents.appliedAt, new Date(query.to)) : undefined,
    query.untilSeq ? lte(auditEvents.seq, query.untilSeq) : undefined,
  );
}

/** The organisation's events, newest first, one page. */
export async function listAuditEvents(db: ServerDb, viewer: OrgViewer, query: AuditEventsQuery) {
  requireAdmin(viewer);
  const where = filters(viewer, query);
  const rows = await db.select().from(auditEvents).where(where).orderBy(desc(auditEvents.seq)).limit(query.pageSize).offset((query.pageNum - 1) * query.pageSize);
  const [total] = await db.select({ n: count() }).from(auditEvents).where(where);
  return { list: rows.map(toEvent), count: total?.n ?? 0 };
}

/** One contract's events, oldest first, for whoever may see the contract. */
export async function contractAuditEvents(db: ServerDb, viewer: OrgViewer, id: string) {
  const [contract] = await db.select({ id: contracts.id }).from(contracts).where(and(eq(contracts.id, id), visibleTo(viewer)));
  if (!contract) throw notFound('contract');
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.organisationId, viewer.organisationId), eq(auditEvents.entity, 'contract'), eq(auditEvents.entityId, id)))
    .orderBy(asc(auditEvents.seq));
  return { list: rows.map(toEvent) };
}

export async function auditRetentionDays(db: ServerDb, organisationId: string): Promise<number> {
  const [row] = await db.select({ days: organisations.auditRetentionDays }).from(organisations).where(eq(organisations.id, organisationId));
  if (!row) throw notFound(`organisation ${organisationId}`);
  return row.days;
}

export function auditHandlers(db: ServerDb, _now: () => Date): FeatureHandlers<typeof auditEndpoints> {
  return {
    auditEvents: ({ user, query }) => listAuditEvents(db, user, query),
    auditVerify: async ({ user }) => {
      requireAdmin(user);
      return verifyAuditChain(db, user.organisationId);
    },
    contractAuditEvents: ({ user, params }) => contractAuditEvents(db, user, params.id),
    auditSettings: async ({ user }) => ({ retentionDays: await auditRetentionDays(db, user.organisationId) }),
    auditSettingsUpdate: async ({ user, body }) => {
      if (user.role !== 'admin') throw new AppFailure('forbidden', 'only administrators may change how long audit events are kept', undefined, reason('adminsOnly'));
      await db.update(organisations).set({ auditRetentionDays: body.retentionDays }).where(eq(organisations.id, user.organisationId));
      return { retentionDays: body.retentionDays };
    },
  };
}
