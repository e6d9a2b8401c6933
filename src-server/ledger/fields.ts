import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { nameFieldId, type LedgerField } from '../../src-shared/domain/ledger';
import { ledgerFieldCatalogue, type CatalogueField, type FilterKind } from '../../src-shared/domain/ledger-fields';
import type { ServerDb } from '../db/database';
import { contracts } from '../db/schema';
import { performanceTasks } from '../performance/schema';
import { ledgerFields } from './schema';

// The ledger's columns: each catalogue id (src-shared/domain/ledger-fields.ts) decides, here in
// code, which SQL expression it reads. Requests only name ids; an id outside the catalogue (or a
// contract form field registered in ledger_fields) is refused, so no request text ever becomes SQL.

export interface FieldSource {
  column: PgColumn;
  kind: FilterKind;
  /** The currency column of a money field. */
  unit?: PgColumn;
}

type CatalogueEntry = CatalogueField & FieldSource;

const t = performanceTasks;
const c = contracts;

const columns: Record<string, PgColumn> = {
  [nameFieldId]: t.name, taskType: t.type, taskState: t.state, expirationTime: t.expirationTime, receivableAmount: t.receivableAmount,
  payableAmount: t.payableAmount, finishedAmount: t.finishedAmount, taskLeader: t.leaderUserId, createTime: t.createTime, updateTime: t.updateTime,
  contractName: c.name, contractNumber: c.contractNumber, contractStatus: c.status, contractTypeName: c.contractTypeName, templateName: c.templateName,
  contractAmount: c.amount, responsiblePerson: c.responsibleUserId, signDate: c.signDate,
};
const unitOf = (field: CatalogueField) => (field.hasUnit ? (field.category === 'contract' ? c.amountUnit : t.amountUnit) : undefined);

export const fieldCatalogue: readonly CatalogueEntry[] = ledgerFieldCatalogue.map((field) => {
  const column = columns[field.id];
  if (!column) throw new Error(`the ledger catalogue's ${field.id} has no column`);
  return { ...field, column, unit: unitOf(field) };
});

const catalogueById = new Map(fieldCatalogue.map((field) => [field.id, field]));

export function catalogueSource(id: string): FieldSource | undefined {
  return catalogueById.get(id);
}

/** A contract form field registered in ledger_fields reads the contract's form value by its id (a bound parameter). */
export function formValueText(id: string): SQL {
  return sql`(${contracts.formValues} ->> ${id})`;
}

const ensured = new WeakMap<ServerDb, Promise<void>>();

/** Writes the catalogue's definitions into ledger_fields once per database (idempotent). */
export function ensureLedgerFields(db: ServerDb): Promise<void> {
  let done = ensured.get(db);
  if (!done) {
    done = db
      .insert(ledgerFields)
      .values(
        fieldCatalogue.map((field, sortOrder) => ({
          id: field.id, name: field.name, category: field.category, type: field.type, config: field.config,
          isDefaultFilter: field.isDefaultFilter, isDefaultTitle: field.isDefaultTitle, sortOrder,
        })),
      )
      .onConflictDoNothing()
      .then(() => undefined);
    done.catch(() => ensured.delete(db));
    ensured.set(db, done);
  }
  return done;
}

export function toLedgerField(row: typeof ledgerFields.$inferSelect): LedgerField {
  return { id: row.id, name: row.name, category: row.category, type: row.type, config: row.config, isDefaultFilter: row.isDefaultFilter, isDefaultTitle: row.isDefaultTitle };
}

/** Every field definition, in display order. */
export async function loadFields(db: ServerDb): Promise<LedgerField[]> {
  await ensureLedgerFields(db);
  const rows = await db.select().from(ledgerFields).orderBy(ledgerFields.sortOrder, ledgerFields.id);
  return rows.map(toLedgerField);
}
