import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { contractStatuses, taskTypes, TaskState } from '../../src-shared/domain/enums';
import { nameFieldId, type LedgerField, type LedgerFieldType } from '../../src-shared/domain/ledger';
import type { ServerDb } from '../db/database';
import { contracts } from '../db/schema';
import { performanceTasks } from '../performance/schema';
import { ledgerFields } from './schema';

// The ledger's columns: each definition's id decides, here in code, which SQL expression it
// reads and how it filters. Requests only name ids; an id outside this catalogue (or a contract
// form field registered in ledger_fields) is refused, so no request text ever becomes SQL.

/** How a field filters: a contains search, a numeric or date range, or a set of values. */
export type FilterKind = 'text' | 'number' | 'date' | 'timestamp' | 'set-text' | 'set-int';

export interface FieldSource {
  column: PgColumn;
  kind: FilterKind;
  /** The currency column of a money field. */
  unit?: PgColumn;
}

interface CatalogueEntry extends Omit<LedgerField, 'config'>, FieldSource {
  config?: Record<string, unknown>;
}

const t = performanceTasks;
const c = contracts;
const options = (values: readonly (string | number)[]) => ({ options: values.map((id) => ({ id, name: String(id) })) });

const entry = (
  id: string, name: string, category: LedgerField['category'], type: LedgerFieldType, source: FieldSource,
  defaults: { filter?: boolean; title?: boolean; config?: Record<string, unknown> } = {},
): CatalogueEntry => ({
  id, name, category, type, ...source, config: defaults.config, isDefaultFilter: defaults.filter ?? false, isDefaultTitle: defaults.title ?? false,
});

export const fieldCatalogue: readonly CatalogueEntry[] = [
  entry(nameFieldId, 'performance name', 'system', 'others', { column: t.name, kind: 'text' }, { filter: true, title: true }),
  entry('taskType', 'task type', 'system', 'select', { column: t.type, kind: 'set-text' }, { filter: true, title: true, config: options(taskTypes) }),
  entry('taskState', 'task state', 'system', 'select', { column: t.state, kind: 'set-int' }, { filter: true, title: true, config: options(Object.values(TaskState)) }),
  entry('expirationTime', 'expiration time', 'system', 'date', { column: t.expirationTime, kind: 'date' }, { filter: true, title: true }),
  entry('receivableAmount', 'receivable amount', 'system', 'money', { column: t.receivableAmount, kind: 'number', unit: t.amountUnit }, { filter: true, title: true }),
  entry('payableAmount', 'payable amount', 'system', 'money', { column: t.payableAmount, kind: 'number', unit: t.amountUnit }, { title: true }),
  entry('finishedAmount', 'finished amount', 'system', 'money', { column: t.finishedAmount, kind: 'number', unit: t.amountUnit }),
  entry('taskLeader', 'task leader', 'system', 'people', { column: t.leaderUserId, kind: 'set-text' }, { filter: true, title: true }),
  entry('createTime', 'create time', 'system', 'date', { column: t.createTime, kind: 'timestamp' }),
  entry('updateTime', 'update time', 'system', 'date', { column: t.updateTime, kind: 'timestamp' }, { title: true }),
  entry('contractName', 'contract name', 'contract', 'others', { column: c.name, kind: 'text' }, { filter: true, title: true }),
  entry('contractNumber', 'contract number', 'contract', 'others', { column: c.contractNumber, kind: 'text' }, { title: true }),
  entry('contractStatus', 'contract status', 'contract', 'select', { column: c.status, kind: 'set-int' }, { filter: true, title: true, config: options(contractStatuses) }),
  entry('contractTypeName', 'contract type', 'contract', 'others', { column: c.contractTypeName, kind: 'text' }),
  entry('templateName', 'template name', 'contract', 'others', { column: c.templateName, kind: 'text' }),
  entry('contractAmount', 'contract amount', 'contract', 'money', { column: c.amount, kind: 'number', unit: c.amountUnit }, { filter: true }),
  entry('responsiblePerson', 'responsible person', 'contract', 'people', { column: c.responsibleUserId, kind: 'set-text' }, { filter: true, title: true }),
  entry('signDate', 'sign date', 'contract', 'date', { column: c.signDate, kind: 'date' }),
];

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
          id: field.id, name: field.name, category: field.category, type: field.type, config: field.config ?? {},
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
