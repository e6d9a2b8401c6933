import { sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { beforeAll, expect, it } from 'vitest';
import { insertNewRows, insertRows } from '../../src-server/db/json-rows';
import { describeOnDatabases } from './support';

// Rows inserted as one JSON parameter (src-server/db/json-rows.ts) must be stored exactly as
// drizzle's own insert stores them, defaults included, for every column type the server uses.

const columns = (name: string) =>
  pgTable(name, {
    id: text('id').primaryKey(),
    count: integer('count').notNull().default(7),
    amount: bigint('amount', { mode: 'number' }),
    due: date('due', { mode: 'string' }),
    at: timestamp('at', { withTimezone: true }),
    made: timestamp('made', { withTimezone: true }).notNull().defaultNow(),
    cells: jsonb('cells').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    tags: text('tags').array(),
    done: boolean('done'),
    note: text('note'),
  });
const viaJson = columns('json_rows_probe');
const viaDrizzle = columns('json_rows_twin');

const rows = [
  { id: 'a', count: 3, amount: 1_234_567_890_123, due: '2027-01-31', at: new Date('2026-11-28T10:00:00.123Z'), cells: { x: 1, y: ['q', null], z: { deep: 'é"\\' } }, tags: ['one', 'two'], done: true, note: 'line\nbreak' },
  { id: 'b', note: null },
  { id: 'c', cells: {}, tags: [], done: false },
];

describeOnDatabases('rows inserted as one JSON parameter', (fixture) => {
  beforeAll(async () => {
    for (const table of ['json_rows_probe', 'json_rows_twin']) {
      await fixture.db.execute(
        sql.raw(`create table ${table} (id text primary key, count integer not null default 7, amount bigint, due date, at timestamptz, made timestamptz not null default now(),
          cells jsonb not null default '{}'::jsonb, tags text[], done boolean, note text)`),
      );
    }
  });

  it('stores every column type as drizzle does, a column a row leaves out taking its default', async () => {
    await insertRows(fixture.db, viaJson, rows);
    await fixture.db.insert(viaDrizzle).values(rows);
    const read = async (table: typeof viaJson) => (await fixture.db.select().from(table).orderBy(table.id)).map(({ made, ...row }) => ({ ...row, made: made instanceof Date }));
    expect(await read(viaJson)).toEqual(await read(viaDrizzle));
    expect((await read(viaJson))[1]).toMatchObject({ id: 'b', count: 7, cells: {}, note: null, made: true });
  });

  it('skips a taken id and answers the ids it inserted; a plain insert of a taken id fails and writes nothing', async () => {
    const inserted = await insertNewRows(fixture.db, viaJson, [{ id: 'a', note: 'again' }, { id: 'd', note: 'new' }]);
    expect([...inserted]).toEqual(['d']);
    const [a] = await fixture.db.select().from(viaJson).where(sql`id = 'a'`);
    expect(a?.note).toBe('line\nbreak');
    await expect(fixture.db.transaction((tx) => insertRows(tx, viaJson, [{ id: 'e' }, { id: 'a' }]))).rejects.toThrow();
    expect(await fixture.db.select().from(viaJson).where(sql`id = 'e'`)).toEqual([]);
  });
});
