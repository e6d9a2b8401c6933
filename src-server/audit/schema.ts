import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { AuditChange } from '../../src-shared/api/audit';
import { organisations } from '../db/schema';

// The audit trail (issue 32, item 4, src-server/audit/chain.ts): append-only, one chain per
// organisation. `seq` is given under the organisation's chain lock, so it has no gaps and a
// removed event shows as a missing number as well as a broken link.

export const auditEvents = pgTable(
  'audit_events',
  {
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    seq: integer('seq').notNull(),
    userId: text('user_id').notNull(),
    /** The user's display name at the time: kept when the user is renamed or removed. */
    userName: text('user_name').notNull(),
    device: text('device').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    action: text('action').notNull(),
    changes: jsonb('changes').$type<Record<string, AuditChange>>().notNull(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull(),
    mutationId: text('mutation_id'),
    requestId: text('request_id'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organisationId, t.seq] }),
    index('audit_events_entity_idx').on(t.organisationId, t.entity, t.entityId),
    index('audit_events_user_idx').on(t.organisationId, t.userId),
    index('audit_events_applied_idx').on(t.organisationId, t.appliedAt),
  ],
);
