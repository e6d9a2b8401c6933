import { z } from 'zod';
import { cursorSchema, type SyncChange, type SyncPullResponse } from '../api/sync';

// The lean feed (architecture, sync rule 10): a pull page as tables of rows instead of objects,
// so no key is sent once per row, and no value is sent twice in a page. A string that occurs more
// than once among the page's cells (a contract's id and its tasks' contractId, a department
// name, a task type) is sent once in `values` and named by its index; a column of a contract
// that holds what one of its form values holds (its name, number, signing date, amount,
// counterparty …) is sent as a mark and derived from the form value on the client. The codec
// knows no entity except for those derivations, so a new entity's changes pack as they are.

/** A cell whose value the client takes from the row's form values. Never a valid value of a derived column. */
const derivedMark = -1;

type Path = readonly (string | number)[];

/** Columns of an entity that repeat one of its form values: where in the form values each is. */
const derivedColumns: Partial<Record<SyncChange['entity'], Record<string, Path>>> = {
  contract: {
    name: ['contractName'],
    contractNumber: ['contractNumber'],
    signDate: ['signDate'],
    amount: ['amount'],
    contractTypeId: ['contractType'],
    counterpartName: ['counterparty', 0, 'name'],
    departmentId: ['department', 0, 'id'],
    departmentName: ['department', 0, 'name'],
    responsibleUserId: ['responsiblePerson', 0, 'id'],
    responsibleUserName: ['responsiblePerson', 0, 'name'],
  },
};

export const packedPullResponseSchema = z.object({
  /** Each string of the page that occurs more than once, once. */
  values: z.array(z.string()),
  /** What a row of each table is: its entity, its operation, its columns and which of them hold indexes into `values`. */
  tables: z.array(z.object({ entity: z.string(), op: z.enum(['upsert', 'delete']), columns: z.array(z.string()), shared: z.array(z.string()) })),
  /** The changes in feed order: [table index, ...cells]. */
  rows: z.array(z.array(z.unknown()).min(1)),
  cursor: cursorSchema,
  hasMore: z.boolean(),
  remaining: z.number().int().nonnegative(),
});
export type PackedPullResponse = z.infer<typeof packedPullResponseSchema>;

function at(value: unknown, path: Path): unknown {
  let found = value;
  for (const step of path) {
    if (typeof found !== 'object' || found === null) return undefined;
    found = (found as Record<string | number, unknown>)[step];
  }
  return found;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

const isMark = (entity: string, column: string, cell: unknown) => cell === derivedMark && derivedColumns[entity as SyncChange['entity']]?.[column] !== undefined;

/** A change as a table's name and its cells, derived columns marked. */
function flatten(change: SyncChange): { entity: string; op: 'upsert' | 'delete'; columns: string[]; cells: unknown[] } {
  if (change.op === 'delete') return { entity: change.entity, op: 'delete', columns: ['id'], cells: [change.id] };
  const row = change.row as Record<string, unknown>;
  const derived = derivedColumns[change.entity] ?? {};
  const columns = Object.keys(row);
  const cells = columns.map((column) => {
    const path = derived[column];
    const value = row[column];
    return path && value !== undefined && sameValue(value, at(row.formValues, path)) ? derivedMark : value;
  });
  return { entity: change.entity, op: 'upsert', columns, cells };
}

/** A table of the page being packed: which of its columns hold numbers of their own, and which hold shared strings. */
interface PackingTable {
  index: number;
  columns: string[];
  numeric: boolean[];
  shared: boolean[];
}

const sameColumns = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((column, i) => column === b[i]);

export function packPullResponse(page: SyncPullResponse): PackedPullResponse {
  const flat = page.changes.map(flatten);
  const occurrences = new Map<string, number>();
  for (const { cells } of flat) for (const cell of cells) if (typeof cell === 'string') occurrences.set(cell, (occurrences.get(cell) ?? 0) + 1);
  const tables: PackedPullResponse['tables'] = [];
  // A page holds a few kinds of row: each row finds its table by entity and operation, then by
  // its columns, without a key string made per row or per cell (the feed packs 250,000 rows).
  const byKind = new Map<string, PackingTable[]>();
  const tableOf = flat.map(({ entity, op, columns, cells }) => {
    const kind = byKind.get(`${entity}|${op}`) ?? byKind.set(`${entity}|${op}`, []).get(`${entity}|${op}`)!;
    let table = kind.find((candidate) => sameColumns(candidate.columns, columns));
    if (!table) {
      table = { index: tables.push({ entity, op, columns, shared: [] }) - 1, columns, numeric: columns.map(() => false), shared: columns.map(() => false) };
      kind.push(table);
    }
    // A column may hold indexes only where it holds no numbers of its own (a derived mark is not one).
    for (let i = 0; i < cells.length; i += 1) if (typeof cells[i] === 'number' && !isMark(entity, columns[i]!, cells[i])) table.numeric[i] = true;
    return table;
  });
  const values: string[] = [];
  const valueIndex = new Map<string, number>();
  const rows = flat.map(({ cells }, row) => {
    const table = tableOf[row]!;
    const packed: unknown[] = [table.index];
    for (let i = 0; i < cells.length; i += 1) {
      const cell = cells[i];
      if (typeof cell !== 'string' || (occurrences.get(cell) ?? 0) < 2 || table.numeric[i]) {
        packed.push(cell);
        continue;
      }
      if (!table.shared[i]) {
        table.shared[i] = true;
        tables[table.index]!.shared.push(table.columns[i]!);
      }
      let found = valueIndex.get(cell);
      if (found === undefined) valueIndex.set(cell, (found = values.push(cell) - 1));
      packed.push(found);
    }
    return packed;
  });
  return { values, tables, rows, cursor: page.cursor, hasMore: page.hasMore, remaining: page.remaining };
}

/** The page as the feed's changes; shapes are checked by the caller (syncPullResponseSchema). */
export function unpackPullResponse(packed: PackedPullResponse): { changes: unknown[]; cursor: string; hasMore: boolean; remaining: number } {
  const changes = packed.rows.map((row) => {
    const [index, ...cells] = row;
    const table = typeof index === 'number' ? packed.tables[index] : undefined;
    if (!table) throw new Error(`a packed row names no table (${String(index)})`);
    const shared = new Set(table.shared);
    const fields: Record<string, unknown> = {};
    const marked: string[] = [];
    table.columns.forEach((column, i) => {
      const cell = cells[i];
      if (isMark(table.entity, column, cell)) marked.push(column);
      else fields[column] = shared.has(column) && typeof cell === 'number' ? packed.values[cell] : cell;
    });
    if (table.op === 'delete') return { entity: table.entity, op: 'delete', id: fields.id };
    const derived = derivedColumns[table.entity as SyncChange['entity']] ?? {};
    for (const column of marked) fields[column] = at(fields.formValues, derived[column]!);
    return { entity: table.entity, op: 'upsert', row: fields };
  });
  return { changes, cursor: packed.cursor, hasMore: packed.hasMore, remaining: packed.remaining };
}
