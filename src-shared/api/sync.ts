import { z } from 'zod';
import { isoDateSchema } from '../domain/dates';
import { approvalTrailSchema } from '../domain/approval-trail';
import { contractSchema, idSchema } from '../domain/contract';
import { ScheduleConditionType, TaskState } from '../domain/enums';
import { filterConditionSchema, sortFieldSchema } from '../domain/ledger';
import { formFieldSchema, sheetColumnSchema } from '../domain/performance';
import { reminderSettingsSchema } from '../domain/reminders';
import { appErrorSchema } from '../errors';
import { apiPrefix } from './endpoint';

// Pull by a server cursor (a monotonic change sequence the server assigns), never by a clock.
// Every pull names the protocol and schema versions it speaks (architecture, sync rule 9).

/** 2: a mid-way cursor carries the count of what remains (src-server/sync/pull.ts); 3: the feed's pages go column by column, ids split (src-shared/sync/feed-codec.ts). */
export const syncProtocolVersion = 3;
/** The version of the entity shapes carried by sync; bumped with every change to them (4: tasks carry their sheet row and the ledger's columns, plans and scenes join; 5: tasks carry their predecessors; 6: contracts carry their counterparty's id and their approval trail; 7: scenes carry their kept sort). */
export const syncSchemaVersion = 7;

/**
 * A cursor is opaque to clients: a decimal position (PostgreSQL's 64-bit numbers outgrow
 * JavaScript's safe integers), followed mid-way through a paged pull by "." and the position the
 * pull started from, which the server needs to tell whether the client may have missed deletes,
 * and by "." and the count of changes the page left (`remaining`), so that the next page need not
 * count them again.
 */
export const cursorSchema = z.string().regex(/^\d{1,20}(\.\d{1,20}(\.\d{1,20})?)?$/, 'cursor must be a non-negative integer');

/** The position part of a cursor (BigInt of the whole cursor throws mid-way): it never decreases. */
export function cursorPosition(cursor: string): bigint {
  return BigInt(cursor.split('.')[0] ?? '0');
}

export const syncPullQuerySchema = z
  .object({
    cursor: cursorSchema.default('0'),
    limit: z.coerce.number().int().min(1).max(5000).default(1000),
    /** A page also ends before its changes' JSON passes about this many bytes (architecture, sync rule 10); it always holds one change. */
    maxBytes: z.coerce.number().int().min(1024).max(16 * 1024 * 1024).default(1024 * 1024),
    protocolVersion: z.coerce.number().int().min(1),
    schemaVersion: z.coerce.number().int().min(1),
  })
  .strict();
export type SyncPullQuery = z.infer<typeof syncPullQuerySchema>;

/**
 * The feed as one stream of packed pages (architecture, sync rule 10): one JSON page a line, each
 * page as /sync/feed answers it, the next one read by the server as soon as the last is sent, so
 * a pull pays the link's round trip once rather than once a page. `firstLimit` bounds the first
 * page alone (a first sync's first page is small, so the ledger is usable after one short wait).
 */
export const syncFeedStreamPath = `${apiPrefix}/sync/feed/stream`;
export const syncFeedStreamQuerySchema = syncPullQuerySchema.extend({ firstLimit: z.coerce.number().int().min(1).max(5000).optional() });
export type SyncFeedStreamQuery = z.infer<typeof syncFeedStreamQuerySchema>;

/**
 * The pages of a prepared first sync (architecture, sync rule 10): the desktop's own page shape.
 * The server answers a pull from cursor 0 with its prepared pages only when the request's bounds
 * hold them (limit and maxBytes at least these, firstLimit or else limit at least firstLimit).
 */
export const preparedFeedPages = { limit: 5000, maxBytes: 4 * 1024 * 1024, firstLimit: 500 } as const;

/** A contract as the feed sends it: the ledger's row plus what the detail screen needs offline. */
export const syncContractSchema = contractSchema.extend({
  contractNumberAuto: z.boolean(),
  contractTypeId: idSchema.nullable(),
  templateId: idSchema.nullable(),
  /** Form values keyed by field id. */
  formValues: z.record(z.string(), z.unknown()),
  /** The counterparty the contract is with (cooperation information is matched by it, not by name). */
  counterpartyId: idSchema.nullable(),
  /** Its approval steps, oldest first. */
  approvalTrail: approvalTrailSchema,
});
export type SyncContract = z.infer<typeof syncContractSchema>;

export const contractChangeSchema = z.discriminatedUnion('op', [
  z.object({ entity: z.literal('contract'), op: z.literal('upsert'), row: syncContractSchema }),
  z.object({ entity: z.literal('contract'), op: z.literal('delete'), id: idSchema }),
]);


