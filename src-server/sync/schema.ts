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

/**
 * A user's first sync as a ready replica image (src-server/sync/images.ts): built with the
 * desktop's own migrations and pull writers at `replicaVersion`, brotli compressed, named by its
 * SHA-256, downloaded by byte range.
 */
export const syncImages = pgTable('sync_images', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  protocolVersion: integer('protocol_version').notNull(),
  schemaVersion: integer('schema_version').notNull(),
  /** The desktop's replica schema version it was built at (its count of client migrations). */
  replicaVersion: integer('replica_version').notNull(),
  /** As a snapshot's (above): served only while a pull from its cursor would be accepted. */
  level: bigint('level', { mode: 'bigint' }).notNull(),
  position: bigint('position', { mode: 'bigint' }).notNull(),
  /** The feed cursor the image is caught up to. */
  cursor: text('cursor').notNull(),
  changes: integer('changes').notNull(),
  sha256: text('sha256').notNull(),
  body: bytes('body').notNull(),
  /** The SQLite file's own length, before compression. */
  rawBytes: bigint('raw_bytes', { mode: 'number' }).notNull(),
  /** How long the image took to build on its thread. */
  buildMs: integer('build_ms').notNull(),
  builtAt: timestamp('built_at', { withTimezone: true }).notNull(),
});
