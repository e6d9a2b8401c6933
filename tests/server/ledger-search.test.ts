import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { EndpointResponse } from '../../src-shared/api/endpoints';
import { taskTypes, TaskState } from '../../src-shared/domain/enums';
import { organisationDay } from '../../src-shared/rules/performance';
import { contractAgents, contracts, organisations, users } from '../../src-server/db/schema';
import { performances, performanceTasks } from '../../src-server/performance/schema';
import { ledgerTaskTotals } from '../../src-server/ledger/schema';
import { compactLedgerTaskTotals } from '../../src-server/ledger/totals';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, failure, okData, signIn } from './support';

type ContractRow = typeof contracts.$inferSelect;
type TaskRow = typeof performanceTasks.$inferSelect;
type UserRow = typeof users.$inferSelect;

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;

/** Task names that are SQL or LIKE metacharacters, to prove search words are plain text. */
const trickyNames = ['折扣 100% 收款', 'code a_b 付款', 'back\\slash 开票', "O'Brien'; drop table performance_tasks; --"];

/** Search words match case-insensitively (ILIKE). */
const contains = (text: string, word: string) => text.toLowerCase().includes(word.toLowerCase());

const performanceA = '01900000-0000-7000-8000-00000000000a';
const performanceB = '01900000-0000-7000-8000-00000000000b';

