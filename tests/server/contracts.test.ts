import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { contractStatuses, contractStatusStatisticsKey } from '../../src-shared/domain/enums';
import { contracts, users } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, listAllContracts, okData, queryRows, signIn } from './support';

const admin = demoUsers.find((u) => u.role === 'admin')!;

/** Names that are SQL or LIKE metacharacters, to prove `q` is matched as plain text. */
const trickyNames = ['折扣 100% 保证', 'code a_b 协议', 'back\\slash agreement', "O'Brien'; drop table contracts; --"];

describeOnDatabases('contract list and statistics', (fixture) => {
  let app: FastifyInstance;
  let token: string;
  let all: (typeof contracts.$inferSelect)[];

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 240, seed: 11 });
    const [owner] = await fixture.db.select().from(users).where(eq(users.username, admin.username));
    await fixture.db.insert(contracts).values(
      trickyNames.map((name, i) => ({ id: `tricky-${i}`, name, status: 1 as const, responsibleUserId: owner!.id, departmentId: owner!.departmentId })),
    );
    all = await fixture.db.select().from(contracts);
    app = fixture.server();
    token = (await signIn(app, admin.username, admin.password)).token;
  });

  it('answers the first page of 20, newest update first, in the shared contract shape', async () => {
    const page = okData('contractList', await callEndpoint(app, 'contractList', { token }));
    expect(page.count).toBe(all.length);
    expect(page.list).toHaveLength(20);
    const times = page.list.map((c) => Date.parse(c.updateTime));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const seeded = page.list.find((c) => c.amount !== null && c.signDate !== null && c.counterpartName !== null)!;
    expect(seeded.signDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(seeded.createTime).toBe(new Date(seeded.createTime).toISOString());
    expect(Number.isInteger(seeded.amount!.amount)).toBe(true);
    expect(seeded.responsibleUserName).toBeTruthy();
    expect(seeded.departmentName).toBeTruthy();
  });

  it('pages through every contract exactly once', async () => {
    const seen: string[] = [];
    for (let pageNum = 1; pageNum <= Math.ceil(all.length / 37); pageNum++) {
      const page = okData('contractList', await callEndpoint(app, 'contractList', { token, query: { pageNum, pageSize: 37 } }));
      expect(page.count).toBe(all.length);
      seen.push(...page.list.map((c) => c.id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(all.map((c) => c.id).sort());
    const beyond = okData('contractList', await callEndpoint(app, 'contractList', { token, query: { pageNum: 99, pageSize: 37 } }));
    expect(beyond).toEqual({ list: [], count: all.length });
  });

  it('filters by status', async () => {
    for (const status of contractStatuses) {
      const { rows, count } = await listAllContracts(app, token, { status });
      const expected = all.filter((c) => c.status === status);
      expect(count).toBe(expected.length);
      expect(rows.map((c) => c.id).sort()).toEqual(expected.map((c) => c.id).sort());
    }
  });

  it('finds q in the name or the contract number, ignoring case', async () => {
    const byNumber = all.find((c) => c.contractNumber)!.contractNumber!;
    const numbered = await listAllContracts(app, token, { q: byNumber.toLowerCase() });
    expect(numbered.rows.map((c) => c.contractNumber)).toEqual([byNumber]);

    const word = all.find((c) => c.name.includes(' - '))!.name.split(' - ')[0]!;
    const named = await listAllContracts(app, token, { q: word.toUpperCase() });
    expect(named.count).toBe(all.filter((c) => c.name.toLowerCase().includes(word.toLowerCase())).length);
    expect(named.count).toBeGreaterThan(0);

    const combined = await listAllContracts(app, token, { q: word, status: 4 });
    expect(combined.rows.every((c) => c.status === 4 && c.name.toLowerCase().includes(word.toLowerCase()))).toBe(true);
  });

  it('matches %, _, quotes and backslashes literally: q is data, never SQL', async () => {
    for (const [q, expected] of [
      ['%', ['折扣 100% 保证']],
      ['_', ['code a_b 协议']],
      ['a_b', ['code a_b 协议']],
      ['\\', ['back\\slash agreement']],
      ["'; drop table contracts; --", ["O'Brien'; drop table contracts; --"]],
    ] as const) {
      const { rows } = await listAllContracts(app, token, { q });
      expect(rows.map((c) => c.name), `q=${q}`).toEqual(expected);
    }
    const [{ count }] = (await queryRows<{ count: number }>(fixture.db, sql`select count(*)::int as count from contracts`)) as [{ count: number }];
    expect(count).toBe(all.length);
  });

  it('counts contracts per status for the header tabs', async () => {
    const statistics = okData('contractStatistics', await callEndpoint(app, 'contractStatistics', { token }));
    expect(statistics.total).toBe(all.length);
    for (const status of contractStatuses) {
      expect(statistics[contractStatusStatisticsKey[status]]).toBe(all.filter((c) => c.status === status).length);
    }
    // Contracts without a status count in the total only.
    const withStatus = contractStatuses.reduce((sum, s) => sum + statistics[contractStatusStatisticsKey[s]], 0);
    expect(statistics.total - withStatus).toBe(all.filter((c) => c.status === null).length);
  });
});
