import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { DateTime } from 'luxon';
import { nameFieldId, type FilterCondition, type LedgerField, type LedgerRow, type LedgerSearch } from '../../src-shared/domain/ledger';
import { invalidFields, type AppFailure } from '../../src-shared/errors';
import type { SessionUser } from '../auth/service';
import { visibleTo } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import { contracts, users } from '../db/schema';
import { performanceTasks } from '../performance/schema';
import { catalogueSource, fieldCatalogue, formValueText, loadFields, type FieldSource } from './fields';
import { findScene } from './scenes';
import { countLedgerRecords } from './totals';

// The ledger search (spec 7, POST performances/search): performance records (performance tasks
// with a contract) whose contract the viewer may see, filtered by field definitions, sorted and
// paged. Indexes for it: the ledger's custom migration.

const t = performanceTasks;
const c = contracts;

function badFilter(path: string, message: string): AppFailure {
  return invalidFields([{ path, message }]);
}

type Bound = number | string | null | undefined;
const isEmpty = (value: Bound) => value === undefined || value === null || value === '';

function numberBound(path: string, value: Bound): number | undefined {
  if (isEmpty(value)) return undefined;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) throw badFilter(path, 'must be a number');
  return number;
}

function dateBound(path: string, value: Bound): string | undefined {
  if (isEmpty(value)) return undefined;
  if (typeof value !== 'string' || !DateTime.fromFormat(value, 'yyyy-MM-dd').isValid) throw badFilter(path, 'must be a date (yyyy-MM-dd)');
  return value;
}

/** A range from two bounds; both bounds empty means no condition (spec 5). */
function range<T extends number | string>(path: string, from: T | undefined, to: T | undefined, lower: (from: T) => SQL, upper: (to: T) => SQL): SQL | undefined {
  if (from !== undefined && to !== undefined && from > to) throw badFilter(path, 'minimum cannot be greater than maximum');
  return and(from !== undefined ? lower(from) : undefined, to !== undefined ? upper(to) : undefined);
}

function setCondition(path: string, column: SQL, values: readonly (string | number)[] | undefined, integers: boolean): SQL | undefined {
  if (!values || values.length === 0) return undefined;
  if (integers) {
    const numbers = values.map(Number);
    if (numbers.some((n) => !Number.isInteger(n))) throw badFilter(path, 'values must be whole numbers');
    return inArray(column, numbers);
  }
  return inArray(column, values.map(String));
}

function searchWord(column: SQL, word: string | undefined): SQL | undefined {
  return word ? ilike(column, containsPattern(word)) : undefined;
}

/** The condition of one filter, from the field's definition (never from the request's text). */
function filterCondition(filter: FilterCondition, index: number, fields: Map<string, LedgerField>): SQL | undefined {
  const path = `filterList.${index}`;
  const field = fields.get(filter.id);
  if (!field) throw badFilter(`${path}.id`, `unknown ledger field: ${filter.id}`);
  if (filter.type !== undefined && filter.type !== field.type) throw badFilter(`${path}.type`, `field ${field.id} is of type ${field.type}`);
  const { gte: from, lte: to, in: values, searchWord: word } = filter.condition;
  const source = catalogueSource(field.id);
  if (!source) return or(searchWord(formValueText(field.id), word), setCondition(path, formValueText(field.id), values, false));
  const column = source.column;
  const expression = sql`${column}`;
  switch (source.kind) {
    case 'text':
      return and(searchWord(expression, word), setCondition(path, expression, values, false));
    case 'number':
      return range(path, numberBound(`${path}.condition.gte`, from), numberBound(`${path}.condition.lte`, to), (min) => gte(column, min), (max) => lte(column, max));
    case 'date':
      return range(path, dateBound(`${path}.condition.gte`, from), dateBound(`${path}.condition.lte`, to), (min) => gte(column, min), (max) => lte(column, max));
    case 'timestamp':
      // Days on an instant: from the start of the lower day to the end of the upper one.
      return range(path, dateBound(`${path}.condition.gte`, from), dateBound(`${path}.condition.lte`, to), (min) => gte(column, sql`${min}::date`), (max) => lt(column, sql`(${max}::date + 1)`));
    case 'set-text':
      return setCondition(path, expression, values, false);
    case 'set-int':
      return setCondition(path, expression, values, true);
  }
}

function sortOrder(search: LedgerSearch): SQL[] {
  const sort = search.sortField;
  if (!sort) return [desc(t.updateTime), desc(t.id)];
  const source = catalogueSource(sort.id);
  if (!source) throw badFilter('sortField.id', `the ledger cannot sort by ${sort.id}`);
  const direction = sort.key === 1 ? asc : desc;
  return [sql`${direction(source.column)} nulls last`, direction(t.id)];
}

const selection = {
  ...Object.fromEntries(fieldCatalogue.flatMap((field) => [[field.id, field.column], ...(field.unit ? [[`${field.id}:unit`, field.unit]] : [])])),
  taskId: t.id,
  taskTypeValue: t.type,
  taskStateValue: t.state,
  performanceIdValue: t.performanceId,
  createTimeValue: t.createTime,
  updateTimeValue: t.updateTime,
  contractIdValue: c.id,
  contractNameValue: c.name,
  contractStatusValue: c.status,
  templateNameValue: c.templateName,
  contractTypeNameValue: c.contractTypeName,
  formValues: c.formValues,
} as Record<string, PgColumn>;

/** The task type decides which of the ledger's time columns its due date is (spec 3, "Ledger row"). */
const timeColumnOf: Record<string, keyof LedgerRow> = {
  receivable: 'receivableTime', collection: 'receivableTime', payable: 'payableTime', payment: 'payableTime', invoicing: 'invoiceTime', recall: 'recallTime',
};

