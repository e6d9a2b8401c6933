import { z } from 'zod';
import { apiPrefix, endpoint, idParams, none, pageNum, trimmed, type Endpoint } from './endpoint';

// The audit trail (issue 32, item 4): every write the server applies, REST and sync alike, as an
// append-only event chained by hash. Administrators read it, check the chain and set how long
// events are kept. Both paths are defined here.

/** One changed field: its value before the write and after it (null where the row did not or no longer exists). */
export const auditChangeSchema = z.object({ before: z.unknown(), after: z.unknown() });
export type AuditChange = z.infer<typeof auditChangeSchema>;

export const auditEventSchema = z.object({
  /** The event's place in its organisation's chain, from 1 without gaps. */
  seq: z.number().int().positive(),
  userId: z.string(),
  userName: z.string(),
  /** The sync client id of a pushed edit; the client header or the session of a REST write. */
  device: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  /** The endpoint name of a REST write, the mutation name of a sync edit. */
  action: z.string(),
  /** Only the fields the write changed; secrets are recorded as changed, never with their values. */
  changes: z.record(z.string(), auditChangeSchema),
  /** When the device made the edit (an offline edit's own time); null for a REST write. */
  editedAt: z.string().nullable(),
  /** When the server applied the write. */
  appliedAt: z.string(),
  mutationId: z.string().nullable(),
  requestId: z.string().nullable(),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

const isoTime = z.string().datetime({ offset: true });

export const auditEventsQuerySchema = z
  .object({
    pageNum,
    pageSize: z.coerce.number().int().min(1).max(500).default(100),
    userId: trimmed(64).optional(),
    device: trimmed(200).optional(),
    entity: trimmed(64).optional(),
    entityId: trimmed(64).optional(),
    /** Applied at or after. */
    from: isoTime.optional(),
    /** Applied before. */
    to: isoTime.optional(),
    /** Events up to this one: an export pages a list that new events do not shift. */
    untilSeq: z.coerce.number().int().positive().optional(),
  })
  .strict();
export type AuditEventsQuery = z.infer<typeof auditEventsQuerySchema>;

/** What verification found: the first event whose content no longer matches its hash, or before which an event is missing. */
export const auditVerificationSchema = z.object({
  intact: z.boolean(),
  /** Events walked. */
  checked: z.number().int().nonnegative(),
  /** The oldest kept event: the chain is checked from there (older ones are pruned by the retention). */
  fromSeq: z.number().int().nullable(),
  problem: z
    .object({
      seq: z.number().int(),
      kind: z.enum(['changed', 'removed']),
      message: z.string(),
    })
    .nullable(),
});
export type AuditVerification = z.infer<typeof auditVerificationSchema>;

/** The most events one Excel export writes: more are refused at once, asking for narrower filters. */
export const maxAuditExportRows = 100_000;

export const maxAuditRetentionDays = 36_500;
export const auditSettingsSchema = z.object({
  /** Events older than this many days are pruned by the server's maintenance. */
  retentionDays: z.number().int().min(1).max(maxAuditRetentionDays),
});
export type AuditSettings = z.infer<typeof auditSettingsSchema>;

export const auditEndpoints = {
  /** Administrators only. */
  auditEvents: endpoint({
    method: 'GET', path: `${apiPrefix}/audit/events`, auth: true, query: auditEventsQuerySchema, body: none,
    response: z.object({ list: z.array(auditEventSchema), count: z.number().int().nonnegative() }),
  }),
  /** Administrators only: walks the organisation's chain. */
  auditVerify: endpoint({
    method: 'GET', path: `${apiPrefix}/audit/verify`, auth: true, query: none, body: none, response: auditVerificationSchema,
  }),
  /** The events of one contract, for its history tab: whoever may see the contract. */
  contractAuditEvents: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts/:id/audit`, auth: true, params: idParams, query: none, body: none,
    response: z.object({ list: z.array(auditEventSchema) }),
  }),
  auditSettings: endpoint({
    method: 'GET', path: `${apiPrefix}/audit/settings`, auth: true, query: none, body: none, response: auditSettingsSchema,
  }),
  /** Administrators only. */
  auditSettingsUpdate: endpoint({
    method: 'PUT', path: `${apiPrefix}/audit/settings`, auth: true, query: none, body: auditSettingsSchema.strict(), response: auditSettingsSchema,
  }),
} as const satisfies Record<string, Endpoint>;
