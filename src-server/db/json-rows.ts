import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import { PgJsonb, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { ServerDb } from './database';

// Many rows inserted as one JSON parameter (jsonb_to_recordset) instead of a bound parameter per
// cell. Drizzle builds a 12-row insert of a task table's 20 columns in about a millisecond of CPU,
// which bounded the drain of many plans made offline; this statement is built in microseconds.
// Rows are grouped by the columns they set, so a column a row leaves out takes its default, as
// in drizzle's own insert.

type Row = Record<string, unknown>;

/** The statement's text around its one parameter, per table and set of columns. */
const statements = new Map<string, { head: string; tail: string; columns: [string, PgColumn][] }>();

/** What becomes of a row whose id is taken already: an error, or skipped (the ids inserted are answered). */
type Taken = 'fail' | 'skip';

function statementOf(table: PgTable, keys: readonly string[], taken: Taken) {
  const name = getTableName(table);
  const cacheKey = `${name}\u0000${taken}\u0000${keys.join('\u0000')}`;
  const cached = statements.get(cacheKey);
  if (cached) return cached;
  const all = getTableColumns(table) as Record<string, PgColumn>;
  const columns = keys.map((key): [string, PgColumn] => {
    const column = all[key];
    if (!column) throw new Error(`${name} has no column ${key}`);
    return [key, column];
  });
  const names = columns.map(([, column]) => `"${column.name}"`).join(', ');
  const types = columns.map(([, column]) => `"${column.name}" ${column.getSQLType()}`).join(', ');
  const statement = {
    head: `insert into "${name}" (${names}) select ${names} from jsonb_to_recordset(`,
    tail: `::jsonb) as r(${types})${taken === 'skip' ? ' on conflict ("id") do nothing returning "id"' : ''}`,
    columns,
  };
  statements.set(cacheKey, statement);
  return statement;
}

/** A cell as JSON holds it: a jsonb column's value as it is, any other as its driver value. */
function cell(column: PgColumn, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (column instanceof PgJsonb) return value;
  const driver = column.mapToDriverValue(value);
  return typeof driver === 'bigint' ? driver.toString() : driver;
}

/** Inserts `rows`; values must be plain (no SQL expressions): defaults come from the table. */
export async function insertRows<T extends PgTable>(tx: ServerDb, table: T, rows: readonly T['$inferInsert'][]): Promise<void> {
  await insertGroups(tx, table, rows, 'fail');
}

/** Inserts `rows` of a table keyed by `id`, skipping an id taken already; answers the ids it inserted. */
export async function insertNewRows<T extends PgTable>(tx: ServerDb, table: T, rows: readonly T['$inferInsert'][]): Promise<Set<string>> {
  return new Set((await insertGroups(tx, table, rows, 'skip')).map(({ id }) => id));
}

async function insertGroups(tx: ServerDb, table: PgTable, rows: readonly Row[], taken: Taken): Promise<{ id: string }[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const keys = Object.keys(row).filter((key) => row[key] !== undefined);
    const groupKey = keys.join('\u0000');
    const group = groups.get(groupKey);
    if (group) group.push(row);
    else groups.set(groupKey, [row]);
  }
  const inserted: { id: string }[] = [];
  for (const [groupKey, group] of groups) {
    const { head, tail, columns } = statementOf(table, groupKey.split('\u0000'), taken);
    const json = JSON.stringify(group.map((row) => Object.fromEntries(columns.map(([key, column]) => [column.name, cell(column, row[key])]))));
    const result = (await tx.execute(sql`${sql.raw(head)}${json}${sql.raw(tail)}`)) as unknown as { rows: { id: string }[] };
    inserted.push(...result.rows);
  }
  return inserted;
}
