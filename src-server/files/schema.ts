import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { contracts, organisations, users } from '../db/schema';

// Uploaded files: the bytes live in the files folder under the row's id (never a client-given
// name, so no path can be smuggled in); the row holds what the download needs.

export const uploadedFiles = pgTable(
  'uploaded_files',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    /** The contract the file belongs to; who may see the contract may download it. */
    contractId: text('contract_id').references(() => contracts.id, { onDelete: 'set null' }),
    uploadedBy: text('uploaded_by').notNull().references(() => users.id),
    /** The client's file name, for display and the download's Content-Disposition only. */
    name: text('name').notNull(),
    extension: text('extension').notNull(),
    mimeType: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** 'attachment' or 'archive' (archives are PDF only). */
    purpose: text('purpose').notNull(),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('uploaded_files_contract_idx').on(t.contractId)],
);

/**
 * Uploads under way (issue 30): the bytes acknowledged so far live in `<dir>/<id>.upload`; the
 * row counts them. The id is the client's and becomes the stored file's when the last byte is in
 * and the whole file's SHA-256 matches; then the row goes. An upload nobody continues until
 * `expires_at` is removed by the server's housekeeping.
 */
export const fileUploads = pgTable(
  'file_uploads',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    contractId: text('contract_id').references(() => contracts.id, { onDelete: 'set null' }),
    uploadedBy: text('uploaded_by').notNull().references(() => users.id),
    name: text('name').notNull(),
    extension: text('extension').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** The whole file's digest as the client computed it. */
    sha256: text('sha256').notNull(),
    purpose: text('purpose').notNull(),
    /** Bytes acknowledged: every chunk up to here is written to the disk. */
    received: bigint('received', { mode: 'number' }).notNull().default(0),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('file_uploads_expires_idx').on(t.expiresAt)],
);
