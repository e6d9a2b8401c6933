import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { ReplicaConnection } from './replica';
import type { ReplicaTx } from './replica-features';

/**
 * One prepared "insert, or on a primary-key conflict take every pulled column" for `table`, run
 * per row. Pulls write hundreds of thousands of rows: building each insert through the query
 * builder cost more than SQLite's own work. Values go through each column's own driver mapping
 * (JSON and boolean modes), as the query builder would send them.
 */
export function preparedUpsert<T extends SQLiteTable>(sqlite: ReplicaConnection, table: T): (row: T['$inferInsert']) => void {
  const columns = Object.entries(getTableColumns(table));
  const quoted = (name: string) => `"${name}"`;
  const names = columns.map(([, column]) => quoted(column.name));
  const keys = columns.filter(([, column]) => column.primary).map(([, column]) => quoted(column.name));
  if (keys.length === 0) throw new Error(`${getTableName(table)} has no primary key to upsert on`);
  const statement = sqlite.prepare(
    `insert into ${quoted(getTableName(table))} (${names.join(', ')}) values (${names.map(() => '?').join(', ')})
     on conflict (${keys.join(', ')}) do update set ${names
       .filter((name) => !keys.includes(name))
       .map((name) => `${name} = excluded.${name}`)
       .join(', ')}`,
  );
  return (row) => {
    const values = row as Record<string, unknown>;
    statement.run(
      columns.map(([key, column]) => {
        const value = values[key] === undefined ? column.default : values[key];
        return value === null || value === undefined ? null : column.mapToDriverValue(value);
      }),
    );
  };
}

/**
 * One prepared insert of every column of `table`, for a transaction's hot path (an optimistic row
 * per task of a plan added offline): a column a row leaves out takes its declared default.
 */
export function preparedInsert<T extends SQLiteTable>(db: ReplicaTx, table: T): (row: T['$inferInsert']) => void {
  const columns = Object.entries(getTableColumns(table));
  const statement = db
    .insert(table)
    .values(Object.fromEntries(columns.map(([key]) => [key, sql.placeholder(key)])) as T['$inferInsert'])
    .prepare();
  return (row) => {
    const values = row as Record<string, unknown>;
    statement.run(Object.fromEntries(columns.map(([key, column]) => [key, values[key] === undefined ? (column.default ?? null) : values[key]])));
  };
}
