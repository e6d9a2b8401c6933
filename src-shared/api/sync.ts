import { z } from 'zod';
import { contractSchema, idSchema } from '../domain/contract';

// Pull by a server cursor (a monotonic change sequence the server assigns), never by a clock.
// Every pull names the protocol and schema versions it speaks (architecture, sync rule 9).

export const syncProtocolVersion = 1;
/** The version of the entity shapes carried by sync; bumped with every change to them. */
export const syncSchemaVersion = 1;

/** A cursor is a decimal string: PostgreSQL sequences outgrow JavaScript's safe integers. */
export const cursorSchema = z.string().regex(/^\d{1,20}$/, 'cursor must be a non-negative integer');

export const syncPullQuerySchema = z
  .object({
    cursor: cursorSchema.default('0'),
    limit: z.coerce.number().int().min(1).max(5000).default(1000),
    protocolVersion: z.coerce.number().int().min(1),
    schemaVersion: z.coerce.number().int().min(1),
  })
  .strict();
export type SyncPullQuery = z.infer<typeof syncPullQuerySchema>;

export const contractChangeSchema = z.discriminatedUnion('op', [
  z.object({ entity: z.literal('contract'), op: z.literal('upsert'), row: contractSchema }),
  z.object({ entity: z.literal('contract'), op: z.literal('delete'), id: idSchema }),
]);
export const syncChangeSchema = contractChangeSchema;
export type SyncChange = z.infer<typeof syncChangeSchema>;

export const syncPullResponseSchema = z.object({
  changes: z.array(syncChangeSchema),
  /** The cursor to send next time; it covers every change in this page. */
  cursor: cursorSchema,
  hasMore: z.boolean(),
  /** How many changes are left after this page, for the first-sync progress bar. */
  remaining: z.number().int().nonnegative(),
});
export type SyncPullResponse = z.infer<typeof syncPullResponseSchema>;
