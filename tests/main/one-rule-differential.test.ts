import { and, asc, inArray, isNotNull, lt, or, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { openDatabase } from '../../src-server/db/database';
import { users } from '../../src-server/db/schema';
import { performanceTasks } from '../../src-server/performance/schema';
import { demoUsers, otherUsersPassword } from '../../src-server/seed/catalogue';
import { TaskState } from '../../src-shared/domain/enums';
import type { LedgerSearch } from '../../src-shared/domain/ledger';
import { organisationDay } from '../../src-shared/rules/performance';
import { call, settledSync, testCore } from '../support/core';
import { tempDir } from '../support/temp';

// One rule for who sees a task and in which state (issue 28 item 7): for every seeded user and
// twelve months around the seed's base date (2026-11-01), the dashboard a replica computes equals
// the server's performances/statistics and task_scheduling, and scenes filtered by task state
// answer as performances/search does: the same quick tasks (their creator's and leader's only,
// admins included), and the same effective state (a pending task past its due date is overdue).

const serverDir = tempDir('one-rule-server-');
let server: RunningServer;
let people: { username: string; password: string; role: string }[] = [];
/** Tasks with a contract that are overdue today, and how many of them are stored as pending. */
let overdue = { all: 0, storedPending: 0 };

const months = Array.from({ length: 12 }, (_, i) => {
  const start = new Date(Date.UTC(2026, 5 + i, 1));
  const end = new Date(Date.UTC(2026, 6 + i, 0));
  return { startDate: start.toISOString().slice(0, 10), endDate: end.toISOString().slice(0, 10) };
});

beforeAll(async () => {
  await seedDemoData({ contracts: 120, seed: 28, dataDir: serverDir.path });
  const database = await openDatabase({ dataDir: serverDir.path });
  try {
    const { db } = database;
    const rows = await db.select({ id: users.id, username: users.username, role: users.role, organisationId: users.organisationId }).from(users).orderBy(asc(users.username));
    people = rows.map((u) => ({ username: u.username, role: u.role, password: demoUsers.find((d) => d.username === u.username)?.password ?? otherUsersPassword }));
    // A quick task led by someone other than its creator, and one of a user who is no demo user:
    // each visible to its creator and leader only.
    const byName = new Map(rows.map((u) => [u.username, u]));
    const other = rows.find((u) => !demoUsers.some((d) => d.username === u.username))!;
    const quick = (id: string, createdBy: string, leader: string, due: string, state: TaskState) => ({
      id, organisationId: other.organisationId, name: `quick ${id}`, type: 'custom', state, expirationTime: due, leaderUserId: leader, createdBy, values: { performanceDate: due },
    });
    await db.insert(performanceTasks).values([
      quick('quick-led-by-bob', byName.get('alice')!.id, byName.get('bob')!.id, '2026-11-20', TaskState.InProgress),
      quick('quick-of-other', other.id, other.id, '2026-12-03', TaskState.InProgress),
    ]);
    const today = organisationDay(new Date());
    const pendingPastDue = and(inArray(performanceTasks.state, [TaskState.NotStarted, TaskState.InProgress]), lt(performanceTasks.expirationTime, today));
    const [counts] = await db
      .select({
        all: sql<number>`count(*) filter (where ${or(eq(performanceTasks.state, TaskState.Overdue), pendingPastDue)})`.mapWith(Number),
        storedPending: sql<number>`count(*) filter (where ${pendingPastDue})`.mapWith(Number),
      })
      .from(performanceTasks)
      .where(isNotNull(performanceTasks.contractId));
    overdue = counts!;
  } finally {
    await database.close();
  }
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
}, 180_000);

afterAll(async () => {
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
});

/** The state sets a scene filters on: each state alone, and mixes of overdue with pending ones. */
const stateFilters = [[TaskState.NotStarted], [TaskState.InProgress], [TaskState.Overdue], [TaskState.Success], [TaskState.Incomplete], [TaskState.InProgress, TaskState.Overdue], [TaskState.NotStarted, TaskState.Overdue, TaskState.Incomplete]];

describe('one rule for who sees a task and in which state', () => {
  it('the seed has pending tasks past their due date, which only the effective state calls overdue', () => {
    expect(people.length).toBeGreaterThan(demoUsers.length);
    expect(overdue.storedPending).toBeGreaterThan(0);
  });

  it('for every seeded user and twelve months, the replica answers the dashboard and state-filtered scenes as the server does', async () => {
    const client = createContractServerClient(server.url);
    let compared = 0;
    for (const person of people) {
      const desktop = tempDir('one-rule-core-');
      const core: Core = testCore(desktop.path, { pullPageSize: 1000 });
      try {
        await call(core, 'session.signIn', { serverUrl: server.url, username: person.username, password: person.password });
        await settledSync(core, 60_000);
        const { token } = await client.call('login', { body: { username: person.username, password: person.password } });
        const sceneId = (await call(core, 'scene.list', {}))[0]?.id;

        for (const range of months) {
          const label = `${person.username} ${range.startDate}`;
          const [counts, theirCounts] = await Promise.all([call(core, 'performance.statistics', range), client.call('performanceStatistics', { token, query: range })]);
          expect.soft(counts, `statistics of ${label}`).toEqual(theirCounts);

          const [board, schedule] = await Promise.all([call(core, 'performance.board', range), client.call('performanceTaskScheduling', { token, query: range })]);
          expect.soft(board.today, label).toBe(organisationDay(new Date()));
          const mine = board.days.map((day) => ({
            date: day.date,
            total: day.total,
            cards: day.taskList.map((task) => [task.id, task.state, task.name, task.contractId, task.contractName, task.counterpartName, task.dueDate, task.amount]),
          }));
          const theirs = schedule.map((day) => ({
            date: day.date,
            total: day.total,
            cards: day.taskList.map((card) => [card.id, card.taskState, card.taskName, card.contractID, card.contractName, card.counterpartName, card.expirationTime, card.receivableAmount ?? card.payableAmount]),
          }));
          expect.soft(mine, `board of ${label}`).toEqual(theirs);

          // The month's overdue records as a scene shows them, pending ones past their date included.
          const overdueOfMonth: LedgerSearch = {
            ...(sceneId ? { standingBookID: sceneId } : {}),
            filterList: [
              { id: 'taskState', condition: { in: [TaskState.Overdue] } },
              { id: 'expirationTime', condition: { gte: range.startDate, lte: range.endDate } },
            ],
            titleIDs: ['taskState', 'expirationTime', 'contractName'],
            pageNum: 1,
            pageSize: 50,
          };
          const [scene, searched] = await Promise.all([call(core, 'ledger.search', overdueOfMonth), client.call('ledgerSearch', { token, body: overdueOfMonth })]);
          expect.soft(scene, `overdue scene of ${label}`).toEqual(searched);
          compared += counts.total;
        }

        for (const [i, states] of stateFilters.entries()) {
          const search: LedgerSearch = {
            filterList: [{ id: 'taskState', condition: { in: states } }],
            titleIDs: ['taskState', 'expirationTime', 'receivableAmount'],
            sortField: { id: i % 2 === 0 ? 'taskState' : 'expirationTime', key: i % 3 === 0 ? 1 : -1 },
            pageNum: 1 + (i % 2),
            pageSize: 20,
          };
          const [scene, searched] = await Promise.all([call(core, 'ledger.search', search), client.call('ledgerSearch', { token, body: search })]);
          expect.soft(scene, `${person.username} scene of states ${states.join(',')}`).toEqual(searched);
          for (const row of scene.list) expect.soft(states, `${person.username} row ${row.id}`).toContain(row.taskState);
          if (person.role === 'admin' && states.length === 1 && states[0] === TaskState.Overdue) {
            // Written independently from the seeded rows: stored overdue, and pending past their date.
            expect(scene.count).toBe(overdue.all);
          }
        }
      } finally {
        await core.close();
        desktop.cleanup();
      }
    }
    // The comparison must have reached tasks, or it proves little.
    expect(compared).toBeGreaterThan(500);
  }, 900_000);
});
