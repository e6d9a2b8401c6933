import { z } from 'zod';
import { cursorSchema, type SyncChange, type SyncPullResponse } from '../api/sync';
import { sameJson } from './exact-check';

// The lean feed (architecture, sync rule 10): a pull page as tables of columns instead of a list
// of objects, so no key is sent once per row, no value is sent twice in a page, and like values
// lie side by side, where the compression finds them (a column of dates, a column of amounts).
// - A string that occurs more than once among the page's cells (a contract's id and its tasks'
//   contractId, a department name, a task type), and an object that several rows hold (a plan's
//   sheet columns and completion form, read once per performance), is sent once in the page's
//   pool and named by its index.
// - A column of ids (UUIDs) is sent as the ids' first 48 bits (a UUIDv7's milliseconds) as
//   differences from the previous id's, and the other 80 bits as hex: ids made close together
//   differ by a few milliseconds, which the hex text of the whole id hides from the compression.
// - A column of a contract that holds what one of its form values holds (its name, number,
//   signing date, amount, counterparty …) is sent as a mark and derived from the form value.
// The codec knows no entity except for those derivations, so a new entity's changes pack as they are.
// Together these move about a fifth fewer bytes than rows of cells did (docs/performance.md).

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
    counterpartyId: ['counterparty', 0, 'id'],
    departmentId: ['department', 0, 'id'],
    departmentName: ['department', 0, 'name'],
    responsibleUserId: ['responsiblePerson', 0, 'id'],
    responsibleUserName: ['responsiblePerson', 0, 'name'],
  },
};

/** A lowercase UUID, the only spelling that survives the id column's round trip. */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A column of ids (or nulls): each id's first 48 bits as the difference from the previous id's, and its other 80 bits. */
const idColumnSchema = z.object({
  idTimes: z.array(z.number().int().nullable()),
  idRests: z.array(z.string().regex(/^[0-9a-f]{20}$/, 'an id column holds 20 hex digits a row').nullable()),
});
type IdColumn = z.infer<typeof idColumnSchema>;

/** A column's cells, as they are or as an id column. */
const columnSchema = z.union([z.array(z.unknown()), idColumnSchema]);
type Column = z.infer<typeof columnSchema>;

