import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { organisations } from '../db/schema';

// Law firms and their lawyers: the agent field of a contract picks from these (spec 3, "Agent value").

export const lawFirms = pgTable(
  'law_firms',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('law_firms_organisation_name_key').on(t.organisationId, t.name)],
);

export const lawyers = pgTable(
  'lawyers',
  {
    id: text('id').primaryKey(),
    lawFirmId: text('law_firm_id').notNull().references(() => lawFirms.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
  },
  (t) => [index('lawyers_law_firm_idx').on(t.lawFirmId, t.name)],
);
