import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope } from '../../src-shared/api/sync';
import { contracts, users } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, okData, signIn } from './support';

// Per-field merge (issue 12, architecture sync rule 6): the server keeps the version at which each
// field group of a contract last changed; an edit conflicts only where a field it changes moved
// after its base, and edits of different fields of one contract merge.

type ContractRow = typeof contracts.$inferSelect;
const alice = demoUsers.find((u) => u.username === 'alice')!;

describeOnDatabases('sync push: per-field merge', (fixture) => {
  let app: FastifyInstance;
  let token: string;
  let drafts: ContractRow[];
  let seq = 1;
  const clientId = uuidv7();

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 300, seed: 8 });
    const [user] = await fixture.db.select().from(users).where(eq(users.username, 'alice'));
    drafts = (await fixture.db.select().from(contracts)).filter((c) => (c.responsibleUserId === user!.id || c.departmentId === user!.departmentId) && c.status === 1);
    expect(drafts.length).toBeGreaterThan(4);
    app = fixture.server();
    token = (await signIn(app, alice.username, alice.password)).token;
  });

  const update = (contract: ContractRow, patch: Record<string, unknown>, base = contract.version): MutationEnvelope => ({
    id: uuidv7(),
    seq: seq++,
    name: 'contract.update',
    args: { id: contract.id, patch },
    baseVersions: { [`contract:${contract.id}`]: base },
  });
  const push = async (mutation: MutationEnvelope) => {
    const answer = okData('syncPush', await callEndpoint(app, 'syncPush', { token, body: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations: [mutation] } }));
    return answer.results[0]!;
  };
  const stored = async (id: string) => (await fixture.db.select().from(contracts).where(eq(contracts.id, id)))[0]!;

  it('merges two edits of different fields made on the same base', async () => {
    const target = drafts.shift()!;
    expect(await push(update(target, { name: 'Renamed by one' }))).toMatchObject({ status: 'applied' });
    expect(await push(update(target, { formValues: { subject: 'Subject by the other' } }))).toMatchObject({ status: 'applied' });
    const row = await stored(target.id);
    expect(row.name).toBe('Renamed by one');
    expect(row.formValues.subject).toBe('Subject by the other');
    expect(row.version).toBe(target.version + 2);
  });

  it('answers a conflict naming the field when both changed the same one, and writes nothing', async () => {
    const target = drafts.shift()!;
    await push(update(target, { formValues: { subject: 'Theirs' } }));
    const mine = await push(update(target, { formValues: { subject: 'Mine' }, contractNumber: 'MINE-1' }));
    expect(mine).toMatchObject({ status: 'conflict', fields: ['form:subject'] });
    expect(await stored(target.id)).toMatchObject({ version: target.version + 1, contractNumber: target.contractNumber });
    expect((await stored(target.id)).formValues.subject).toBe('Theirs');
  });

  it('counts a field changed outside sync (a REST write, the derived columns) as changed', async () => {
    const target = drafts.shift()!;
    await fixture.db.update(contracts).set({ contractNumber: 'OUTSIDE-1', version: sql`${contracts.version} + 1` }).where(eq(contracts.id, target.id));
    expect(await push(update(target, { contractNumber: 'MINE-2' }))).toMatchObject({ status: 'conflict', fields: ['contractNumber'] });
    expect(await push(update(target, { name: 'Still merges' }))).toMatchObject({ status: 'applied' });
  });

  it('treats every field of a contract changed before the versions were kept as changed at the floor', async () => {
    const target = drafts.shift()!;
    await fixture.db.execute(sql`alter table contracts disable trigger user`);
    await fixture.db.update(contracts).set({ fieldVersions: { '*': target.version + 1 }, version: target.version + 1 }).where(eq(contracts.id, target.id));
    await fixture.db.execute(sql`alter table contracts enable trigger user`);
    expect(await push(update(target, { name: 'Based before the floor' }))).toMatchObject({ status: 'conflict', fields: expect.arrayContaining(['name']) });
    expect(await push(update(target, { name: 'Based on the floor' }, target.version + 1))).toMatchObject({ status: 'applied' });
  });

  it('still decides an approval step by the state at apply time', async () => {
    const target = drafts.shift()!;
    const step = (action: string): MutationEnvelope => ({ id: uuidv7(), seq: seq++, name: 'contract.approvalStep', args: { id: target.id, action }, baseVersions: {} });
    expect(await push(step('submit'))).toMatchObject({ status: 'applied' });
    expect(await push(step('submit'))).toMatchObject({ status: 'rejected', error: { code: 'conflict' } });
    // A rename based before the submission merges with it, and the state machine refuses it as it stands now.
    expect(await push(update(target, { name: 'After submit' }))).toMatchObject({ status: 'rejected' });
  });
});
