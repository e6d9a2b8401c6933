import { bigint, customType, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../db/schema';

/** Bytes as PostgreSQL's bytea (node-postgres reads a Buffer, PGlite a Uint8Array). */
const bytes = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

/**
 * A user's prepared first sync (architecture, sync rule 10; src-server/sync/snapshots.ts): the
 * feed's pages from cursor 0 as the stream would send them, compressed once, so a new replica's
 * first sync costs the server a read of one row instead of reading and packing every page.
 */
export const syncSnapshots = pgTable('sync_snapshots', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  protocolVersion: integer('protocol_version').notNull(),
  schemaVersion: integer('schema_version').notNull(),
  /**
   * The level of the pages' last cursor (src-server/sync/pull.ts): a pull continuing from it is
   * refused once tombstones above it are pruned or the user's rights changed after it, so the
   * snapshot is served only while neither happened.
   */
  level: bigint('level', { mode: 'bigint' }).notNull(),
  /** The feed position the pages reach: a snapshot grown old is written again only if the feed moved on since. */
  position: bigint('position', { mode: 'bigint' }).notNull(),
  /** Brotli, the one coding it is kept in; a request that does not offer it gets the live feed. */
  body: bytes('body').notNull(),
  builtAt: timestamp('built_at', { withTimezone: true }).notNull(),
});
