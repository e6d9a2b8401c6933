import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope, type MutationResult } from '../../src-shared/api/sync';
import { contracts, users } from '../../src-server/db/schema';
import { toPerformance } from '../../src-server/performance/definition';
import { performancePlans, performances, performanceTasks } from '../../src-server/performance/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, okData, signIn } from './support';

// A plan save made offline declares the sheet rows it changes and their cells (issue 12): it is
// based on each changed row's version, so two people's edits of different rows of one sheet, or
// of different cells of one row, merge; the same cell changed by both is a conflict on that cell
// and writes nothing; a row deleted on the server meanwhile is refused by its name.

const alice = demoUsers.find((u) => u.username === 'alice')!;

describeOnDatabases('sync push: a plan save per sheet row and cell', (fixture) => {
  let app: FastifyInstance;
  let token: string;
  let seq = 1;
  const clientId = uuidv7();

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 120, seed: 9 });
    app = fixture.server();
    token = (await signIn(app, alice.username, alice.password)).token;
  });

  const push = async (name: string, args: unknown, baseVersions: Record<string, number>): Promise<MutationResult> => {
    const mutation: MutationEnvelope = { id: uuidv7(), seq: seq++, name, args, baseVersions };
    const answer = okData('syncPush', await callEndpoint(app, 'syncPush', { token, body: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations: [mutation] } }));
    return answer.results[0]!;
  };

  /** A fresh plan of two rows on one of alice's contracts (each test its own pair of performance and contract), as REST makes it. */
  async function sheet(nth: number) {
    const [user] = await fixture.db.select().from(users).where(eq(users.username, 'alice'));
    // Contracts that may have a plan added (approved or archived: the shared rule).
    const own = (await fixture.db.select().from(contracts)).filter((c) => (c.responsibleUserId === user!.id || c.departmentId === user!.departmentId) && (c.status === 4 || c.status === 5));
    const list = await fixture.db.select().from(performances).where(sql`${performances.id} ~ '^[0-9a-f-]{36}$'`);
    const performance = list[nth % list.length]!;
    // The rows fill the performance's required columns: its date and, if it has one, its amount.
    const money = toPerformance(performance).columns.find((column) => column.type === 'money')?.id;
    const amount = money ? { [money]: { amount: 10_000, unit: 'CNY' } } : {};
    const made = await app.inject({
      method: 'PUT', url: `/api/v1/performances/${performance.id}/plan`, headers: { authorization: `Bearer ${token}` },
      payload: {
        contractID: own[Math.floor(nth / list.length)]!.id, conditionType: 0,
        rows: [{ name: 'Row A', expirationTime: '2027-03-01', ...amount, values: { site: 'Yard', note: 'first' } }, { name: 'Row B', expirationTime: '2027-04-30', ...amount }],
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    const planId = (made.json() as { data: { id: string } }).data.id;
    const [plan] = await fixture.db.select().from(performancePlans).where(eq(performancePlans.id, planId));
    // The pair may have had a plan already: its finished rows stay, so the two rows are found by name.
    const rows = await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.planId, planId)).orderBy(asc(performanceTasks.rowIndex));
    const a = rows.find((row) => row.name === 'Row A');
    const b = rows.find((row) => row.name === 'Row B');
    /** The versions a device saw when it read the sheet: the plan's and each row's. */
    const seen = { [`performancePlan:${planId}`]: plan!.version, [`performanceTask:${a!.id}`]: a!.version, [`performanceTask:${b!.id}`]: b!.version };
    /** A save as the sheet editor makes it: based on the condition it showed (none), unless another is given. */
    const save = (rows: unknown[], base: Record<string, number>, condition: object = { conditionType: 0 }, removes?: string[]) =>
      push('performance.savePlan', { performanceId: plan!.performanceId, planId, plan: { contractID: plan!.contractId, ...condition, rows }, baseCondition: { conditionType: 0, schedule: null }, removes }, base);
    const task = async (id: string) => (await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.id, id)))[0];
    /** The names of the sheet's rows these tests write (a finished row seeded before stays beside them). */
    const sheetRows = async () => (await fixture.db.select().from(performanceTasks).where(eq(performanceTasks.planId, planId))).map((row) => row.name).filter((name) => name.startsWith('Row ')).sort();
    const stored = async () => (await fixture.db.select().from(performancePlans).where(eq(performancePlans.id, planId)))[0]!;
    /** A new row of the sheet, its required cells filled. */
    const newRow = (name: string) => ({ name, expirationTime: '2027-06-30', ...amount });
    return { a: a!, b: b!, seen, save, newRow, direction: money === 'payableAmount' ? 'payable' : 'receivable', task, sheetRows, stored, planKey: `performancePlan:${planId}` };
  }

  it('merges edits of different rows of one sheet made from the same base', async () => {
    const { a, b, seen, save, task } = await sheet(0);
    expect(await save([{ id: a.id, name: 'Row A, theirs' }, { id: b.id }], seen)).toMatchObject({ status: 'applied' });
    expect(await save([{ id: a.id }, { id: b.id, expirationTime: '2027-05-31' }], seen)).toMatchObject({ status: 'applied' });
    expect(await task(a.id)).toMatchObject({ name: 'Row A, theirs', expirationTime: '2027-03-01' });
    expect(await task(b.id)).toMatchObject({ name: 'Row B', expirationTime: '2027-05-31' });
  });

  it('merges different cells of one row, columns included, and conflicts on the cell both changed', async () => {
    const { a, b, seen, save, task } = await sheet(1);
    const first = await save([{ id: a.id, values: { site: 'North yard' } }, { id: b.id }], seen);
    expect(first, JSON.stringify(first)).toMatchObject({ status: 'applied' });
    const after = await task(a.id);
    // Same cell: a conflict on that column only, and nothing of the save is written.
    const conflict = await save([{ id: a.id, name: 'Row A, mine', values: { site: 'South yard' } }, { id: b.id }], seen);
    expect(conflict).toMatchObject({ status: 'conflict', fields: ['value:site'], error: { code: 'conflict', issues: [{ path: 'value:site' }] } });
    expect(await task(a.id)).toMatchObject({ name: 'Row A', values: { site: 'North yard', note: 'first' }, version: after!.version });
    // Other cells of that row, from the same base: merged, the other column kept.
    expect(await save([{ id: a.id, name: 'Row A, mine', values: { note: 'second' } }, { id: b.id }], seen)).toMatchObject({ status: 'applied' });
    expect(await task(a.id)).toMatchObject({ name: 'Row A, mine', values: { site: 'North yard', note: 'second' } });
  });

  it('refuses an edit of a row deleted on the server meanwhile, naming the row', async () => {
    const { a, b, seen, save, task } = await sheet(2);
    // Another device removed row B from the sheet.
    expect(await save([{ id: a.id }], seen)).toMatchObject({ status: 'applied' });
    expect(await task(b.id)).toBeUndefined();
    const refused = await save([{ id: a.id }, { id: b.id, name: 'Row B, mine' }], seen);
    expect(refused).toMatchObject({ status: 'rejected', error: { code: 'not_found', message: `performanceTask:${b.id} does not exist` } });
    expect(await task(a.id)).toMatchObject({ name: 'Row A' });
  });

  it('applies a save that removes a row already removed elsewhere meanwhile: the rest of its edit is kept', async () => {
    const { a, b, seen, save, task, sheetRows } = await sheet(8);
    // Another device removed row B from the sheet.
    expect(await save([{ id: a.id }], seen)).toMatchObject({ status: 'applied' });
    // This device, from the older base, removed row B too and renamed row A: nothing of it is lost.
    const mine = await save([{ id: a.id, name: 'Row A, mine' }], seen, undefined, [b.id]);
    expect(mine).toMatchObject({ status: 'applied' });
    expect(mine.status === 'applied' && Object.keys(mine.versions)).not.toContain(`performanceTask:${b.id}`);
    expect(await task(b.id)).toBeUndefined();
    expect(await sheetRows()).toEqual(['Row A, mine']);
  });

  it('still refuses a changed row whose base version is missing', async () => {
    const { a, b, seen, save } = await sheet(3);
    const { [`performanceTask:${a.id}`]: _dropped, ...withoutRow } = seen;
    expect(await save([{ id: a.id, name: 'No base' }, { id: b.id }], withoutRow)).toMatchObject({ status: 'rejected', error: { code: 'validation_failed' } });
  });

  it('keeps a row another device added after the base of a save that leaves it out', async () => {
    const { a, b, seen, save, newRow, sheetRows } = await sheet(4);
    // Another device adds row C; this one, from the older base, edits row A and lists the rows it saw.
    expect(await save([{ id: a.id }, { id: b.id }, newRow('Row C')], seen)).toMatchObject({ status: 'applied' });
    expect(await save([{ id: a.id, name: 'Row A, mine' }, { id: b.id }], seen)).toMatchObject({ status: 'applied' });
    expect(await sheetRows()).toEqual(['Row A, mine', 'Row B', 'Row C']);
  });

  it('removes a row that a save left out when its base held it, a row added by the same device included', async () => {
    const { a, b, seen, save, newRow, sheetRows, planKey } = await sheet(5);
    const added = await save([{ id: a.id }, { id: b.id }, newRow('Row N')], seen);
    expect(added).toMatchObject({ status: 'applied' });
    // The next save is re-based on the first one's result: it saw row N, so leaving it out removes it, as row B.
    const rebased = { ...seen, [planKey]: (added as { versions: Record<string, number> }).versions[planKey]! };
    expect(await save([{ id: a.id }], rebased)).toMatchObject({ status: 'applied' });
    expect(await sheetRows()).toEqual(['Row A']);
  });

  it('merges a row edit with a condition changed elsewhere, and conflicts when both change the condition', async () => {
    const { a, b, seen, save, direction, task, stored } = await sheet(6);
    // Device B makes the plan single-or-multiple; device A, from the same base, edits a row only.
    expect(await save([{ id: a.id }, { id: b.id }], seen, { conditionType: 1 })).toMatchObject({ status: 'applied' });
    expect(await save([{ id: a.id, name: 'Row A, mine' }, { id: b.id }], seen)).toMatchObject({ status: 'applied' });
    expect(await stored()).toMatchObject({ conditionType: 1 });
    expect(await task(a.id)).toMatchObject({ name: 'Row A, mine' });
    // A third device makes it periodic from that same base: a conflict on the schedule, nothing written.
    const schedule = { cycle: 'month', startDate: '2027-01-01', endDate: '2027-03-31', amount: { amount: 30000, unit: 'CNY' }, direction, name: 'Rent' };
    const both = await save([], seen, { conditionType: 2, schedule });
    expect(both).toMatchObject({ status: 'conflict', fields: ['schedule'] });
    expect(await stored()).toMatchObject({ conditionType: 1, schedule: null });
    expect(await task(b.id)).toMatchObject({ name: 'Row B' });
  });

  it('conflicts when a save removes a row changed elsewhere since its base, and removes one only listed elsewhere', async () => {
    const { a, b, seen, save, task, sheetRows } = await sheet(7);
    // Another device renames row B (and lists row A unchanged, which moves A's version only).
    expect(await save([{ id: a.id }, { id: b.id, name: 'Row B, theirs' }], seen)).toMatchObject({ status: 'applied' });
    // This device, from the older base, removed row B: their rename would be lost, so it is a conflict, and nothing is written.
    const removed = await save([{ id: a.id, name: 'Row A, mine' }], seen, undefined, [b.id]);
    expect(removed).toMatchObject({ status: 'conflict', fields: ['name'] });
    expect(await sheetRows()).toEqual(['Row A', 'Row B, theirs']);
    // Removing row A instead, which nobody changed, merges.
    expect(await save([{ id: b.id }], seen, undefined, [a.id])).toMatchObject({ status: 'applied' });
    expect(await task(a.id)).toBeUndefined();
  });
});
