import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organisations, users } from '../db/schema';

// Projects group contracts (spec 7, "Projects"); a contract points at its project through
// contracts.project_id (foreign key in the projects custom migration).

export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdBy: text('created_by').notNull().references(() => users.id),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('projects_organisation_name_key').on(t.organisationId, t.name),
    index('projects_update_time_idx').on(t.organisationId, t.updateTime.desc(), t.id.desc()),
  ],
);
