import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { SyncChange } from '../../src-shared/api/sync';
import { transferMessages } from '../../src-shared/domain/ledger';
import { contractAgents, contracts, organisations, templates, users } from '../../src-server/db/schema';
import { caseTypes, caseTypeTemplates, contractTransfers } from '../../src-server/ledger/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, contractChanges, describeOnDatabases, failure, okData, pullAll, signIn } from './support';

type UserRow = typeof users.$inferSelect;

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;

/** The contracts (id → version) a client holds after applying the changes in order. */
function replay(changes: SyncChange[], into = new Map<string, number>()) {
  for (const change of contractChanges(changes)) {
    if (change.op === 'delete') into.delete(change.id);
    else into.set(change.row.id, change.row.version);
  }
  return into;
}

describeOnDatabases('ledger transfer, archived count, case types and filter options', (fixture) => {
  let app: FastifyInstance;
  const tokens = new Map<string, string>();
  const people = new Map<string, UserRow>();

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 60, seed: 9 });
    for (const username of ['admin', 'alice', 'bob', 'carol']) {
      const [user] = await fixture.db.select().from(users).where(eq(users.username, username));
      people.set(username, user!);
    }
    const alice = people.get('alice')!;
    const carol = people.get('carol')!;
    // Alice's contracts booked on Carol's department: Alice sees them only as responsible person.
    await fixture.db.insert(contracts).values(
      ['t-one', 't-two', 't-three', 't-four'].map((id) => ({ id, name: `transfer ${id}`, status: 4 as const, responsibleUserId: alice.id, departmentId: carol.departmentId })),
    );
    await fixture.db.insert(contracts).values({ id: 't-carols', name: 'carol keeps', status: 5, responsibleUserId: carol.id, departmentId: carol.departmentId });
    app = fixture.server();
    for (const username of people.keys()) tokens.set(username, (await signIn(app, username, demo(username).password)).token);
  });

  const transfer = (username: string | undefined, body: unknown) => callEndpoint(app, 'contractTransfer', { token: username ? tokens.get(username)! : undefined, body });
  /**
   * Pulls from `cursor` until the client's copy satisfies `done`. The feed serves a change once
   * every older transaction of the PostgreSQL cluster has ended, and suites of other files may
   * hold one open meanwhile.
   */
  async function pullUntil(username: string, done: (held: Map<string, number>) => boolean, from = { cursor: '0', held: new Map<string, number>() }) {
    const changes: SyncChange[] = [];
    let cursor = from.cursor;
    const held = new Map(from.held);
    for (let attempt = 0; attempt < 100; attempt++) {
      const page = await pullAll(app, tokens.get(username)!, 50, cursor);
      const got = page.pages.flatMap((p) => p.changes);
      changes.push(...got);
      replay(got, held);
      cursor = page.cursor;
      if (done(held)) return { cursor, held, changes };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the feed never gave ${username} what was expected`);
  }

  it('moves the responsible person and business handler for good (method 1): the old one loses the contract in the feed', async () => {
    const bob = people.get('bob')!;
    const before = await pullUntil('alice', (held) => held.has('t-one'));
    const done = okData('contractTransfer', await transfer('alice', { contractIDList: ['t-one'], userID: bob.id, handleMethod: 1, reason: 'leaving the project' }));
    expect(done).toEqual({ message: transferMessages.succeeded, count: 1 });
    const [row] = await fixture.db.select().from(contracts).where(eq(contracts.id, 't-one'));
    expect(row).toMatchObject({ responsibleUserId: bob.id, businessHandlerUserId: bob.id, version: 2 });
    const after = await pullUntil('alice', (held) => !held.has('t-one'), before);
    expect(after.changes).toContainEqual({ entity: 'contract', op: 'delete', id: 't-one' });
    await pullUntil('bob', (held) => held.get('t-one') === 2);
    // Cannot be undone by the one who gave it away.
    failure(await transfer('alice', { contractIDList: ['t-one'], userID: people.get('alice')!.id, handleMethod: 1 }), 404, 'not_found');
    const [record] = await fixture.db.select().from(contractTransfers).where(eq(contractTransfers.contractId, 't-one'));
    expect(record).toMatchObject({ fromUserId: people.get('alice')!.id, toUserId: bob.id, handleMethod: 1, reason: 'leaving the project', createdBy: people.get('alice')!.id });
  });

  it('keeps the old holder as an agent with method 2: still visible to them, in the feed and the ledger', async () => {
    const bob = people.get('bob')!;
    const alice = people.get('alice')!;
    const before = await pullUntil('alice', (held) => held.has('t-two') && held.has('t-three'));
    okData('contractTransfer', await transfer('alice', { contractIDList: ['t-two', 't-three'], userID: bob.id, handleMethod: 2 }));
    const agents = await fixture.db.select().from(contractAgents).where(inArray(contractAgents.contractId, ['t-two', 't-three']));
    expect(agents.map((a) => [a.contractId, a.userId]).sort()).toEqual([['t-three', alice.id], ['t-two', alice.id]]);
    // Alice gets the transferred rows (after the deletes of her responsible-person view).
    await pullUntil('alice', (held) => held.get('t-two') === 2 && held.get('t-three') === 2, before);
    const list = okData('contractList', await callEndpoint(app, 'contractList', { token: tokens.get('alice')!, query: { q: 'transfer t-t', pageSize: 100 } }));
    expect(list.list.map((c) => c.id).sort()).toEqual(['t-three', 't-two']);
    // An agent may see but not transfer.
    failure(await transfer('alice', { contractIDList: ['t-two'], userID: alice.id, handleMethod: 1 }), 403, 'forbidden');
  });

  it('refuses a contract the user may see but not change, all or nothing', async () => {
    // Carol sees Alice's t-four through her department, but is not its responsible person.
    const refused = failure(await transfer('carol', { contractIDList: ['t-carols', 't-four'], userID: people.get('bob')!.id, handleMethod: 1 }), 403, 'forbidden');
    expect(refused.message).toMatch(/t-four/);
    const rows = await fixture.db.select().from(contracts).where(inArray(contracts.id, ['t-carols', 't-four']));
    expect(rows.every((r) => r.version === 1 && r.businessHandlerUserId === null)).toBe(true);
    // Bob cannot even see t-four; a missing contract is the same 404.
    failure(await transfer('bob', { contractIDList: ['t-four'], userID: people.get('bob')!.id, handleMethod: 1 }), 404, 'not_found');
    failure(await transfer('admin', { contractIDList: ['no-such-contract'], userID: people.get('bob')!.id, handleMethod: 1 }), 404, 'not_found');
    // An administrator may transfer any contract.
    okData('contractTransfer', await transfer('admin', { contractIDList: ['t-four', 't-four'], userID: people.get('carol')!.id, handleMethod: 1 }));
  });

  it('validates the payload with the spec’s messages, writing nothing', async () => {
    const bob = people.get('bob')!;
    const cases: [unknown, string, string | RegExp][] = [
      [{ contractIDList: ['t-carols'], handleMethod: 1 }, 'userID', transferMessages.personRequired],
      [{ contractIDList: ['t-carols'], userID: '  ', handleMethod: 1 }, 'userID', transferMessages.personRequired],
      [{ contractIDList: [], userID: bob.id, handleMethod: 1 }, 'contractIDList', transferMessages.contractsRequired],
      [{ contractIDList: ['t-carols'], userID: bob.id, handleMethod: 3 }, 'handleMethod', /handleMethod/],
      [{ contractIDList: ['t-carols'], userID: bob.id, handleMethod: 1, reason: 'x'.repeat(2001) }, 'reason', /2000/],
      [{ contractIDList: ['t-carols'], userID: bob.id, handleMethod: 1, extra: true }, '(root)', /extra/],
      [{ contractIDList: ['t-carols'], userID: "x'; drop table contracts; --", handleMethod: 1 }, 'userID', transferMessages.personRequired],
    ];
    for (const [body, path, message] of cases) {
      const refused = failure(await transfer('carol', body), 400, 'validation_failed');
      expect(refused.issues?.[0]?.path, JSON.stringify(body)).toBe(path);
      expect(refused.message).toMatch(message);
    }
    okData('contractTransfer', await transfer('carol', { contractIDList: ['t-carols'], userID: bob.id, handleMethod: 1, reason: 'x'.repeat(2000) }));
    failure(await transfer(undefined, { contractIDList: ['t-carols'], userID: bob.id, handleMethod: 1 }), 401, 'unauthorized');
  });

  it('counts the archived contracts the user may see', async () => {
    const all = await fixture.db.select().from(contracts);
    const admin = okData('contractArchived', await callEndpoint(app, 'contractArchived', { token: tokens.get('admin')! }));
    expect(admin.count).toBe(all.filter((c) => c.status === 5).length);
    const carol = people.get('carol')!;
    const hers = okData('contractArchived', await callEndpoint(app, 'contractArchived', { token: tokens.get('carol')! }));
    expect(hers.count).toBe(all.filter((c) => c.status === 5 && (c.responsibleUserId === carol.id || c.departmentId === carol.departmentId || c.businessHandlerUserId === carol.id)).length);
    failure(await callEndpoint(app, 'contractArchived'), 401, 'unauthorized');
  });

  it('answers the case-type tree with disabled nodes and template lists', async () => {
    const [organisation] = await fixture.db.select().from(organisations);
    const [leaf] = await fixture.db.select().from(caseTypes).where(eq(caseTypes.name, '合同纠纷 Contract dispute'));
    await fixture.db.insert(templates).values({ id: 'tpl-sale', organisationId: organisation!.id, name: 'Sales template' });
    await fixture.db.insert(caseTypeTemplates).values({ caseTypeId: leaf!.id, templateId: 'tpl-sale' });
    const tree = okData('caseTypeTree', await callEndpoint(app, 'caseTypeTree', { token: tokens.get('alice')! }));
    expect(tree.length).toBeGreaterThan(1);
    expect(tree.some((node) => node.state === 2 && node.children.every((child) => child.state === 2))).toBe(true);
    const civil = tree.find((node) => node.children.some((child) => child.id === leaf!.id))!;
    expect(civil.children.find((child) => child.id === leaf!.id)!.templateList).toEqual([{ id: 'tpl-sale', name: 'Sales template' }]);
    failure(await callEndpoint(app, 'caseTypeTree'), 401, 'unauthorized');
  });

  it('offers workflow and template filter options by name, search words as plain text', async () => {
    const workflows = okData('workflowFilterOptions', await callEndpoint(app, 'workflowFilterOptions', { token: tokens.get('bob')! }));
    expect(workflows.length).toBeGreaterThan(3);
    const sales = okData('workflowFilterOptions', await callEndpoint(app, 'workflowFilterOptions', { token: tokens.get('bob')!, query: { q: 'sales' } }));
    expect(sales.map((w) => w.name)).toEqual(workflows.filter((w) => w.name.toLowerCase().includes('sales')).map((w) => w.name));
    expect(okData('workflowFilterOptions', await callEndpoint(app, 'workflowFilterOptions', { token: tokens.get('bob')!, query: { q: "%' or 1=1 --" } }))).toEqual([]);
    expect(okData('templateFilterOptions', await callEndpoint(app, 'templateFilterOptions', { token: tokens.get('bob')!, query: { q: 'sales' } }))).toEqual([{ id: 'tpl-sale', name: 'Sales template' }]);
    failure(await callEndpoint(app, 'templateFilterOptions', { token: tokens.get('bob')!, query: { q: 'x'.repeat(101) } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'templateFilterOptions', { token: tokens.get('bob')!, query: { other: 'x' } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'workflowFilterOptions'), 401, 'unauthorized');
  });
});