/** A performance task as the desktop needs it (reminders, dashboard); quick tasks have no contract. */
export const syncTaskSchema = z.object({
  id: idSchema,
  contractId: idSchema.nullable(),
  planId: idSchema.nullable(),
  performanceId: idSchema.nullable(),
  name: z.string(),
  type: z.string(),
  state: z.literal(Object.values(TaskState)),
  expirationTime: isoDateSchema.nullable(),
  /** Money in integer hundredths, with its unit. */
  receivableAmount: z.number().int().nullable(),
  payableAmount: z.number().int().nullable(),
  amountUnit: z.string().nullable(),
  leaderUserId: idSchema.nullable(),
  /** The row number in its contract's performance sheet, and the row's cells by column id. */
  rowIndex: z.number().int(),
  level: z.number().int().nullable(),
  values: z.record(z.string(), z.unknown()),
  /** The completion form's values and the finished amount (hundredths) once finished. */
  completionValues: z.record(z.string(), z.unknown()).nullable(),
  finishedAmount: z.number().int().nullable(),
  /** The tasks it was related to as its predecessors (spec 7 relate), in id order; null when none. */
  frontTaskIds: z.array(idSchema).nullable(),
  /** What the ledger sorts and shows offline. */
  createTime: z.string(),
  version: z.number().int().nonnegative(),
  updateTime: z.string(),
});
export type SyncTask = z.infer<typeof syncTaskSchema>;

export const taskChangeSchema = z.discriminatedUnion('op', [
  z.object({ entity: z.literal('performanceTask'), op: z.literal('upsert'), row: syncTaskSchema }),
  z.object({ entity: z.literal('performanceTask'), op: z.literal('delete'), id: idSchema }),
]);

/**
 * A contract's plan under a performance (its performance sheet), with what the sheet and the
 * finish dialog need offline: the performance's name, type, sheet columns and completion form.
 */
export const syncPlanSchema = z.object({
  id: idSchema,
  contractId: idSchema,
  performanceId: idSchema,
  performanceName: z.string(),
  performanceType: z.string(),
  columns: z.array(sheetColumnSchema),
  /** The completion form (complete_form's configFields) of the performance's tasks. */
  fields: z.array(formFieldSchema),
  conditionType: z.literal(Object.values(ScheduleConditionType)),
  /** The periodic schedule as saved (src-shared/domain/performance periodicScheduleSchema), or null. */
  schedule: z.unknown().nullable(),
  version: z.number().int().nonnegative(),
  updateTime: z.string(),
});
export type SyncPlan = z.infer<typeof syncPlanSchema>;

export const planChangeSchema = z.discriminatedUnion('op', [
  z.object({ entity: z.literal('performancePlan'), op: z.literal('upsert'), row: syncPlanSchema }),
  z.object({ entity: z.literal('performancePlan'), op: z.literal('delete'), id: idSchema }),
]);

/** The signed-in user's own reminder settings; only ever sent to that user. */
export const syncReminderSettingsSchema = z.object({
  userId: idSchema,
  settings: reminderSettingsSchema,
  version: z.number().int().nonnegative(),
  updateTime: z.string(),
});
export type SyncReminderSettings = z.infer<typeof syncReminderSettingsSchema>;

export const reminderSettingsChangeSchema = z.object({ entity: z.literal('reminderSettings'), op: z.literal('upsert'), row: syncReminderSettingsSchema });

/** One of the signed-in user's ledger scenes (sync schema 4); only ever sent to that user. */
export const syncSceneSchema = z.object({
  id: idSchema,
  name: z.string(),
  isDefault: z.boolean(),
  isSystem: z.boolean(),
  performanceId: idSchema.nullable(),
  filterIDs: z.array(z.string()),
  titleIDs: z.array(z.string()),
  filter: z.array(filterConditionSchema),
  /** The kept sort (sync schema 7). */
  sortField: sortFieldSchema.nullable(),
  sortOrder: z.number().int(),
  version: z.number().int().nonnegative(),
  updateTime: z.string(),
});
export type SyncScene = z.infer<typeof syncSceneSchema>;

export const sceneChangeSchema = z.discriminatedUnion('op', [
  z.object({ entity: z.literal('scene'), op: z.literal('upsert'), row: syncSceneSchema }),
  z.object({ entity: z.literal('scene'), op: z.literal('delete'), id: idSchema }),
]);

export const syncChangeSchema = z.discriminatedUnion('entity', [contractChangeSchema, taskChangeSchema, reminderSettingsChangeSchema, planChangeSchema, sceneChangeSchema]);
export type ContractChange = z.infer<typeof contractChangeSchema>;
export type SyncChange = z.infer<typeof syncChangeSchema>;

export const syncPullResponseSchema = z.object({
  changes: z.array(syncChangeSchema),
  /** The cursor to send next time; it covers every change in this page. */
  cursor: cursorSchema,
  hasMore: z.boolean(),
  /**
   * How many changes are left after this page, for the first-sync progress bar: 0 exactly when
   * hasMore is false, else at least 1. Counted on a pull's first page (on a first sync's first
   * page, the performance tasks are taken from the ledger's kept counts, so changes committed
   * while the page was read may be missing or extra) and then carried in the cursor, less each
   * page's changes: changes written during the pull are not in it, and when they outrun it, it is
   * counted again. Never used to decide whether to pull on.
   */
  remaining: z.number().int().nonnegative(),
});
export type SyncPullResponse = z.infer<typeof syncPullResponseSchema>;