function cellValue(field: LedgerField, source: FieldSource | undefined, row: Record<string, unknown>, people: Map<string, string>): unknown {
  if (!source) return (row.formValues as Record<string, unknown>)[field.id] ?? null;
  const value = row[field.id];
  if (value === null || value === undefined) return field.type === 'people' ? [] : null;
  if (field.type === 'money') return { amount: Number(value), unit: String(row[`${field.id}:unit`] ?? '') };
  if (field.type === 'people') return [{ id: value, name: people.get(String(value)) ?? '' }];
  if (value instanceof Date) return value.toISOString();
  return value;
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

/**
 * A search word matches the record's name or its contract's name or number. Written as one IN
 * over a union, not an OR across the join, so each part can use its own (trigram) index.
 */
function matchesWord(word: string): SQL {
  const pattern = containsPattern(word);
  const byName = sql`select ${t.id} from ${t} where ${ilike(t.name, pattern)}`;
  const byContract = sql`select ${t.id} from ${t} where ${t.contractId} in (select ${c.id} from ${c} where ${or(ilike(c.name, pattern), ilike(c.contractNumber, pattern))})`;
  return sql`${t.id} in (${byName} union ${byContract})`;
}

/** The count with filters; without conditions on the contract (an admin's task filters) it needs no join. */
async function countMatching(db: ServerDb, taskWhere: SQL | undefined, contractWhere: SQL | undefined): Promise<number> {
  const [row] = contractWhere
    ? await db.select({ count: count() }).from(t).innerJoin(c, eq(c.id, t.contractId)).where(and(taskWhere, contractWhere))
    : await db.select({ count: count() }).from(t).where(and(isNotNull(t.contractId), taskWhere));
  return row?.count ?? 0;
}

export async function searchLedger(db: ServerDb, viewer: SessionUser, search: LedgerSearch): Promise<{ list: LedgerRow[]; count: number }> {
  const definitions = await loadFields(db);
  const fields = new Map(definitions.map((field) => [field.id, field]));
  const scene = search.standingBookID ? await findScene(db, viewer, search.standingBookID) : undefined;
  const titleIds = search.titleIDs ?? scene?.titleIds ?? definitions.filter((f) => f.isDefaultTitle).map((f) => f.id);
  const unknownTitle = titleIds.find((id) => !fields.has(id));
  if (unknownTitle !== undefined) throw badFilter('titleIDs', `unknown ledger field: ${unknownTitle}`);
  const titles = [nameFieldId, ...titleIds.filter((id) => id !== nameFieldId)].map((id) => fields.get(id)!);
  const performanceId = search.performanceId !== undefined ? search.performanceId : (scene?.performanceId ?? null);
  const filters = [...((scene?.filters ?? []) as FilterCondition[]), ...search.filterList];
  const conditions = filters.map((filter, i) => ({ contractSide: fields.get(filter.id)?.category === 'contract', condition: filterCondition(filter, i, fields) }));
  const taskWhere = and(
    performanceId ? eq(t.performanceId, performanceId) : undefined,
    search.q ? matchesWord(search.q) : undefined,
    ...conditions.filter((c) => !c.contractSide).map((c) => c.condition),
  );
  const contractWhere = and(visibleTo(viewer), ...conditions.filter((c) => c.contractSide).map((c) => c.condition));
  const where = and(taskWhere, contractWhere);
  const unfiltered = !search.q && filters.length === 0;
  const [rows, total] = await Promise.all([
    db
      .select(selection)
      .from(t)
      .innerJoin(c, eq(c.id, t.contractId))
      .where(where)
      .orderBy(...sortOrder(search))
      .limit(search.pageSize)
      .offset((search.pageNum - 1) * search.pageSize),
    unfiltered ? countLedgerRecords(db, viewer, performanceId) : countMatching(db, taskWhere, contractWhere),
  ]);

  const peopleIds = new Set<string>();
  for (const row of rows as Record<string, unknown>[]) {
    for (const field of titles) if (field.type === 'people' && typeof row[field.id] === 'string') peopleIds.add(row[field.id] as string);
  }
  const people = new Map(
    peopleIds.size > 0
      ? (await db.select({ id: users.id, name: users.displayName }).from(users).where(inArray(users.id, [...peopleIds]))).map((u) => [u.id, u.name])
      : [],
  );
  const fieldSnapShot = Object.fromEntries(titles.map((field) => [field.id, field]));
  const list = (rows as Record<string, unknown>[]).map((row): LedgerRow => {
    const type = String(row.taskTypeValue);
    const due = (row.expirationTime as string | null) ?? null;
    const times = { receivableTime: null, payableTime: null, invoiceTime: null, recallTime: null } as Record<string, string | null>;
    const timeColumn = timeColumnOf[type];
    if (timeColumn) times[timeColumn] = due;
    return {
      id: String(row.taskId),
      data: Object.fromEntries(titles.map((field) => [field.id, cellValue(field, catalogueSource(field.id), row, people)])),
      fieldSnapShot,
      contractID: String(row.contractIdValue),
      contractName: String(row.contractNameValue),
      performanceId: (row.performanceIdValue as string | null) ?? null,
      templateName: (row.templateNameValue as string | null) ?? null,
      contractTypeName: (row.contractTypeNameValue as string | null) ?? null,
      status: (row.contractStatusValue as LedgerRow['status']) ?? null,
      type,
      taskState: Number(row.taskStateValue),
      receivableTime: times.receivableTime ?? null,
      payableTime: times.payableTime ?? null,
      invoiceTime: times.invoiceTime ?? null,
      expirationTime: due,
      recallTime: times.recallTime ?? null,
      performanceTime: due,
      updateTime: iso(row.updateTimeValue),
      createTime: iso(row.createTimeValue),
    };
  });
  return { list, count: total };
}
