import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FilterCondition, LedgerRow, LedgerSearch } from '../../src-shared/domain/ledger';
import { catalogueField } from '../../src-shared/domain/ledger-fields';
import { ledgerRowReader, planSearch, type FilterPlan, type SearchPlan, type SelectedRow } from '../../src-shared/rules/ledger-search';
import type { SessionUser } from '../auth/service';
import { visibleTo } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import { contracts, users } from '../db/schema';
import { performanceTasks } from '../performance/schema';
import { effectiveStateSql } from '../performance/tasks';
import { catalogueSource, fieldCatalogue, formValueText, loadFields } from './fields';
import { findScene } from './scenes';
import { countLedgerRecords } from './totals';

// The ledger search (spec 7, POST performances/search): performance records (performance tasks
// with a contract) whose contract the viewer may see, filtered by field definitions, sorted and
// paged. Indexes for it: the ledger's custom migration.

const t = performanceTasks;
const c = contracts;

function searchWord(column: SQL, word: string | undefined): SQL | undefined {
  return word ? ilike(column, containsPattern(word)) : undefined;
}

function columnOf(field: string): PgColumn {
  const source = catalogueSource(field);
  if (!source) throw new Error(`the ledger catalogue has no ${field}`);
  return source.column;
}

/** One planned filter (src-shared/rules/ledger-search.ts) as PostgreSQL, task states as they stand on `today`. */
function filterSql(plan: FilterPlan, today: string): SQL | undefined {
  switch (plan.op) {
    case 'form': {
      const text = formValueText(plan.field);
      return or(searchWord(text, plan.word), plan.values ? inArray(text, plan.values) : undefined);
    }
    case 'text': {
      const column = sql`${columnOf(plan.field)}`;
      return and(searchWord(column, plan.word), plan.values ? inArray(column, plan.values) : undefined);
    }
    case 'set':
      return inArray(columnOf(plan.field), plan.values);
    case 'state': {
      const [state, due] = [columnOf(plan.field), t.expirationTime];
      return or(
        plan.always.length > 0 ? inArray(state, plan.always) : undefined,
        plan.beforeDue.length > 0 ? and(inArray(state, plan.beforeDue), or(isNull(due), gte(due, today))) : undefined,
        plan.afterDue.length > 0 ? and(inArray(state, plan.afterDue), lt(due, today)) : undefined,
      );
    }
    case 'range': {
      const column = columnOf(plan.field);
      const { from, to } = plan;
      if (plan.kind === 'timestamp') {
        // Days on an instant: from the start of the lower day to the end of the upper one.
        return and(from !== undefined ? gte(column, sql`${from}::date`) : undefined, to !== undefined ? lt(column, sql`(${to}::date + 1)`) : undefined);
      }
      return and(from !== undefined ? gte(column, from) : undefined, to !== undefined ? lte(column, to) : undefined);
    }
  }
}

/**
 * The search's order. Money sorts within each currency: the currencies by their code, the amounts
 * of one currency in the asked direction, never compared across currencies; rows without an
 * amount last, by id alone (the replica orders alike, src-main/core/ledger/scene-search.ts).
 */
function sortOrder(plan: SearchPlan): SQL[] {
  if (!plan.sort) return [desc(t.updateTime), desc(t.id)];
  const direction = plan.sort.ascending ? asc : desc;
  // The task state sorts as it is shown: its effective state.
  const column = catalogueField(plan.sort.field)?.kind === 'task-state' ? effectiveStateSql(plan.today) : columnOf(plan.sort.field);
  const unit = catalogueSource(plan.sort.field)?.unit;
  if (unit) return [sql`${column} is null`, sql`case when ${column} is null then '' else ${unit} end`, direction(column), direction(t.id)];
  return [sql`${direction(column)} nulls last`, direction(t.id)];
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

export async function searchLedger(db: ServerDb, viewer: SessionUser, search: LedgerSearch, today: string): Promise<{ list: LedgerRow[]; count: number }> {
  const definitions = await loadFields(db);
  const scene = search.standingBookID ? await findScene(db, viewer, search.standingBookID) : undefined;
  const plan = planSearch(search, definitions, scene && { titleIDs: scene.titleIds, performanceId: scene.performanceId, filter: scene.filters as FilterCondition[], sortField: scene.sortField }, today);
  const { titles, performanceId } = plan;
  const taskWhere = and(
    performanceId ? eq(t.performanceId, performanceId) : undefined,
    plan.q ? matchesWord(plan.q) : undefined,
    ...plan.filters.filter((f) => !f.contractSide).map((f) => filterSql(f.plan, today)),
  );
  const contractWhere = and(visibleTo(viewer), ...plan.filters.filter((f) => f.contractSide).map((f) => filterSql(f.plan, today)));
  const where = and(taskWhere, contractWhere);
  const [rows, total] = await Promise.all([
    db
      .select(selection)
      .from(t)
      .innerJoin(c, eq(c.id, t.contractId))
      .where(where)
      .orderBy(...sortOrder(plan))
      .limit(plan.limit)
      .offset(plan.offset),
    plan.unfiltered ? countLedgerRecords(db, viewer, performanceId) : countMatching(db, taskWhere, contractWhere),
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
  const read = ledgerRowReader(titles, people, iso, today);
  const list = (rows as Record<string, unknown>[]).map((row) => read(row as SelectedRow));
  return { list, count: total };
}