describeOnDatabases('ledger search', (fixture) => {
  let app: FastifyInstance;
  const tokens = new Map<string, string>();
  const people = new Map<string, UserRow>();
  let contractById: Map<string, ContractRow>;
  let tasks: TaskRow[];
  const agents: { contractId: string; userId: string }[] = [];

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 90, seed: 7 });
    // The suite compares with records it writes itself: drop the demo performance tasks.
    await fixture.db.delete(performanceTasks);
    for (const username of ['admin', 'alice', 'bob']) {
      const [user] = await fixture.db.select().from(users).where(eq(users.username, username));
      people.set(username, user!);
    }
    const alice = people.get('alice')!;
    const bob = people.get('bob')!;
    const [organisation] = await fixture.db.select().from(organisations);
    // Alice acts for one of Bob's department's contracts as an agent and handles another.
    const bobsDepartment = (await fixture.db.select().from(contracts).where(eq(contracts.departmentId, bob.departmentId!))).filter((c) => c.responsibleUserId !== alice.id);
    await fixture.db.update(contracts).set({ businessHandlerUserId: alice.id }).where(eq(contracts.id, bobsDepartment[0]!.id));
    agents.push({ contractId: bobsDepartment[1]!.id, userId: alice.id });
    // Bob is responsible for one of them whatever owners the seed drew, for the people filter.
    await fixture.db.update(contracts).set({ responsibleUserId: bob.id }).where(eq(contracts.id, bobsDepartment[2]!.id));
    await fixture.db.insert(contractAgents).values(agents);
    await fixture.db.insert(contracts).values({ id: 'alice-own-elsewhere', name: 'ACME 100% a_b contract', status: 4, responsibleUserId: alice.id, departmentId: bob.departmentId });

    await fixture.db.insert(performances).values([
      { id: performanceA, organisationId: organisation!.id, name: 'receipts', type: 'receivable' },
      { id: performanceB, organisationId: organisation!.id, name: 'payments', type: 'payable' },
    ]);
    const all = await fixture.db.select().from(contracts).orderBy(contracts.id);
    contractById = new Map(all.map((c) => [c.id, c]));
    const rows: (typeof performanceTasks.$inferInsert)[] = [];
    all.forEach((contract, i) => {
      for (let k = 0; k < 2; k++) {
        const n = i * 2 + k;
        const type = taskTypes[n % taskTypes.length]!;
        rows.push({
          id: `task-${String(n).padStart(4, '0')}`, organisationId: organisation!.id, contractId: contract.id,
          performanceId: n % 3 === 0 ? performanceB : performanceA, name: `第${k + 1}期 ${type} ${n}`, type,
          state: ((n % 5) + 1) as TaskState, rowIndex: k + 1,
          expirationTime: n % 11 === 0 ? null : `2026-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}`,
          receivableAmount: n % 4 === 0 ? null : n * 1000, amountUnit: 'CNY', leaderUserId: contract.responsibleUserId,
          updateTime: new Date(Date.UTC(2026, 9, 1) + (n % 17) * 3_600_000),
        });
      }
    });
    trickyNames.forEach((name, i) =>
      rows.push({ id: `tricky-${i}`, organisationId: organisation!.id, contractId: 'alice-own-elsewhere', performanceId: performanceA, name, type: 'receivable', receivableAmount: 5, amountUnit: 'CNY' }),
    );
    // A quick task has no contract: never a ledger record.
    rows.push({ id: 'quick-task', organisationId: organisation!.id, name: 'quick 100%', type: 'custom' });
    await fixture.db.insert(performanceTasks).values(rows);
    tasks = (await fixture.db.select().from(performanceTasks)).filter((t) => t.contractId !== null);
    app = fixture.server();
    for (const username of ['admin', 'alice', 'bob']) tokens.set(username, (await signIn(app, username, demo(username).password)).token);
  });

  /** The rule, written independently: admins all; staff responsible, handler, agent or department. */
  function visible(username: string): TaskRow[] {
    const user = people.get(username)!;
    if (user.role === 'admin') return tasks;
    return tasks.filter((t) => {
      const c = contractById.get(t.contractId!)!;
      return c.responsibleUserId === user.id || c.businessHandlerUserId === user.id || c.departmentId === user.departmentId ||
        agents.some((a) => a.contractId === c.id && a.userId === user.id);
    });
  }

  const search = (username: string, body: unknown) => callEndpoint(app, 'ledgerSearch', { token: tokens.get(username)!, body });
  type Page = EndpointResponse<'ledgerSearch'>;

  /** Every page of a search, in order. */
  async function searchAll(username: string, body: Record<string, unknown> = {}) {
    const rows: Page['list'] = [];
    for (let pageNum = 1; ; pageNum++) {
      const page = okData('ledgerSearch', await search(username, { ...body, pageNum, pageSize: 50 }));
      rows.push(...page.list);
      if (page.list.length < 50) return { rows, count: page.count };
    }
  }
  const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id).sort();
  /** A task's state as shown today (written here independently of the shared rule). */
  const stateNow = (t: TaskRow): number => ((t.state === 1 || t.state === 2) && t.expirationTime !== null && t.expirationTime < organisationDay(new Date()) ? 3 : t.state);

  it('answers the first page of 20, newest change first, with the row shape of the spec', async () => {
    const page = okData('ledgerSearch', await search('admin', {}));
    expect(page.count).toBe(tasks.length);
    expect(page.list).toHaveLength(20);
    const expected = [...tasks].sort((a, b) => b.updateTime.getTime() - a.updateTime.getTime() || (a.id < b.id ? 1 : -1)).slice(0, 20);
    expect(page.list.map((r) => r.id)).toEqual(expected.map((t) => t.id));
    const row = page.list.find((r) => r.data.receivableAmount !== null)!;
    const task = tasks.find((t) => t.id === row.id)!;
    expect(row.contractID).toBe(task.contractId);
    expect(row.data.name).toBe(task.name);
    expect(row.data.receivableAmount).toEqual({ amount: task.receivableAmount, unit: 'CNY' });
    expect(Object.keys(row.fieldSnapShot)).toEqual(Object.keys(row.data));
    expect(Object.keys(row.data)[0]).toBe('name');
    expect(row.expirationTime).toBe(task.expirationTime);
    expect(row.performanceTime).toBe(task.expirationTime);
    if (task.type === 'receivable') expect(row.receivableTime).toBe(task.expirationTime);
    expect(row.status).toBe(contractById.get(task.contractId!)!.status);
    const leader = row.data.taskLeader as { id: string; name: string }[];
    if (task.leaderUserId) expect(leader[0]!.id).toBe(task.leaderUserId);
  });

  it('pages through every record exactly once', async () => {
    const { rows, count } = await searchAll('admin');
    expect(count).toBe(tasks.length);
    expect(ids(rows)).toEqual(ids(tasks));
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(okData('ledgerSearch', await search('admin', { pageNum: 999 })).list).toEqual([]);
  });

  for (const username of ['alice', 'bob']) {
    it(`${username} finds exactly the records of contracts visible to them (agents and business handlers included)`, async () => {
      const expected = visible(username);
      expect(expected.length).toBeLessThan(tasks.length);
      const { rows, count } = await searchAll(username);
      expect(count).toBe(expected.length);
      expect(ids(rows)).toEqual(ids(expected));
    });
  }

  it('filters by each kind of field', async () => {
    const cases: [Record<string, unknown>, (t: TaskRow) => boolean][] = [
      [{ id: 'name', type: 'others', condition: { searchWord: 'payable' } }, (t) => contains(t.name, 'payable')],
      [{ id: 'taskType', type: 'select', condition: { in: ['invoicing', 'recall'] } }, (t) => ['invoicing', 'recall'].includes(t.type)],
      [{ id: 'taskState', condition: { in: [3, 4] } }, (t) => [3, 4].includes(stateNow(t))],
      [{ id: 'receivableAmount', type: 'money', condition: { gte: 20_000, lte: 60_000 } }, (t) => t.receivableAmount !== null && t.receivableAmount >= 20_000 && t.receivableAmount <= 60_000],
      [{ id: 'receivableAmount', condition: { gte: '150000' } }, (t) => t.receivableAmount !== null && t.receivableAmount >= 150_000],
      [{ id: 'expirationTime', type: 'date', condition: { gte: '2026-03-01', lte: '2026-05-31' } }, (t) => t.expirationTime !== null && t.expirationTime >= '2026-03-01' && t.expirationTime <= '2026-05-31'],
      [{ id: 'contractStatus', condition: { in: [4] } }, (t) => contractById.get(t.contractId!)!.status === 4],
      [{ id: 'contractName', condition: { searchWord: 'ACME' } }, (t) => contains(contractById.get(t.contractId!)!.name, 'ACME')],
      [{ id: 'responsiblePerson', type: 'people', condition: { in: [people.get('bob')!.id] } }, (t) => contractById.get(t.contractId!)!.responsibleUserId === people.get('bob')!.id],
      [{ id: 'updateTime', condition: { gte: '2026-10-01', lte: '2026-10-01' } }, (t) => t.updateTime.toISOString().startsWith('2026-10-01')],
    ];
    for (const [filter, predicate] of cases) {
      const expected = tasks.filter(predicate);
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(expected.length, JSON.stringify(filter)).toBeLessThan(tasks.length);
      const { rows, count } = await searchAll('admin', { filterList: [filter] });
      expect(count, JSON.stringify(filter)).toBe(expected.length);
      expect(ids(rows)).toEqual(ids(expected));
    }
  });

  it('answers, filters and sorts by the effective state: a pending task past its due date is overdue, as task/by_contract says', async () => {
    const pastDue = tasks.filter((t) => (t.state === 1 || t.state === 2) && t.expirationTime !== null && t.expirationTime < organisationDay(new Date()));
    expect(pastDue.length).toBeGreaterThan(0);
    const { rows } = await searchAll('admin', { titleIDs: ['taskState'] });
    for (const row of rows) {
      const task = tasks.find((t) => t.id === row.id)!;
      expect([row.taskState, row.data.taskState], row.id).toEqual([stateNow(task), stateNow(task)]);
    }
    const shown = okData('performanceTasksByContract', await callEndpoint(app, 'performanceTasksByContract', { token: tokens.get('admin')!, query: { contractID: pastDue[0]!.contractId! } }));
    expect(shown.list.find((card) => card.id === pastDue[0]!.id)!.taskState).toBe(TaskState.Overdue);
    expect(rows.find((row) => row.id === pastDue[0]!.id)!.taskState).toBe(TaskState.Overdue);
    for (const states of [[1], [2], [3], [4], [5], [2, 3], [1, 3, 5], [1, 2, 3]]) {
      const expected = tasks.filter((t) => states.includes(stateNow(t)));
      const found = await searchAll('admin', { filterList: [{ id: 'taskState', condition: { in: states } }] });
      expect(found.count, JSON.stringify(states)).toBe(expected.length);
      expect(ids(found.rows), JSON.stringify(states)).toEqual(ids(expected));
    }
    expect(ids((await searchAll('admin', { filterList: [{ id: 'taskState', condition: { in: [3] } }] })).rows)).toEqual(expect.arrayContaining(ids(pastDue)));
    for (const key of [1, -1] as const) {
      const sorted = (await searchAll('admin', { sortField: { id: 'taskState', key }, titleIDs: ['taskState'] })).rows.map((row) => row.taskState);
      expect(sorted).toEqual([...sorted].sort((a, b) => (a - b) * key));
    }
  });

  it('ignores a number or money filter with both bounds empty, and combines filters', async () => {
    for (const condition of [{}, { gte: null, lte: null }, { gte: '', lte: '' }]) {
      expect(okData('ledgerSearch', await search('admin', { filterList: [{ id: 'receivableAmount', type: 'money', condition }] })).count).toBe(tasks.length);
    }
    const both = await searchAll('admin', {
      filterList: [{ id: 'taskType', condition: { in: ['receivable'] } }, { id: 'receivableAmount', condition: { lte: 100_000 } }],
      performanceId: performanceA,
    });
    expect(ids(both.rows)).toEqual(ids(tasks.filter((t) => t.type === 'receivable' && t.receivableAmount !== null && t.receivableAmount <= 100_000 && t.performanceId === performanceA)));
  });

  it('matches q and search words as plain text, SQL and LIKE metacharacters included', async () => {
    for (const word of ['100%', 'a_b', 'back\\slash', "O'Brien'; drop table performance_tasks; --", '%', '_']) {
      const expected = tasks.filter((t) => contains(t.name, word) || contains(contractById.get(t.contractId!)!.name, word) || contains(contractById.get(t.contractId!)!.contractNumber ?? '', word));
      const { rows } = await searchAll('admin', { q: word });
      expect(ids(rows), word).toEqual(ids(expected));
      const named = await searchAll('admin', { filterList: [{ id: 'name', condition: { searchWord: word } }] });
      expect(ids(named.rows), word).toEqual(ids(tasks.filter((t) => contains(t.name, word))));
    }
    expect((await searchAll('admin', { q: '100%' })).rows.some((r) => r.id === 'quick-task')).toBe(false);
    expect(okData('ledgerSearch', await search('admin', {})).count).toBe(tasks.length);
  });

  it('sorts by a field either way, empty values last, ties by id', async () => {
    for (const key of [1, -1] as const) {
      const { rows } = await searchAll('admin', { sortField: { id: 'expirationTime', key, type: 'date' } });
      const dated = rows.filter((r) => r.expirationTime !== null).map((r) => r.expirationTime!);
      expect(dated).toEqual([...dated].sort((a, b) => (a < b ? -key : a > b ? key : 0)));
      expect(rows.slice(dated.length).every((r) => r.expirationTime === null)).toBe(true);
    }
    const byAmount = await searchAll('admin', { sortField: { id: 'receivableAmount', key: -1 } });
    const amounts = byAmount.rows.map((r) => (r.data.receivableAmount as { amount: number } | null)?.amount ?? null).filter((a) => a !== null);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
  });

  it('shows the titles asked for, the name column always first', async () => {
    const page = okData('ledgerSearch', await search('admin', { titleIDs: ['contractNumber', 'taskState'] }));
    expect(Object.keys(page.list[0]!.data)).toEqual(['name', 'contractNumber', 'taskState']);
    expect(page.list[0]!.fieldSnapShot.taskState!.type).toBe('select');
  });

  it('applies a scene’s preset filters by standingBookID, and refuses another user’s scene', async () => {
    const aliceScenes = okData('ledgerScenes', await callEndpoint(app, 'ledgerScenes', { token: tokens.get('alice')! }));
    const receivables = aliceScenes.find((s) => s.name === 'my receivables')!;
    const { rows } = await searchAll('alice', { standingBookID: receivables.id });
    expect(ids(rows)).toEqual(ids(visible('alice').filter((t) => t.type === 'receivable' || t.type === 'collection')));
    expect(Object.keys(rows[0]!.data)).toEqual(receivables.titleIDs);
    failure(await search('bob', { standingBookID: receivables.id }), 404, 'not_found');
  });

  it('refuses bad input with a 400 naming the field, and no token with 401', async () => {
    const refusals: [unknown, RegExp][] = [
      [{ pageSize: 7 }, /pageSize/],
      [{ pageNum: 0 }, /pageNum/],
      [{ pageNum: 'one' }, /pageNum/],
      [{ unknown: 1 }, /unknown/],
      [{ q: 'x'.repeat(201) }, /q/],
      [{ filterList: [{ id: 'no_such_field', condition: {} }] }, /unknown ledger field/],
      [{ filterList: [{ id: "name'--", condition: { searchWord: 'x' } }] }, /unknown ledger field/],
      [{ filterList: [{ id: 'receivableAmount', type: 'date', condition: {} }] }, /type money/],
      [{ filterList: [{ id: 'receivableAmount', condition: { gte: 'lots' } }] }, /must be a number/],
      [{ filterList: [{ id: 'receivableAmount', condition: { gte: 9, lte: 1 } }] }, /minimum cannot be greater than maximum/],
      [{ filterList: [{ id: 'expirationTime', condition: { gte: '2026-02-30' } }] }, /yyyy-MM-dd/],
      [{ filterList: [{ id: 'taskState', condition: { in: ['1; drop'] } }] }, /whole numbers/],
      [{ filterList: [{ id: 'name', condition: { like: '%' } }] }, /like/],
      [{ sortField: { id: 'taskLeader', key: 2 } }, /sortField/],
      [{ sortField: { id: 'nope', key: 1 } }, /cannot sort/],
      [{ titleIDs: ['nope'] }, /unknown ledger field/],
    ];
    for (const [body, message] of refusals) {
      const refused = failure(await search('admin', body), 400, 'validation_failed');
      expect(refused.message, JSON.stringify(body)).toMatch(message);
    }
    failure(await callEndpoint(app, 'ledgerSearch', { token: tokens.get('admin')!, rawBody: '{"pageNum":' }), 400, 'bad_request');
    failure(await callEndpoint(app, 'ledgerSearch', { body: {} }), 401, 'unauthorized');
    expect((await fixture.db.select().from(performanceTasks)).length).toBe(tasks.length + 1);
  });

  it('keeps the unfiltered count right as records are added, moved between contracts and performances, and deleted', async () => {
    const filteredCount = async () => okData('ledgerSearch', await search('admin', { filterList: [{ id: 'name', condition: { searchWord: ' ' } }] })).count;
    const unfilteredCount = async (performanceId?: string) => okData('ledgerSearch', await search('admin', performanceId ? { performanceId } : {})).count;
    const [first, second] = tasks;
    await fixture.db.update(performanceTasks).set({ contractId: second!.contractId, performanceId: performanceB }).where(eq(performanceTasks.id, first!.id));
    await fixture.db.update(performanceTasks).set({ state: 4 }).where(eq(performanceTasks.contractId, second!.contractId!));
    await fixture.db.delete(performanceTasks).where(eq(performanceTasks.id, second!.id));
    await fixture.db.update(performanceTasks).set({ contractId: null }).where(eq(performanceTasks.id, 'tricky-0'));
    const now = (await fixture.db.select().from(performanceTasks)).filter((t) => t.contractId !== null);
    expect(await unfilteredCount()).toBe(now.length);
    expect(await filteredCount()).toBe(now.filter((t) => t.name.includes(' ')).length);
    expect(await unfilteredCount(performanceB)).toBe(now.filter((t) => t.performanceId === performanceB).length);
    expect(await unfilteredCount(performanceA)).toBe(now.filter((t) => t.performanceId === performanceA).length);
  });

  it('keeps the unfiltered count right for staff when a contract changes hands', async () => {
    const alice = people.get('alice')!;
    // From the rows as they are now: the test before moved and deleted some.
    tasks = (await fixture.db.select().from(performanceTasks)).filter((t) => t.contractId !== null);
    const foreign = tasks.find((t) => !visible('alice').includes(t))!;
    await fixture.db.update(contracts).set({ responsibleUserId: alice.id }).where(eq(contracts.id, foreign.contractId!));
    const moved = await fixture.db.select().from(contracts).where(eq(contracts.id, foreign.contractId!));
    contractById.set(moved[0]!.id, moved[0]!);
    tasks = (await fixture.db.select().from(performanceTasks)).filter((t) => t.contractId !== null);
    const expected = visible('alice');
    expect(expected.some((t) => t.id === foreign.id)).toBe(true);
    expect(okData('ledgerSearch', await search('alice', {})).count).toBe(expected.length);
    expect(okData('ledgerSearch', await search('alice', { performanceId: performanceB })).count).toBe(expected.filter((t) => t.performanceId === performanceB).length);
  });

  it('keeps the kept totals right through a deleted contract, an agent who sees the contract anyway, a transfer and compaction', async () => {
    const alice = people.get('alice')!;
    // Alice acts as an agent for a contract her department already shows her: counted once.
    const ownDepartment = [...contractById.values()].find((c) => c.departmentId === alice.departmentId && c.responsibleUserId !== alice.id)!;
    await fixture.db.insert(contractAgents).values({ contractId: ownDepartment.id, userId: alice.id });
    agents.push({ contractId: ownDepartment.id, userId: alice.id });
    // A contract deleted with its records, and one moved to Bob as business handler.
    const [gone, handed] = [...contractById.values()].filter((c) => c.id !== ownDepartment.id && c.departmentId !== alice.departmentId);
    await fixture.db.delete(contracts).where(eq(contracts.id, gone!.id));
    contractById.delete(gone!.id);
    await fixture.db.update(contracts).set({ businessHandlerUserId: people.get('bob')!.id }).where(eq(contracts.id, handed!.id));
    contractById.set(handed!.id, (await fixture.db.select().from(contracts).where(eq(contracts.id, handed!.id)))[0]!);
    tasks = (await fixture.db.select().from(performanceTasks)).filter((t) => t.contractId !== null);

    const expectCounts = async () => {
      for (const username of ['admin', 'alice', 'bob']) {
        const expected = visible(username);
        expect(okData('ledgerSearch', await search(username, {})).count, username).toBe(expected.length);
        for (const performanceId of [performanceA, performanceB]) {
          expect(okData('ledgerSearch', await search(username, { performanceId })).count, `${username} ${performanceId}`).toBe(
            expected.filter((t) => t.performanceId === performanceId).length,
          );
        }
      }
    };
    await expectCounts();
    const additions = await fixture.db.select().from(ledgerTaskTotals);
    await compactLedgerTaskTotals(fixture.db);
    const folded = await fixture.db.select().from(ledgerTaskTotals);
    const group = (row: typeof ledgerTaskTotals.$inferSelect) => [row.performanceId, row.responsibleUserId, row.departmentId, row.businessHandlerUserId].join('/');
    expect(folded.length).toBeLessThan(additions.length);
    expect(new Set(folded.map(group)).size).toBe(folded.length);
    expect(folded.every((row) => row.count !== 0)).toBe(true);
    await expectCounts();
  });
});
