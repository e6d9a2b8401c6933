import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, expect, it } from 'vitest';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope, type MutationResult } from '../../src-shared/api/sync';
import type { EndpointResponse } from '../../src-shared/api/endpoints';
import { contractAlterations } from '../../src-server/contract-forms/schema';
import { contracts, processedMutations } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { call, callEndpoint, describeOnDatabases, okData, pullAll, signIn } from './support';

// The drafting mutations of issue 6 through the sync push: contract.create (an offline draft,
// numbered by the server's rules), contract.alter, and contract.update's form keys, each under
// the REST rules and exactly once.

const password = (username: string) => demoUsers.find((u) => u.username === username)!.password;
const party = (name: string) => ({ id: 0, name });

describeOnDatabases('sync push: contract drafting', (fixture) => {
  let app: FastifyInstance;
  const tokens = { admin: '', alice: '', carol: '' };
  let template: EndpointResponse<'templateDetail'>;
  let nextSeq = 1;
  const clientId = uuidv7();

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 20, seed: 9 });
    app = fixture.server();
    for (const username of ['admin', 'alice', 'carol'] as const) tokens[username] = (await signIn(app, username, password(username))).token;
    const list = okData('templateList', await callEndpoint(app, 'templateList', { token: tokens.alice, query: { q: '采购' } }));
    template = okData('templateDetail', await call(app, 'GET', `/api/v1/templates/${list.list[0]!.id}`, { token: tokens.alice }));
  });

  const values = (extra: Record<string, unknown> = {}) => ({
    contractName: 'office chairs', contractType: template.contractTypeId, counterparty: [party('ACME Ltd.')], ...extra,
  });
  const envelope = (name: string, args: unknown, baseVersions: Record<string, number> = {}): MutationEnvelope => ({ id: uuidv7(), seq: nextSeq++, name, args, baseVersions });
  const draft = (args: Record<string, unknown> = {}) =>
    envelope('contract.create', {
      id: uuidv7(), name: 'office chairs', templateId: template.id, contractTypeId: null, contractNumber: null, provisionalNumber: null, formValues: values(), ...args,
    });
  const push = async (token: string, mutations: MutationEnvelope[]): Promise<MutationResult[]> =>
    okData('syncPush', await callEndpoint(app, 'syncPush', { token, body: { protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId, mutations } })).results;
  const stored = async (id: string) => (await fixture.db.select().from(contracts).where(eq(contracts.id, id)))[0];
  const nextNumber = async () => okData('contractNumberAutoPreview', await callEndpoint(app, 'contractNumberAutoPreview', { token: tokens.alice, query: { contractTypeID: template.contractTypeId! } })).list[0]!.format;
  const idOf = (mutation: MutationEnvelope) => (mutation.args as { id: string }).id;

  it('drafts a contract with the client id and confirms the provisional number the client showed', async () => {
    const provisional = await nextNumber();
    const mutation = draft({ provisionalNumber: provisional, name: 'chairs: batch?1' });
    const [result] = await push(tokens.alice, [mutation]);
    const id = idOf(mutation);
    expect(result).toEqual({ id: mutation.id, status: 'applied', versions: { [`contract:${id}`]: 1 }, outcome: { contractNumber: provisional } });
    const row = await stored(id);
    expect(row).toMatchObject({ name: 'chairs batch1', contractNumber: provisional, contractNumberAuto: true, status: 1, templateId: template.id, contractTypeId: template.contractTypeId });
    const { rows } = await pullAll(app, tokens.alice, 1000);
    expect(rows.find((r) => r.id === id)).toMatchObject({
      contractNumber: provisional, contractNumberAuto: true, templateId: template.id, contractTypeId: template.contractTypeId, formValues: values(), responsibleUserName: expect.any(String),
    });
  });

  it('replaces a provisional number another client took meanwhile, and a replay answers the same', async () => {
    const provisional = await nextNumber();
    okData('createContract', await callEndpoint(app, 'createContract', { token: tokens.alice, body: { templateId: template.id, name: 'taken first', formValues: values() } }));
    const mutation = draft({ provisionalNumber: provisional });
    const [result] = await push(tokens.alice, [mutation]);
    expect(result).toMatchObject({ status: 'applied', outcome: { contractNumber: expect.any(String) } });
    const final = result?.status === 'applied' ? result.outcome?.contractNumber : undefined;
    expect(final).not.toBe(provisional);
    expect(await push(tokens.alice, [mutation])).toEqual([result]);
    const rows = await fixture.db.select().from(contracts).where(eq(contracts.id, idOf(mutation)));
    expect(rows.map((r) => r.contractNumber)).toEqual([final]);
    const processed = await fixture.db.select().from(processedMutations).where(eq(processedMutations.id, mutation.id));
    expect(processed).toHaveLength(1);
  });

  it('refuses by the REST rules and writes nothing: a number from a non-editor, a duplicate, bad values, an existing id', async () => {
    const existing = draft();
    await push(tokens.alice, [existing]);
    const cases = [
      { token: tokens.alice, mutation: draft({ contractNumber: 'MANUAL-ALICE' }), code: 'forbidden' },
      { token: tokens.carol, mutation: draft({ contractNumber: (await stored(idOf(existing)))!.contractNumber }), code: 'conflict' },
      { token: tokens.alice, mutation: draft({ formValues: values({ bankAccount: '1234' }) }), code: 'validation_failed' },
      { token: tokens.alice, mutation: draft({ name: '::' }), code: 'validation_failed' },
      { token: tokens.alice, mutation: draft({ id: idOf(existing) }), code: 'conflict' },
    ];
    for (const { token, mutation, code } of cases) {
      const [result] = await push(token, [mutation]);
      expect(result).toMatchObject({ status: 'rejected', error: { code } });
    }
    const [bad] = await push(tokens.alice, [draft({ formValues: values({ bankAccount: '1234' }) })]);
    expect(bad?.status === 'rejected' && bad.error.issues).toContainEqual({ path: 'formValues.bankAccount', message: 'please enter 9-24 characters' });
    for (const { mutation } of cases.slice(0, 4)) expect(await stored(idOf(mutation))).toBeUndefined();
    const manual = draft({ contractNumber: 'MANUAL-CAROL' });
    expect((await push(tokens.carol, [manual]))[0]).toMatchObject({ status: 'applied', outcome: { contractNumber: 'MANUAL-CAROL' } });
    expect(await stored(idOf(manual))).toMatchObject({ contractNumber: 'MANUAL-CAROL', contractNumberAuto: false });
  });

  it('saves form values and the contract type through contract.update, checked like PUT', async () => {
    const created = draft({ formValues: values({ remark: 'first' }) });
    await push(tokens.alice, [created]);
    const id = idOf(created);
    const otherType = okData('contractTypeList', await callEndpoint(app, 'contractTypeList', { token: tokens.alice })).list.find((t) => t.id !== template.contractTypeId)!;
    // The form holds the type: a type set beside it to another one is refused (the form's next write would undo it).
    const beside = envelope('contract.update', { id, patch: { formValues: { remark: 'second' }, contractTypeId: otherType.id } }, { [`contract:${id}`]: 1 });
    expect((await push(tokens.alice, [beside]))[0]).toMatchObject({ status: 'rejected', error: { code: 'validation_failed', issues: [{ path: 'patch.contractTypeId' }] } });
    const update = envelope('contract.update', { id, patch: { formValues: { remark: 'second', contractType: otherType.id }, contractTypeId: otherType.id } }, { [`contract:${id}`]: 1 });
    expect((await push(tokens.alice, [update]))[0]).toEqual({ id: update.id, status: 'applied', versions: { [`contract:${id}`]: 2 } });
    expect(await stored(id)).toMatchObject({ contractTypeId: otherType.id, contractTypeName: otherType.name, formValues: values({ remark: 'second', contractType: otherType.id }) });
    const bad = envelope('contract.update', { id, patch: { formValues: { bankAccount: '1' } } }, { [`contract:${id}`]: 2 });
    expect((await push(tokens.alice, [bad]))[0]).toMatchObject({ status: 'rejected', error: { code: 'validation_failed', issues: [{ path: 'formValues.bankAccount' }] } });
    expect((await stored(id))?.version).toBe(2);
  });

  it('alters only an approved contract, only its alterable fields, with a reason of at most 2000 characters', async () => {
    const created = draft({ formValues: values({ remark: 'old' }) });
    await push(tokens.alice, [created]);
    const id = idOf(created);
    const key = `contract:${id}`;
    const alter = (formValues: Record<string, unknown>, base: number, reason = 'bank changed') => envelope('contract.alter', { id, formValues, reason }, { [key]: base });
    const early = (await push(tokens.alice, [alter({ remark: 'new' }, 1)]))[0];
    expect(early).toMatchObject({ status: 'rejected', error: { code: 'conflict', message: 'only an approved contract can be altered' } });
    const step = (token: string, action: string) => call(app, 'POST', `/api/v1/contracts/${id}/${action}`, { token, body: {} });
    okData('submitContract', await step(tokens.alice, 'submit'));
    okData('approveContract', await step(tokens.admin, 'approve'));
    const refused = (await push(tokens.alice, [alter({ contractName: 'other' }, 3)]))[0];
    expect(refused).toMatchObject({ status: 'rejected', error: { code: 'validation_failed', issues: [{ path: 'formValues.contractName', message: 'this field cannot be altered' }] } });
    const long = (await push(tokens.alice, [alter({ remark: 'new' }, 3, 'x'.repeat(2001))]))[0];
    expect(long).toMatchObject({ status: 'rejected', error: { code: 'validation_failed' } });
    const altered = alter({ remark: 'new' }, 3);
    const [result] = await push(tokens.alice, [altered]);
    expect(result).toEqual({ id: altered.id, status: 'applied', versions: { [key]: 4 } });
    expect(await push(tokens.alice, [altered])).toEqual([result]);
    expect((await stored(id))?.formValues).toMatchObject({ remark: 'new' });
    const records = await fixture.db.select().from(contractAlterations).where(eq(contractAlterations.contractId, id));
    expect(records.map((r) => [r.reason, r.changes])).toEqual([['bank changed', [{ fieldId: 'remark', name: '备注', before: 'old', after: 'new' }]]]);
  });
});
