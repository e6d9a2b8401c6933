import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../db/schema';

/**
 * The first response to a REST write sent with an Idempotency-Key, stored in the transaction of
 * its effect (src-server/http/write-safety.ts). A replay with the same key returns it.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** sha256 of the endpoint, path parameters, query and body: a key reused for another request is refused. */
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').$type<unknown>(),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_create_time_idx').on(t.createTime)],
);
