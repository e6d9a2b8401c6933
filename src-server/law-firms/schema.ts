import { sql } from 'drizzle-orm';
import { check, index, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { organisations } from '../db/schema';

// Law firms and their lawyers: the agent field of a contract picks from these (spec 3, "Agent value").
// State 2 is disabled, as for case types (spec 3): kept for the contracts that name it, not offered anew.

export const lawFirms = pgTable(
  'law_firms',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
    state: smallint('state').notNull().default(1),
  },
  (t) => [uniqueIndex('law_firms_organisation_name_key').on(t.organisationId, t.name), check('law_firms_state_check', sql`${t.state} in (1, 2)`)],
);

export const lawyers = pgTable(
  'lawyers',
  {
    id: text('id').primaryKey(),
    lawFirmId: text('law_firm_id').notNull().references(() => lawFirms.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    state: smallint('state').notNull().default(1),
  },
  (t) => [index('lawyers_law_firm_idx').on(t.lawFirmId, t.name), check('lawyers_state_check', sql`${t.state} in (1, 2)`)],
);