// Push: a batch of queued mutations, each applied exactly once (architecture, sync rules 2, 5, 6).

const uuidSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');

export const mutationEnvelopeSchema = z
  .object({
    /** Client-generated UUIDv7: the key of exactly-once. */
    id: uuidSchema,
    /** Per-client sequence number; a client's mutations are applied in this order. */
    seq: z.number().int().positive().safe(),
    name: z.string().min(1).max(128),
    /** Validated on the server against the named mutation's schema (src-shared/sync/mutations.ts). */
    args: z.unknown(),
    /** The version of each touched row ("entity:id") the client based the edit on. */
    baseVersions: z.record(z.string().max(140), z.number().int().nonnegative()),
    /** When the user made the edit on the device (its clock): the audit trail's time of the edit. */
    createdAt: z.string().datetime({ offset: true }).optional(),
  })
  .strict();
export type MutationEnvelope = z.infer<typeof mutationEnvelopeSchema>;

/**
 * The most mutation args (JSON bytes) a client sends in one push, so a batch of large edits
 * (form values are at most 256 KiB each) stays well under the server's 1 MiB body limit.
 */
export const maxPushArgsBytes = 512 * 1024;

export const syncPushRequestSchema = z
  .object({
    protocolVersion: z.number().int().min(1),
    schemaVersion: z.number().int().min(1),
    clientId: uuidSchema,
    mutations: z.array(mutationEnvelopeSchema).min(1).max(500),
  })
  .strict();
export type SyncPushRequest = z.infer<typeof syncPushRequestSchema>;

export const mutationOutcomeSchema = z.object({ contractNumber: z.string().nullable() });
export type MutationOutcome = z.infer<typeof mutationOutcomeSchema>;

export const mutationResultSchema = z.discriminatedUnion('status', [
  /** Applied now or before (a replay returns the stored result); the new version of each row. */
  z.object({
    id: uuidSchema,
    status: z.literal('applied'),
    versions: z.record(z.string(), z.number().int()),
    /** What the server decided that the client could only guess: a drafted contract's final number. */
    outcome: mutationOutcomeSchema.optional(),
  }),
  /** Permanently refused (validation, permission, illegal state): the client reverts and shows it. */
  z.object({ id: uuidSchema, status: z.literal('rejected'), error: appErrorSchema }),
  /** A touched row changed since its base version: the current rows, for the user to settle. */
  z.object({
    id: uuidSchema,
    status: z.literal('conflict'),
    error: appErrorSchema,
    current: z.array(syncChangeSchema),
    /** The field groups ("name", "form:<field id>", …) both the edit and the server changed; absent when the whole row conflicts. */
    fields: z.array(z.string()).optional(),
  }),
]);
export type MutationResult = z.infer<typeof mutationResultSchema>;

export const syncPushResponseSchema = z.object({ results: z.array(mutationResultSchema) });
export type SyncPushResponse = z.infer<typeof syncPushResponseSchema>;

/**
 * A user's first sync as a ready replica (architecture, "First sync"): a SQLite image of their
 * replica at one replica schema version (the desktop's count of client migrations), built by the
 * core's own migrations and pull writers, without the secondary and full-text indexes, brotli
 * compressed. The desktop asks whether one answers its versions, downloads it by byte range from
 * `syncImageBodyPath`, and pulls on through the feed from its cursor.
 */
export const syncImageQuerySchema = z
  .object({
    protocolVersion: z.coerce.number().int().min(1),
    schemaVersion: z.coerce.number().int().min(1),
    replicaVersion: z.coerce.number().int().min(1),
  })
  .strict();
export type SyncImageQuery = z.infer<typeof syncImageQuerySchema>;

export const sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hexadecimal');

export const syncImageSchema = z.object({
  /** The compressed image's SHA-256: its name in the download path, and what the desktop checks. */
  sha256: sha256HexSchema,
  /** The compressed image's length. */
  bytes: z.number().int().min(1),
  replicaVersion: z.number().int().min(1),
  schemaVersion: z.number().int().min(1),
  userId: idSchema,
  /** The feed cursor the image is caught up to. */
  cursor: cursorSchema,
  /** How many feed changes it holds: the progress a first sync shows while it downloads. */
  changes: z.number().int().nonnegative(),
  builtAt: z.string(),
});
export type SyncImage = z.infer<typeof syncImageSchema>;

/** null: none answers (none prepared for these versions, or the one prepared is too far behind the feed). */
export const syncImageAnswerSchema = z.object({ image: syncImageSchema.nullable() });

/** The compressed image named by its SHA-256, whole or from a byte range (`Range: bytes=N-`). */
export const syncImageBodyPath = `${apiPrefix}/sync/image/:sha256`;
export const syncImageBodyUrl = (sha256: string) => syncImageBodyPath.replace(':sha256', sha256);
