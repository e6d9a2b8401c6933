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
