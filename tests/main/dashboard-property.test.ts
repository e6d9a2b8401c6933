import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { addDays } from '../../src-shared/rules/dashboard';
import { boardDayLimit } from '../../src-shared/ipc/dashboard';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { call, settledSync, testCore } from '../support/core';
import { tempDir } from '../support/temp';

// The dashboard from the replica equals the server's for the same user (issue 13): for seeded data
// and random date ranges, the counts equal performances/statistics and the board equals
// task_scheduling (same totals per day, same tasks in the same states; the server shows at most
// 20 cards a day, all of which the replica's board holds).

const serverDir = tempDir('contract-desk-dashboard-server-');
const desktop = tempDir('contract-desk-dashboard-core-');
let server: RunningServer;
let core: Core;
let token = '';

/** Seeded due dates spread around the seed's base date (2026-11-01). */
const firstDay = '2026-05-01';
const day = (offset: number) => addDays(firstDay, offset);

beforeAll(async () => {
  await seedDemoData({ contracts: 300, seed: 13, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
  ({ token } = await createContractServerClient(server.url).call('login', { body: { username: 'alice', password: 'alice123' } }));
  core = testCore(desktop.path, { pullPageSize: 1000 });
  await call(core, 'session.signIn', { serverUrl: server.url, username: 'alice', password: 'alice123' });
  await settledSync(core, 60_000);
}, 120_000);

afterAll(async () => {
  await core?.close();
  await server?.close().catch(() => undefined);
  desktop.cleanup();
  serverDir.cleanup();
});

const client = () => createContractServerClient(server.url);

describe('the dashboard from the replica', () => {
  it('has tasks to compare: the seeded user sees some in the year around the base date', async () => {
    const counts = await call(core, 'performance.statistics', { startDate: day(0), endDate: day(365) });
    expect(counts.total).toBeGreaterThan(20);
    expect(counts.overdueCount + counts.completedCount).toBeGreaterThan(0);
  });

  it('counts as performances/statistics for random ranges', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 200 }), async (start, length) => {
        const range = { startDate: day(start), endDate: day(start + length) };
        const [mine, theirs] = await Promise.all([
          call(core, 'performance.statistics', range),
          client().call('performanceStatistics', { token, query: range }),
        ]);
        expect(mine).toEqual(theirs);
      }),
      { numRuns: 30 },
    );
  });

  it('boards as performances/task_scheduling for random ranges', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 40 }), async (start, length) => {
        const range = { startDate: day(start), endDate: day(start + length) };
        const [shown, every, theirs] = await Promise.all([
          call(core, 'performance.board', range),
          call(core, 'performance.board', { ...range, perDay: 100_000 }),
          client().call('performanceTaskScheduling', { token, query: range }),
        ]);
        expect(every.days.map((d) => [d.date, d.total])).toEqual(theirs.map((d) => [d.date, d.total]));
        expect(shown.days.map((d) => d.taskList.length)).toEqual(theirs.map((d) => Math.min(d.total, boardDayLimit)));
        for (const [i, serverDay] of theirs.entries()) {
          const mine = new Map(every.days[i]!.taskList.map((task) => [task.id, task]));
          expect(mine.size).toBe(serverDay.total);
          for (const card of serverDay.taskList) {
            expect(mine.get(card.id)).toMatchObject({
              state: card.taskState,
              name: card.taskName,
              contractId: card.contractID,
              contractName: card.contractName,
              counterpartName: card.counterpartName,
              dueDate: card.expirationTime,
            });
          }
        }
      }),
      { numRuns: 30 },
    );
  });
});
