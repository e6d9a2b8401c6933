import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { expect } from 'vitest';
import { endpoints, type EndpointBody, type EndpointResponse } from '../../src-shared/api/endpoints';
import { contracts, users } from '../../src-server/db/schema';
import { performances } from '../../src-server/performance/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { call, callEndpoint, okData, signIn, type CallOptions, type CallResult, type DatabaseFixture } from './support';

// Shared set-up of the performance suites: seeded demo data, signed-in demo users, and fresh
// contracts with a plan of chosen rows, so each test works on tasks no other test touches.

export type UserRow = typeof users.$inferSelect;
export type PlanRows = NonNullable<EndpointBody<'performancePlanSave'>['rows']>;

/** A date long past and one far ahead, so the tests do not depend on today's date. */
export const past = '2025-01-10';
export const future = '2099-06-30';

/** Money in yuan hundredths: the receivable performance's amount column is required (its sheet's rules). */
export const cny = (amount: number) => ({ amount, unit: 'CNY' });

export interface PerformanceWorld {
  app: FastifyInstance;
  people: Record<'admin' | 'alice' | 'bob' | 'carol', UserRow & { token: string }>;
  /** The seeded performances by type. */
  performanceOf(type: string): typeof performances.$inferSelect;
  /** A new contract owned by `owner` (in their department). */
  newContract(owner: UserRow): Promise<string>;
  /** A new contract of `owner` with a plan of `rows` under the performance of `type` (receivable unless said); the plan as the server answers. */
  newPlan(owner: UserRow & { token: string }, rows: PlanRows, type?: string): Promise<EndpointResponse<'performancePlanSave'>>;
  /** A quick task (no contract) created by `creator`. */
  newQuickTask(creator: { token: string }, overrides?: Record<string, unknown>): Promise<EndpointResponse<'performanceQuickTask'>>;
  /** Calls an endpoint whose path has `:id`. */
  callWithId(name: Parameters<typeof callEndpoint>[1], id: string, options?: CallOptions): Promise<CallResult>;
}

export async function performanceWorld(fixture: DatabaseFixture): Promise<PerformanceWorld> {
  await seedDatabase(fixture.db, { contracts: 150, seed: 7 });
  const app = fixture.server();
  const people = {} as PerformanceWorld['people'];
  for (const username of ['admin', 'alice', 'bob', 'carol'] as const) {
    const [row] = await fixture.db.select().from(users).where(eq(users.username, username));
    const { token } = await signIn(app, username, demoUsers.find((u) => u.username === username)!.password);
    people[username] = { ...row!, token };
  }
  expect(people.alice.departmentId).not.toBe(people.bob.departmentId);
  const seeded = await fixture.db.select().from(performances);

  const world: PerformanceWorld = {
    app,
    people,
    performanceOf: (type) => seeded.find((p) => p.type === type)!,
    async newContract(owner) {
      const id = uuidv7();
      await fixture.db.insert(contracts).values({
        id, name: `履约测试合同 ${id.slice(-6)}`, status: 4, responsibleUserId: owner.id, departmentId: owner.departmentId, amount: 1_000_000, amountUnit: 'CNY',
      });
      return id;
    },
    async newPlan(owner, rows, type = 'receivable') {
      const contractID = await world.newContract(owner);
      const result = await world.callWithId('performancePlanSave', world.performanceOf(type).id, {
        token: owner.token, body: { contractID, conditionType: 1, rows },
      });
      return okData('performancePlanSave', result);
    },
    async newQuickTask(creator, overrides = {}) {
      const body = { name: '跟进报价', type: 'custom', fieldList: [{ id: 'performanceDate', name: 'performance date', type: 'date', required: true, value: future }], ...overrides };
      return okData('performanceQuickTask', await callEndpoint(app, 'performanceQuickTask', { token: creator.token, body }));
    },
    callWithId(name, id, options) {
      const { method, path } = endpoints[name];
      return call(app, method, path.replace(':id', id), options);
    },
  };
  return world;
}
