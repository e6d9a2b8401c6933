import type { FastifyInstance } from 'fastify';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { approvalRecords } from '../../src-server/contract-forms/schema';
import { contracts, counterparties, templates, users } from '../../src-server/db/schema';
import { uploadedFiles } from '../../src-server/files/schema';
import { selectContractRows } from '../../src-server/contracts/repository';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { call, callEndpoint, describeOnDatabases, failure, okData, signIn } from './support';
import type { EndpointResponse } from '../../src-shared/api/endpoints';

const password = (username: string) => demoUsers.find((u) => u.username === username)!.password;
const missingId = '0190a0a0-0000-7000-8000-000000000000';
const party = (name: string) => ({ id: 0, name });

describeOnDatabases('contract forms', (fixture) => {
  let app: FastifyInstance;
  const tokens = { admin: '', alice: '', bob: '', carol: '' };
  let purchaseTemplate: EndpointResponse<'templateDetail'>;

  const valuesFor = (extra: Record<string, unknown> = {}) => ({
    contractName: 'office chairs', contractType: purchaseTemplate.contractTypeId, counterparty: [party('ACME Ltd.')], ...extra,
  });
  const create = (token: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    callEndpoint(app, 'createContract', { token, body: { templateId: purchaseTemplate.id, name: 'office chairs', formValues: valuesFor(), ...body }, ...(headers ? { headers } : {}) });
  const contractUrl = (id: string, suffix = '') => `/api/v1/contracts/${id}${suffix}`;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 40, seed: 5 });
    app = fixture.server();
    for (const username of ['admin', 'alice', 'bob', 'carol'] as const) tokens[username] = (await signIn(app, username, password(username))).token;
    const list = okData('templateList', await callEndpoint(app, 'templateList', { token: tokens.alice, query: { q: '采购' } }));
    purchaseTemplate = okData('templateDetail', await call(app, 'GET', `/api/v1/templates/${list.list[0]!.id}`, { token: tokens.alice }));
  });

  describe('templates', () => {
    it('serves a template with its field configs and clauses with statements', () => {
      expect(purchaseTemplate.templateNumber).toBe('MB-001');
      expect(purchaseTemplate.fields.map((f) => f.type)).toContain('inputSelectV2');
      const payment = purchaseTemplate.clauses.find((c) => c.labelID === 'payment')!;
      expect(payment.isNullable).toBe(true);
      expect(payment.statementList[0]).toMatchObject({ id: 1, fieldList: [{ id: 'payDays' }], labelItemList: [{ id: 'pay-once' }] });
    });

    it('numbers a new template from the template rule and refuses a duplicate number', async () => {
      const body = { name: 'lease template', fields: [{ id: 'f1', name: 'rent', type: 'money' }], clauses: [] };
      const created = okData('createTemplate', await callEndpoint(app, 'createTemplate', { token: tokens.alice, body }));
      expect(created).toMatchObject({ templateNumber: 'MB-009', status: 1, version: 1 });
      const duplicate = failure(await callEndpoint(app, 'createTemplate', { token: tokens.alice, body: { ...body, templateNumber: 'MB-001' } }), 409, 'conflict');
      expect(duplicate.message).toContain('MB-001');
    });

    it('answers concurrent creations of one template number with one success and conflicts, never a 500', async () => {
      const body = { name: 'race', templateNumber: 'RACE-1', fields: [] };
      const results = await Promise.all(Array.from({ length: 6 }, () => callEndpoint(app, 'createTemplate', { token: tokens.alice, body })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    });

    it('refuses bad templates naming the field, other users, missing templates and callers without a token', async () => {
      const bad = failure(await callEndpoint(app, 'createTemplate', { token: tokens.alice, body: { name: 't', fields: [{ id: 'f', name: 'x', type: 'nope' }] } }), 400, 'validation_failed');
      expect(bad.issues?.[0]?.path).toBe('fields.0.type');
      const twice = failure(await callEndpoint(app, 'createTemplate', { token: tokens.alice, body: { name: 't', fields: [{ id: 'f', name: 'a', type: 'text' }, { id: 'f', name: 'b', type: 'text' }] } }), 400, 'validation_failed');
      expect(twice.issues?.[0]?.path).toBe('fields.1.id');
      failure(await callEndpoint(app, 'createTemplate', { body: { name: 't', fields: [] } }), 401, 'unauthorized');
      failure(await call(app, 'GET', `/api/v1/templates/${missingId}`, { token: tokens.alice }), 404, 'not_found');
      const body = { name: 'x', fields: [] };
      failure(await call(app, 'PUT', `/api/v1/templates/${purchaseTemplate.id}`, { token: tokens.alice, body }), 403, 'forbidden');
    });

    it('goes through template approval: submit, reject, submit, approve; illegal steps refused', async () => {
      const created = okData('createTemplate', await callEndpoint(app, 'createTemplate', { token: tokens.bob, body: { name: 'approval flow', fields: [] } }));
      const step = (token: string, action: string) => call(app, 'POST', `/api/v1/templates/${created.id}/${action}`, { token, body: {} });
      failure(await step(tokens.admin, 'approve'), 409, 'conflict');
      expect(okData('submitTemplate', await step(tokens.bob, 'submit')).status).toBe(2);
      failure(await step(tokens.bob, 'approve'), 403, 'forbidden');
      expect(okData('rejectTemplate', await step(tokens.admin, 'reject')).status).toBe(3);
      expect(okData('submitTemplate', await step(tokens.bob, 'submit')).status).toBe(2);
      const approved = okData('approveTemplate', await step(tokens.admin, 'approve'));
      expect(approved).toMatchObject({ status: 4, version: 5 });
      const refused = failure(await call(app, 'PUT', `/api/v1/templates/${created.id}`, { token: tokens.bob, body: { name: 'y', fields: [] } }), 409, 'conflict');
      expect(refused.message).toContain('approved');
    });

    it('refuses a template the form engine could not draft from, naming each problem and writing nothing', async () => {
      const [before] = await fixture.db.select({ n: count() }).from(templates);
      const statement = { id: 1, name: 'at once', content: [[{ type: 'text' as const, text: 'pay in ' }, { type: 'field' as const, fieldId: 'days' }]], fieldList: [], labelItemList: [] };
      const body = {
        name: 'broken',
        fields: [
          { id: 'method', name: 'payment method', type: 'select' },
          { id: 'orphan', name: 'orphan clause', type: 'clause' },
          { id: 'a', name: 'a', type: 'number', fieldConfig: { fieldContent: { contentType: 1 }, calculationConditionGroup: { valueList: [{ valueMethod: 1, fieldId: 'b' }], calculationWays: [] } } },
          { id: 'b', name: 'b', type: 'number', fieldConfig: { fieldContent: { contentType: 1 }, calculationConditionGroup: { valueList: [{ valueMethod: 1, fieldId: 'a' }], calculationWays: [] } } },
          { id: 'flag', name: 'flag', type: 'bool', fieldConfig: { calculationConditionGroup: { valueList: [{ valueMethod: 3 }], calculationWays: [] } } },
        ],
        clauses: [{ labelID: 'payment', name: 'payment', isNullable: false, statementList: [statement] }],
      };
      const refused = failure(await callEndpoint(app, 'createTemplate', { token: tokens.alice, body }), 400, 'validation_failed');
      expect(refused.issues).toEqual(
        expect.arrayContaining([
          { path: 'fields.0.options', message: 'add at least one option' },
          { path: 'fields.1.id', message: 'this clause field has no clause' },
          expect.objectContaining({ path: expect.stringMatching(/^fields\.4\.fieldConfig\.calculationConditionGroup\.valueList\.0/) }),
          { path: 'fields.4.fieldConfig.calculationConditionGroup', message: 'only number and money fields can be calculated' },
          { path: 'clauses.0.labelID', message: 'this clause has no field in the form' },
          { path: 'clauses.0.statementList.0.content', message: 'the statement names a field it does not have' },
        ]),
      );
      const [after] = await fixture.db.select({ n: count() }).from(templates);
      expect(after!.n).toBe(before!.n);
      // Without the broken field, the cycle of the calculated fields is named.
      const cycle = failure(await callEndpoint(app, 'createTemplate', { token: tokens.alice, body: { name: 'cycle', fields: body.fields.slice(2, 4) } }), 400, 'validation_failed');
      expect(cycle.issues).toEqual([{ path: 'fields.0.fieldConfig.calculationConditionGroup', message: 'calculated fields depend on each other in a cycle' }]);
      // An update is checked as a creation is, and leaves the template as it was.
      const created = okData('createTemplate', await callEndpoint(app, 'createTemplate', { token: tokens.alice, body: { name: 'fine', fields: [{ id: 'x', name: 'x', type: 'text' }] } }));
      failure(await call(app, 'PUT', `/api/v1/templates/${created.id}`, { token: tokens.alice, body: { name: 'fine', fields: [body.fields[0]] } }), 400, 'validation_failed');
      expect(okData('templateDetail', await call(app, 'GET', `/api/v1/templates/${created.id}`, { token: tokens.alice })).fields).toEqual(created.fields);
    });

    it('lists templates by status with their authors, and moves the catalogue version only when a template is approved', async () => {
      const version = async () => okData('templateCatalogueVersion', await callEndpoint(app, 'templateCatalogueVersion', { token: tokens.carol })).version;
      const start = await version();
      const created = okData('createTemplate', await callEndpoint(app, 'createTemplate', { token: tokens.bob, body: { name: 'catalogue', fields: [] } }));
      const step = (token: string, action: string) => call(app, 'POST', `/api/v1/templates/${created.id}/${action}`, { token, body: {} });
      okData('submitTemplate', await step(tokens.bob, 'submit'));
      expect(await version()).toBe(start);
      const pending = okData('templateList', await callEndpoint(app, 'templateList', { token: tokens.carol, query: { status: 2, pageSize: 100 } }));
      expect(pending.list.every((row) => row.status === 2)).toBe(true);
      expect(pending.list.find((row) => row.id === created.id)).toMatchObject({ createdBy: created.createdBy });
      okData('approveTemplate', await step(tokens.admin, 'approve'));
      const moved = await version();
      expect(moved).not.toBe(start);
      expect(await version()).toBe(moved);
      failure(await callEndpoint(app, 'templateList', { token: tokens.carol, query: { status: 9 } }), 400, 'validation_failed');
    });
  });

  describe('contracts', () => {
    it('creates a contract from a template with an automatic number, stripping the name', async () => {
      const created = okData('createContract', await create(tokens.alice, { name: 'a/b:c*d?"e<f>g|h：i？' }));
      expect(created.name).toBe('abcdefghi');
      expect(created.contractNumber).toMatch(/^PA-\d{4}-0001$/);
      expect(created).toMatchObject({ contractNumberAuto: true, status: 1, version: 1, templateId: purchaseTemplate.id });
      const read = okData('contractDetail', await call(app, 'GET', contractUrl(created.id), { token: tokens.alice }));
      expect(read).toEqual(created);
    });

    it.each([
      { values: { counterparty: Array.from({ length: 11 }, (_, i) => party(`p${i}`)) }, path: 'formValues.counterparty', message: 'at most 10 parties can be added' },
      { values: { relatedContracts: [{ relationType: 1, relatedContracts: [{ contractName: 'a', relationshipID: 1 }] }] }, path: 'formValues.relatedContracts', message: 'related contracts must contain at least two items' },
      { values: { bankAccount: '1234' }, path: 'formValues.bankAccount', message: 'please enter 9-24 characters' },
      { values: { counterparty: [] }, path: 'formValues.counterparty', message: 'please enter 相对方' },
      { values: { unknown: 1 }, path: 'formValues.unknown', message: 'is not a field of this form' },
    ])('refuses $message, writing nothing', async ({ values, path, message }) => {
      const [before] = await fixture.db.select({ n: count() }).from(contracts);
      const error = failure(await create(tokens.alice, { formValues: valuesFor(values) }), 400, 'validation_failed');
      expect(error.issues).toContainEqual({ path, message });
      const [after] = await fixture.db.select({ n: count() }).from(contracts);
      expect(after!.n).toBe(before!.n);
    });

    it('refuses malformed bodies: wrong types, unknown fields, oversize names, bad JSON', async () => {
      failure(await create(tokens.alice, { name: 5 }), 400, 'validation_failed');
      failure(await create(tokens.alice, { colour: 'red' }), 400, 'validation_failed');
      failure(await create(tokens.alice, { name: 'x'.repeat(201) }), 400, 'validation_failed');
      failure(await create(tokens.alice, { name: '::' }), 400, 'validation_failed');
      failure(await call(app, 'POST', '/api/v1/contracts', { token: tokens.alice, rawBody: '{"name":' }), 400, 'bad_request');
      failure(await callEndpoint(app, 'createContract', { body: { name: 'x' } }), 401, 'unauthorized');
    });

    it('lets only number editors give or change a number where a rule applies; refuses duplicates', async () => {
      failure(await create(tokens.alice, { contractNumber: 'MANUAL-1' }), 403, 'forbidden');
      const manual = okData('createContract', await create(tokens.carol, { contractNumber: 'MANUAL-1' }));
      expect(manual).toMatchObject({ contractNumber: 'MANUAL-1', contractNumberAuto: false });
      const duplicate = failure(await create(tokens.carol, { contractNumber: 'MANUAL-1' }), 409, 'conflict');
      expect(duplicate.message).toContain('this number duplicates the following contract numbers');

      const auto = okData('createContract', await create(tokens.alice, {}));
      const body = { name: 'office chairs', contractNumber: 'CHANGED-1', formValues: valuesFor() };
      failure(await call(app, 'PUT', contractUrl(auto.id), { token: tokens.alice, body }), 403, 'forbidden');
      const changed = okData('updateContract', await call(app, 'PUT', contractUrl(auto.id), { token: tokens.admin, body }));
      expect(changed).toMatchObject({ contractNumber: 'CHANGED-1', version: 2 });
      const renamed = okData('updateContract', await call(app, 'PUT', contractUrl(auto.id), { token: tokens.alice, body: { ...body, name: 'desks' } }));
      expect(renamed).toMatchObject({ name: 'desks', contractNumber: 'CHANGED-1', version: 3 });
    });

    it("refuses another department's contract, a missing one, and bad ids", async () => {
      const created = okData('createContract', await create(tokens.alice, {}));
      failure(await call(app, 'GET', contractUrl(created.id), { token: tokens.bob }), 403, 'forbidden');
      failure(await call(app, 'PUT', contractUrl(created.id), { token: tokens.bob, body: { name: 'x', formValues: valuesFor() } }), 403, 'forbidden');
      failure(await call(app, 'DELETE', contractUrl(created.id), { token: tokens.bob }), 403, 'forbidden');
      failure(await call(app, 'GET', contractUrl(missingId), { token: tokens.alice }), 404, 'not_found');
      failure(await call(app, 'PUT', contractUrl(missingId), { token: tokens.alice, body: { name: 'x', formValues: valuesFor() } }), 404, 'not_found');
      failure(await call(app, 'GET', contractUrl("1' or '1'='1"), { token: tokens.alice }), 400, 'validation_failed');
      failure(await call(app, 'GET', contractUrl(created.id)), 401, 'unauthorized');
      const bad = failure(await call(app, 'PUT', contractUrl(created.id), { token: tokens.alice, body: { name: 'x' } }), 400, 'validation_failed');
      expect(bad.issues?.[0]?.path).toBe('formValues');
    });

    it('moves through approval and archive, refusing illegal steps, and records each step', async () => {
      const created = okData('createContract', await create(tokens.alice, {}));
      const step = (token: string, action: string, body: unknown = {}) => call(app, 'POST', contractUrl(created.id, `/${action}`), { token, body });
      const early = failure(await step(tokens.admin, 'approve'), 409, 'conflict');
      expect(early.message).toBe('cannot approve a contract that is drafting: only a contract that is under approval can be');
      expect(okData('submitContract', await step(tokens.alice, 'submit')).status).toBe(2);
      failure(await step(tokens.alice, 'approve'), 403, 'forbidden');
      failure(await call(app, 'PUT', contractUrl(created.id), { token: tokens.alice, body: { name: 'x', formValues: valuesFor() } }), 409, 'conflict');
      expect(okData('approveContract', await step(tokens.admin, 'approve', { comment: 'fine' })).status).toBe(4);
      failure(await step(tokens.alice, 'archive', {}), 400, 'validation_failed');
      // The PDF must be on the server, uploaded for archiving (issue 30).
      const archiveRefusal = failure(await step(tokens.alice, 'archive', { fileId: 'file-1', fileName: 'signed.pdf' }), 409, 'conflict');
      expect(archiveRefusal.reason).toEqual({ key: 'archiveFileMissing' });
      const [aliceRow] = await fixture.db.select().from(users).where(eq(users.username, 'alice'));
      await fixture.db.insert(uploadedFiles).values({
        id: 'file-1', organisationId: aliceRow!.organisationId, uploadedBy: aliceRow!.id, name: 'signed.pdf', extension: 'pdf', mimeType: 'application/pdf', size: 10, sha256: '0'.repeat(64), purpose: 'archive',
      });
      const archived = okData('archiveContract', await step(tokens.alice, 'archive', { fileId: 'file-1', fileName: 'signed.pdf' }));
      expect(archived).toMatchObject({ status: 5, archiveFileId: 'file-1', version: 4 });
      failure(await step(tokens.alice, 'submit'), 409, 'conflict');
      failure(await call(app, 'DELETE', contractUrl(created.id), { token: tokens.alice }), 409, 'conflict');
      const records = await fixture.db.select().from(approvalRecords).where(eq(approvalRecords.subjectId, created.id));
      expect(records.map((r) => [r.action, r.fromStatus, r.toStatus])).toEqual([['submit', 1, 2], ['approve', 2, 4], ['archive', 4, 5]]);
    });

    it('alters an approved contract: only alterable fields, with the changed values recorded', async () => {
      const created = okData('createContract', await create(tokens.alice, { formValues: valuesFor({ remark: 'old' }) }));
      const step = (token: string, action: string) => call(app, 'POST', contractUrl(created.id, `/${action}`), { token, body: {} });
      const alter = (body: unknown) => call(app, 'POST', contractUrl(created.id, '/alterations'), { token: tokens.alice, body });
      failure(await alter({ formValues: { remark: 'new' }, reason: 'price change' }), 409, 'conflict');
      okData('submitContract', await step(tokens.alice, 'submit'));
      okData('approveContract', await step(tokens.admin, 'approve'));
      const refused = failure(await alter({ formValues: { contractName: 'other' }, reason: 'r' }), 400, 'validation_failed');
      expect(refused.issues).toEqual([{ path: 'formValues.contractName', message: 'this field cannot be altered' }]);
      failure(await alter({ formValues: { bankAccount: 'short' }, reason: 'r' }), 400, 'validation_failed');
      failure(await alter({ formValues: {}, reason: 'r' }), 400, 'validation_failed');
      const altered = okData('alterContract', await alter({ formValues: { remark: 'new', bankAccount: '6222-0000-1111' }, reason: 'bank changed' }));
      expect(altered.alteration.changes).toEqual([
        { fieldId: 'remark', name: '备注', before: 'old', after: 'new' },
        { fieldId: 'bankAccount', name: '收款账号', before: null, after: '6222-0000-1111' },
      ]);
      expect(altered.contract.formValues).toMatchObject({ remark: 'new', contractName: 'office chairs' });
      const list = okData('contractAlterations', await call(app, 'GET', contractUrl(created.id, '/alterations'), { token: tokens.alice }));
      expect(list.list).toEqual([{ ...altered.alteration, userName: '王爱丽 Alice Wang' }]);
      failure(await call(app, 'GET', contractUrl(created.id, '/alterations'), { token: tokens.bob }), 403, 'forbidden');
    });

    it('keeps the ledger terms (counterparty, amount, signing date) in step with the form on create, save and alter', async () => {
      const [known] = await fixture.db.select({ id: counterparties.id, name: counterparties.name }).from(counterparties).where(eq(counterparties.type, 2)).limit(1);
      const ledgerRow = async (id: string) => {
        const row = (await selectContractRows(fixture.db).where(eq(contracts.id, id)))[0]!;
        return { counterpartName: row.counterpartName, amount: row.amount, amountUnit: row.amountUnit, signDate: row.signDate };
      };
      const values = valuesFor({ counterparty: [{ id: known!.id, name: known!.name }], amount: { amount: 1_234_500, unit: 'CNY' }, signDate: '2026-10-08' });
      const created = okData('createContract', await create(tokens.alice, { formValues: values }));
      expect(await ledgerRow(created.id)).toEqual({ counterpartName: known!.name, amount: 1_234_500, amountUnit: 'CNY', signDate: '2026-10-08' });
      // A party typed in by the name of a known counterparty is that counterparty; an unknown one is none.
      const saved = { name: 'office chairs', formValues: { ...values, counterparty: [party(known!.name)], amount: { amount: 99_00, unit: 'USD' }, signDate: undefined } };
      okData('updateContract', await call(app, 'PUT', contractUrl(created.id), { token: tokens.alice, body: saved }));
      expect(await ledgerRow(created.id)).toEqual({ counterpartName: known!.name, amount: 99_00, amountUnit: 'USD', signDate: null });
      okData('updateContract', await call(app, 'PUT', contractUrl(created.id), { token: tokens.alice, body: { ...saved, formValues: valuesFor({ counterparty: [party('nobody we know')] }) } }));
      expect(await ledgerRow(created.id)).toEqual({ counterpartName: null, amount: null, amountUnit: null, signDate: null });
      okData('updateContract', await call(app, 'PUT', contractUrl(created.id), { token: tokens.alice, body: { name: 'office chairs', formValues: values } }));
      okData('submitContract', await call(app, 'POST', contractUrl(created.id, '/submit'), { token: tokens.alice, body: {} }));
      okData('approveContract', await call(app, 'POST', contractUrl(created.id, '/approve'), { token: tokens.admin, body: {} }));
      okData('alterContract', await call(app, 'POST', contractUrl(created.id, '/alterations'), { token: tokens.alice, body: { formValues: { amount: { amount: 2_000_000, unit: 'CNY' } }, reason: 'price agreed again' } }));
      expect(await ledgerRow(created.id)).toMatchObject({ counterpartName: known!.name, amount: 2_000_000, amountUnit: 'CNY', signDate: '2026-10-08' });
    });

    it('deletes a draft', async () => {
      const created = okData('createContract', await create(tokens.alice, {}));
      expect(okData('deleteContract', await call(app, 'DELETE', contractUrl(created.id), { token: tokens.alice }))).toEqual({ id: created.id, deleted: true });
      failure(await call(app, 'GET', contractUrl(created.id), { token: tokens.alice }), 404, 'not_found');
    });
  });

  describe('write safety', () => {
    it('replays a create under the same Idempotency-Key: same result, one contract', async () => {
      const headers = { 'idempotency-key': 'create-once-1' };
      const first = okData('createContract', await create(tokens.alice, { name: 'idempotent' }, headers));
      const again = okData('createContract', await create(tokens.alice, { name: 'idempotent' }, headers));
      expect(again).toEqual(first);
      const rows = await fixture.db.select().from(contracts).where(eq(contracts.name, 'idempotent'));
      expect(rows).toHaveLength(1);
      const reused = failure(await create(tokens.alice, { name: 'something else' }, headers), 409, 'conflict');
      expect(reused.message).toContain('already used for a different request');
      // Keys are per user: the same key from another user is a new write.
      okData('createContract', await create(tokens.carol, { name: 'idempotent' }, headers));
      failure(await create(tokens.alice, {}, { 'idempotency-key': 'x'.repeat(201) }), 400, 'bad_request');
    });

    it('applies concurrent replays once', async () => {
      const headers = { 'idempotency-key': 'concurrent-1' };
      const results = await Promise.all(Array.from({ length: 8 }, () => create(tokens.alice, { name: 'concurrent replay' }, headers)));
      const ids = new Set(results.map((r) => okData('createContract', r).id));
      expect(ids.size).toBe(1);
      const rows = await fixture.db.select().from(contracts).where(eq(contracts.name, 'concurrent replay'));
      expect(rows).toHaveLength(1);
    });

    it('replays a state change without a second effect', async () => {
      const created = okData('createContract', await create(tokens.alice, {}));
      const submit = () => call(app, 'POST', contractUrl(created.id, '/submit'), { token: tokens.alice, body: {}, headers: { 'idempotency-key': `submit-${created.id}` } });
      const first = okData('submitContract', await submit());
      expect(okData('submitContract', await submit())).toEqual(first);
      const records = await fixture.db.select().from(approvalRecords).where(eq(approvalRecords.subjectId, created.id));
      expect(records).toHaveLength(1);
    });

    it('replays a delete as the first response instead of a 404', async () => {
      const created = okData('createContract', await create(tokens.alice, {}));
      const remove = () => call(app, 'DELETE', contractUrl(created.id), { token: tokens.alice, headers: { 'idempotency-key': `delete-${created.id}` } });
      const first = okData('deleteContract', await remove());
      expect(okData('deleteContract', await remove())).toEqual(first);
      failure(await call(app, 'DELETE', contractUrl(created.id), { token: tokens.alice }), 404, 'not_found');
    });

    it('refuses a stale If-Match with 409 and the current row; accepts the current version', async () => {
      const created = okData('createContract', await create(tokens.alice, {}));
      const body = { name: 'renamed', formValues: valuesFor() };
      const updated = okData('updateContract', await call(app, 'PUT', contractUrl(created.id), { token: tokens.alice, body, headers: { 'if-match': '"1"' } }));
      expect(updated.version).toBe(2);
      const stale = await call(app, 'PUT', contractUrl(created.id), { token: tokens.alice, body: { ...body, name: 'lost' }, headers: { 'if-match': '1' } });
      const error = failure(stale, 409, 'conflict');
      expect(error.data).toEqual(updated);
      failure(await call(app, 'DELETE', contractUrl(created.id), { token: tokens.alice, headers: { 'if-match': 'W/"1"' } }), 409, 'conflict');
      failure(await call(app, 'PUT', contractUrl(created.id), { token: tokens.alice, body, headers: { 'if-match': 'latest' } }), 400, 'bad_request');
      const [row] = await fixture.db.select().from(contracts).where(eq(contracts.id, created.id));
      expect(row).toMatchObject({ name: 'renamed', version: 2 });
      okData('deleteContract', await call(app, 'DELETE', contractUrl(created.id), { token: tokens.alice, headers: { 'if-match': '2' } }));
    });

    it('refuses a stale If-Match on a template with the current template', async () => {
      const created = okData('createTemplate', await callEndpoint(app, 'createTemplate', { token: tokens.alice, body: { name: 'versioned', fields: [] } }));
      const url = `/api/v1/templates/${created.id}`;
      okData('updateTemplate', await call(app, 'PUT', url, { token: tokens.alice, body: { name: 'v2', fields: [] }, headers: { 'if-match': '1' } }));
      const error = failure(await call(app, 'PUT', url, { token: tokens.alice, body: { name: 'v3', fields: [] }, headers: { 'if-match': '1' } }), 409, 'conflict');
      expect(error.data).toMatchObject({ id: created.id, name: 'v2', version: 2 });
      const [row] = await fixture.db.select().from(templates).where(eq(templates.id, created.id));
      expect(row!.name).toBe('v2');
    });
  });

  describe('form support', () => {
    it('lists fields and pages a field\'s options', async () => {
      const fields = okData('fieldList', await callEndpoint(app, 'fieldList', { token: tokens.alice, query: { q: '成本' } }));
      expect(fields.list).toHaveLength(1);
      const url = `/api/v1/fields/${fields.list[0]!.id}/dynamic_select`;
      const pages = await Promise.all([1, 2, 3].map(async (pageNum) => okData('dynamicSelect', await call(app, 'GET', url, { token: tokens.alice, query: { pageNum, pageSize: 50 } }))));
      expect(pages.map((p) => p.list.length)).toEqual([50, 50, 20]);
      expect(new Set(pages.flatMap((p) => p.list.map((o) => o.id))).size).toBe(120);
      expect(pages[0]!.count).toBe(120);
      const found = okData('dynamicSelect', await call(app, 'GET', url, { token: tokens.alice, query: { q: 'CC-0012' } }));
      expect(found.list.map((o) => o.name)).toEqual(['CC-0012']);
      const percent = okData('dynamicSelect', await call(app, 'GET', url, { token: tokens.alice, query: { q: "%'_" } }));
      expect(percent.list).toEqual([]);
      failure(await call(app, 'GET', url, { token: tokens.alice, query: { pageNum: 0 } }), 400, 'validation_failed');
      failure(await call(app, 'GET', '/api/v1/fields/nope/dynamic_select', { token: tokens.alice }), 404, 'not_found');
      failure(await call(app, 'GET', url), 401, 'unauthorized');
    });

    it('lists the offline archive places', async () => {
      const places = okData('offlineArchiveSettings', await callEndpoint(app, 'offlineArchiveSettings', { token: tokens.alice }));
      expect(places.list.map((p) => p.name)).toContain('总部档案室');
      failure(await callEndpoint(app, 'offlineArchiveSettings'), 401, 'unauthorized');
    });

    it('lists contracts to relate, only those the user sees', async () => {
      const query = { relationType: 3, type: 1 };
      const alice = okData('contractsForRelated', await callEndpoint(app, 'contractsForRelated', { token: tokens.alice, query }));
      const visible = okData('contractList', await callEndpoint(app, 'contractList', { token: tokens.alice, query: { pageSize: 100 } }));
      const visibleIds = new Set(visible.list.map((c) => c.id));
      expect(alice.list.length).toBeGreaterThan(0);
      expect(alice.list.every((c) => visibleIds.has(c.id))).toBe(true);
      failure(await callEndpoint(app, 'contractsForRelated', { token: tokens.alice, query: { relationType: 'x' } }), 400, 'validation_failed');
      failure(await callEndpoint(app, 'contractsForRelated', { query }), 401, 'unauthorized');
    });
  });
});
