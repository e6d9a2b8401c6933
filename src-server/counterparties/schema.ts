import { date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { counterparties } from '../db/schema';

// What a counterparty carries beyond its core row (spec 3, "Counterparty"): bank accounts,
// contacts, business-registration fields, risk records and monitoring results.

const counterpartyId = () =>
  text('counterparty_id').notNull().references(() => counterparties.id, { onDelete: 'cascade' });

export const counterpartyBanks = pgTable(
  'counterparty_banks',
  {
    counterpartyId: counterpartyId(),
    /** Position in the party's list: banks are replaced as a whole on each save. */
    position: integer('position').notNull(),
    name: text('name').notNull(),
    /** 9–24 letters, digits, '-' or '_' (spec 5). */
    account: text('account').notNull(),
    accountName: text('account_name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.counterpartyId, t.position] })],
);

export const counterpartyContacts = pgTable(
  'counterparty_contacts',
  {
    counterpartyId: counterpartyId(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    phone: text('phone'),
    email: text('email'),
    title: text('title'),
  },
  (t) => [primaryKey({ columns: [t.counterpartyId, t.position] })],
);

/** Business-registration fields of an organisation (spec 3, "External detail"); one row per party. */
export const counterpartyRegistrations = pgTable('counterparty_registrations', {
  counterpartyId: counterpartyId().primaryKey(),
  enterpriseType: text('enterprise_type'),
  registeredCapital: text('registered_capital'),
  historyName: text('history_name'),
  businessScope: text('business_scope'),
  termStart: date('term_start', { mode: 'string' }),
  termEnd: date('term_end', { mode: 'string' }),
  governingBody: text('governing_body'),
  legalPerson: text('legal_person'),
  establishmentDate: date('establishment_date', { mode: 'string' }),
  cancellationDate: date('cancellation_date', { mode: 'string' }),
  approvalDate: date('approval_date', { mode: 'string' }),
  registrationStatus: text('registration_status'),
});

/** A risk the credit platform reported for a party, by monitoring dimension (e.g. litigation). */
export const counterpartyRisks = pgTable(
  'counterparty_risks',
  {
    id: text('id').primaryKey(),
    counterpartyId: counterpartyId(),
    dimensionName: text('dimension_name').notNull(),
    description: text('description').notNull(),
    occurredOn: date('occurred_on', { mode: 'string' }).notNull(),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('counterparty_risks_counterparty_idx').on(t.counterpartyId, t.occurredOn.desc())],
);

/** Monitoring results of a party (spec 3, "Monitoring result": info, updateTime). */
export const counterpartyMonitoringResults = pgTable(
  'counterparty_monitoring_results',
  {
    id: text('id').primaryKey(),
    counterpartyId: counterpartyId(),
    dimensionName: text('dimension_name').notNull(),
    info: text('info').notNull(),
    updateTime: timestamp('update_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('counterparty_monitoring_counterparty_idx').on(t.counterpartyId, t.updateTime.desc())],
);
