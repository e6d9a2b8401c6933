import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { IpRecordKind, IpStatus, IpType } from '../../src-shared/domain/intellectual-property';
import { organisations, users } from '../db/schema';

// The intellectual-property register: the organisations that hold rights (the group's companies,
// or outside holders), the rights, their life records and the history of their transfers.

const audit = () => ({
  createdBy: text('created_by').references(() => users.id),
  createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
  version: integer('version').notNull().default(1),
});

export const ipOrganizations = pgTable(
  'ip_organizations',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
    creditCode: text('credit_code'),
    contactName: text('contact_name'),
    contactPhone: text('contact_phone'),
    remark: text('remark').notNull().default(''),
    ...audit(),
  },
  (t) => [uniqueIndex('ip_organizations_name_key').on(t.organisationId, t.name)],
);

export const intellectualProperties = pgTable(
  'intellectual_properties',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id').notNull().references(() => organisations.id),
    name: text('name').notNull(),
    type: text('type').$type<IpType>().notNull(),
    registrationNumber: text('registration_number').notNull(),
    ownerOrganizationId: text('owner_organization_id').notNull().references(() => ipOrganizations.id),
    status: text('status').$type<IpStatus>().notNull(),
    applicationDate: date('application_date', { mode: 'string' }),
    registrationDate: date('registration_date', { mode: 'string' }),
    expirationDate: date('expiration_date', { mode: 'string' }),
    remark: text('remark').notNull().default(''),
    ...audit(),
  },
  (t) => [
    // A registration number names one right of its kind.
    uniqueIndex('intellectual_properties_number_key').on(t.organisationId, t.type, t.registrationNumber),
    index('intellectual_properties_owner_idx').on(t.ownerOrganizationId),
    index('intellectual_properties_update_time_idx').on(t.organisationId, t.updateTime.desc(), t.id.desc()),
    check('intellectual_properties_dates_check', sql`${t.expirationDate} is null or ${t.applicationDate} is null or ${t.expirationDate} >= ${t.applicationDate}`),
  ],
);

export const ipRecords = pgTable(
  'ip_records',
  {
    id: text('id').primaryKey(),
    intellectualPropertyId: text('intellectual_property_id').notNull().references(() => intellectualProperties.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<IpRecordKind>().notNull(),
    recordDate: date('record_date', { mode: 'string' }).notNull(),
    title: text('title').notNull(),
    content: text('content').notNull().default(''),
    ...audit(),
  },
  (t) => [index('ip_records_property_idx').on(t.intellectualPropertyId, t.recordDate.desc())],
);

/** Every change of owner, kept forever: the chain of title of a right. */
export const ipTransfers = pgTable(
  'ip_transfers',
  {
    id: text('id').primaryKey(),
    intellectualPropertyId: text('intellectual_property_id').notNull().references(() => intellectualProperties.id, { onDelete: 'cascade' }),
    fromOrganizationId: text('from_organization_id').notNull().references(() => ipOrganizations.id),
    toOrganizationId: text('to_organization_id').notNull().references(() => ipOrganizations.id),
    transferDate: date('transfer_date', { mode: 'string' }).notNull(),
    reason: text('reason').notNull().default(''),
    createdBy: text('created_by').references(() => users.id),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ip_transfers_property_idx').on(t.intellectualPropertyId, t.createTime)],
);