export const packedPullResponseSchema = z.object({
  /** The pool, in three parts indexed one after another: shared strings, shared ids (a column), shared objects. */
  values: z.array(z.string()),
  ids: columnSchema,
  objects: z.array(z.unknown()),
  /**
   * Each kind of row of the page: its entity, its operation, its columns, which of them hold
   * indexes into the pool (`shared`), and its cells, column by column.
   */
  tables: z.array(
    z.object({ entity: z.string(), op: z.enum(['upsert', 'delete']), columns: z.array(z.string()), shared: z.array(z.string()), cells: z.array(columnSchema) }),
  ),
  /** The feed's order: runs of [table index, how many rows], each run taking the next rows of its table. */
  order: z.array(z.number().int().nonnegative()),
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

const derivedOf = (entity: string): Record<string, Path> | undefined => derivedColumns[entity as SyncChange['entity']];

/** A change as a table's name and its cells, derived columns marked. */
function flatten(change: SyncChange): { entity: string; op: 'upsert' | 'delete'; columns: string[]; cells: unknown[] } {
  if (change.op === 'delete') return { entity: change.entity, op: 'delete', columns: ['id'], cells: [change.id] };
  const row = change.row as Record<string, unknown>;
  const derived = derivedOf(change.entity) ?? {};
  const columns = Object.keys(row);
  const cells = columns.map((column) => {
    const path = derived[column];
    const value = row[column];
    return path && value !== undefined && sameJson(value, at(row.formValues, path)) ? derivedMark : value;
  });
  return { entity: change.entity, op: 'upsert', columns, cells };
}

const isPoolable = (cell: unknown): cell is string | object => typeof cell === 'string' || (typeof cell === 'object' && cell !== null);

function idColumn(cells: readonly unknown[]): IdColumn | null {
  let ids = 0;
  for (const cell of cells) {
    if (cell === null) continue;
    if (typeof cell !== 'string' || !uuidPattern.test(cell)) return null;
    ids += 1;
  }
  if (ids === 0) return null;
  const idTimes: (number | null)[] = [];
  const idRests: (string | null)[] = [];
  let previous = 0;
  for (const cell of cells as (string | null)[]) {
    if (cell === null) {
      idTimes.push(null);
      idRests.push(null);
      continue;
    }
    const time = Number.parseInt(cell.slice(0, 8) + cell.slice(9, 13), 16);
    idTimes.push(time - previous);
    previous = time;
    idRests.push(cell.slice(14, 18) + cell.slice(19, 23) + cell.slice(24));
  }
  return { idTimes, idRests };
}

const encodeColumn = (cells: unknown[]): Column => idColumn(cells) ?? cells;

function decodeColumn(column: Column): unknown[] {
  if (Array.isArray(column)) return column;
  const { idTimes, idRests } = column;
  if (idTimes.length !== idRests.length) throw new Error('an id column of the page has times and rests of different lengths');
  const ids: (string | null)[] = new Array(idTimes.length);
  let time = 0;
  for (let i = 0; i < idTimes.length; i += 1) {
    const delta = idTimes[i];
    const rest = idRests[i];
    if (delta === null || rest === null || rest === undefined || delta === undefined) {
      if (delta !== rest) throw new Error('an id column of the page has a null on one side only');
      ids[i] = null;
      continue;
    }
    time += delta;
    if (time < 0 || time >= 2 ** 48) throw new Error('an id column of the page leaves the 48 bits of an id');
    const head = time.toString(16).padStart(12, '0');
    ids[i] = `${head.slice(0, 8)}-${head.slice(8)}-${rest.slice(0, 4)}-${rest.slice(4, 8)}-${rest.slice(8)}`;
  }
  return ids;
}

/** A table of the page being packed. */
interface PackingTable {
  index: number;
  entity: string;
  op: 'upsert' | 'delete';
  columns: string[];
  /** Cells column by column. */
  cells: unknown[][];
  /** Which columns hold numbers of their own (a derived mark is not one): they cannot hold indexes. */
  numeric: boolean[];
}

const sameColumns = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((column, i) => column === b[i]);

export function packPullResponse(page: SyncPullResponse): PackedPullResponse {
  // How often each string (by value) and each object (by reference: the server hands rows that
  // share one, such as a performance's form) occurs among the page's cells.
  const occurrences = new Map<unknown, number>();
  const tables: PackingTable[] = [];
  // A page holds a few kinds of row: each row finds its table by entity and operation, then by
  // its columns, without a key string made per row or per cell (the feed packs 250,000 rows).
  const byKind = new Map<string, PackingTable[]>();
  const order: number[] = [];
  for (const change of page.changes) {
    const { entity, op, columns, cells } = flatten(change);
    const kindKey = `${entity}|${op}`;
    const kind = byKind.get(kindKey) ?? byKind.set(kindKey, []).get(kindKey)!;
    let table = kind.find((candidate) => sameColumns(candidate.columns, columns));
    if (!table) {
      table = { index: tables.length, entity, op, columns, cells: columns.map(() => []), numeric: columns.map(() => false) };
      tables.push(table);
      kind.push(table);
    }
    const derived = derivedOf(entity);
    for (let i = 0; i < cells.length; i += 1) {
      const cell = cells[i];
      table.cells[i]!.push(cell);
      if (isPoolable(cell)) occurrences.set(cell, (occurrences.get(cell) ?? 0) + 1);
      else if (typeof cell === 'number' && !(cell === derivedMark && derived?.[columns[i]!] !== undefined)) table.numeric[i] = true;
    }
    if (order.length > 0 && order[order.length - 2] === table.index) order[order.length - 1]! += 1;
    else order.push(table.index, 1);
  }

  // A column holds indexes where it holds no numbers of its own and some cell of it occurs
  // twice; then every string of it goes to the pool (an id column of its own would cost as much),
  // and the objects that occur twice.
  const sharedColumns = tables.map((table) =>
    table.cells.map((cells, i) => !table.numeric[i] && cells.some((cell) => isPoolable(cell) && occurrences.get(cell)! > 1)),
  );
  const values: string[] = [];
  const ids: string[] = [];
  const objects: unknown[] = [];
  const pooled = new Map<unknown, { part: 0 | 1 | 2; at: number }>();
  const pool = (cell: string | object) => {
    let entry = pooled.get(cell);
    if (!entry) {
      if (typeof cell !== 'string') entry = { part: 2, at: objects.push(cell) - 1 };
      else if (uuidPattern.test(cell)) entry = { part: 1, at: ids.push(cell) - 1 };
      else entry = { part: 0, at: values.push(cell) - 1 };
      pooled.set(cell, entry);
    }
    return entry;
  };
  const pooledCell = (cell: unknown) => typeof cell === 'string' || (isPoolable(cell) && occurrences.get(cell)! > 1);
  tables.forEach((table, t) =>
    table.cells.forEach((cells, i) => {
      if (sharedColumns[t]![i]) for (const cell of cells) if (pooledCell(cell)) pool(cell as string | object);
    }),
  );
  const offsets = [0, values.length, values.length + ids.length] as const;
  const indexOf = (cell: unknown) => {
    const { part, at } = pooled.get(cell)!;
    return offsets[part] + at;
  };
  return {
    values,
    ids: encodeColumn(ids),
    objects,
    tables: tables.map((table, t) => ({
      entity: table.entity,
      op: table.op,
      columns: table.columns,
      shared: table.columns.filter((_, i) => sharedColumns[t]![i]),
      cells: table.cells.map((cells, i) => (sharedColumns[t]![i] ? cells.map((cell) => (pooledCell(cell) ? indexOf(cell) : cell)) : encodeColumn(cells))),
    })),
    order,
    cursor: page.cursor,
    hasMore: page.hasMore,
    remaining: page.remaining,
  };
}

/** The page as the feed's changes; shapes are checked by the caller (syncPullResponseSchema). */
export function unpackPullResponse(packed: PackedPullResponse): { changes: unknown[]; cursor: string; hasMore: boolean; remaining: number } {
  const pool: unknown[] = [...packed.values, ...decodeColumn(packed.ids), ...packed.objects];
  const tables = packed.tables.map((table) => {
    if (table.cells.length !== table.columns.length) throw new Error(`a packed table of ${table.entity} has ${table.cells.length} columns of cells for ${table.columns.length} columns`);
    const shared = new Set(table.shared);
    const derived = derivedOf(table.entity) ?? {};
    const columns = table.cells.map((column, i) => {
      const cells = decodeColumn(column);
      const name = table.columns[i]!;
      if (!shared.has(name)) return cells;
      return cells.map((cell) => {
        if (typeof cell !== 'number' || (cell === derivedMark && derived[name] !== undefined)) return cell;
        if (!Number.isInteger(cell) || cell < 0 || cell >= pool.length) throw new Error(`a packed cell of ${table.entity}.${name} names no value of the page (${cell})`);
        return pool[cell];
      });
    });
    // Per column, where its derived cells' values are in the form values (undefined: not derived).
    const paths = table.columns.map((name) => derived[name]);
    return { ...table, decoded: columns, paths, rows: Math.min(...columns.map((cells) => cells.length)), next: 0 };
  });
  const changes: unknown[] = [];
  for (let run = 0; run < packed.order.length; run += 2) {
    const table = tables[packed.order[run]!];
    const count = packed.order[run + 1];
    if (!table || count === undefined) throw new Error(`a run of the packed page names no table (${String(packed.order[run])})`);
    if (table.next + count > table.rows) throw new Error(`a packed table of ${table.entity} has fewer rows than the page's order names`);
    const { columns, decoded, paths } = table;
    for (let n = 0; n < count; n += 1, table.next += 1) {
      const row = table.next;
      const fields: Record<string, unknown> = {};
      let marked = false;
      for (let i = 0; i < columns.length; i += 1) {
        const cell = decoded[i]![row];
        if (cell === derivedMark && paths[i] !== undefined) marked = true;
        else fields[columns[i]!] = cell;
      }
      if (table.op === 'delete') {
        changes.push({ entity: table.entity, op: 'delete', id: fields.id });
        continue;
      }
      if (marked) {
        for (let i = 0; i < columns.length; i += 1) {
          const path = paths[i];
          if (path !== undefined && decoded[i]![row] === derivedMark) fields[columns[i]!] = at(fields.formValues, path);
        }
      }
      changes.push({ entity: table.entity, op: 'upsert', row: fields });
    }
  }
  for (const table of tables) {
    if (table.decoded.some((cells) => cells.length !== table.next)) throw new Error(`a packed table of ${table.entity} has more rows than the page's order names`);
  }
  return { changes, cursor: packed.cursor, hasMore: packed.hasMore, remaining: packed.remaining };
}
