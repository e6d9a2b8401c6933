import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../src-server/db/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { DateTime } from 'luxon';
import { numberingZone } from '../../src-shared/rules/numbering';
import { callEndpoint, describeOnDatabases, failure, okData, signIn, TestClock } from './support';

const account = (username: string) => demoUsers.find((u) => u.username === username)!;

describeOnDatabases('numbering', (fixture) => {
  let app: FastifyInstance;
  let admin: string;
  let alice: string;
  let userIds: Record<string, string>;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 60, seed: 7 });
    app = fixture.server();
    admin = (await signIn(app, 'admin', account('admin').password)).token;
    alice = (await signIn(app, 'alice', account('alice').password)).token;
    const rows = await fixture.db.select({ id: users.id, username: users.username }).from(users);
    userIds = Object.fromEntries(rows.map((r) => [r.username, r.id]));
  });

  it('lists the seeded contract types, and refuses a caller without a token', async () => {
    const types = okData('contractTypeList', await callEndpoint(app, 'contractTypeList', { token: alice }));
    expect(types.list.map((t) => t.name)).toContain('采购合同');
    failure(await callEndpoint(app, 'contractTypeList'), 401, 'unauthorized');
  });

  it('serves the seeded contract rules: per contract type, yearly reset, recount false', async () => {
    const rules = okData('contractNumberRules', await callEndpoint(app, 'contractNumberRules', { token: alice }));
    expect(rules.ruleScope).toBe(1);
    expect(rules.list.length).toBeGreaterThan(5);
    expect(rules.list.every((r) => r.resetCycle === 4 && !r.recount && r.inUse && r.digits === 4)).toBe(true);
    failure(await callEndpoint(app, 'contractNumberRules'), 401, 'unauthorized');
  });

  it('previews the next number of each rule and the rule for a contract type', async () => {
    const types = okData('contractTypeList', await callEndpoint(app, 'contractTypeList', { token: alice })).list;
    const preview = okData('contractNumberRulesPreview', await callEndpoint(app, 'contractNumberRulesPreview', { token: alice }));
    expect(preview.list).toHaveLength(types.length);
    const purchase = types.find((t) => t.name === '采购合同')!;
    const auto = okData('contractNumberAutoPreview', await callEndpoint(app, 'contractNumberAutoPreview', { token: alice, query: { contractTypeID: purchase.id } }));
    expect(auto.list).toHaveLength(1);
    expect(auto.list[0]).toMatchObject({ conditionType: 1, values: [purchase.id], referenceFields: ['contractType'] });
    expect(auto.list[0]!.format).toMatch(/^PA-\d{4}-0001$/);
    const none = okData('contractNumberAutoPreview', await callEndpoint(app, 'contractNumberAutoPreview', { token: alice }));
    expect(none.list).toEqual([]);
    const template = okData('templateNumberRulesPreview', await callEndpoint(app, 'templateNumberRulesPreview', { token: alice }));
    expect(template.list.map((r) => r.format)).toEqual(['MB-009']);
  });

  it('saves a rule set with the spec defaults (admins only), putting its scope in use', async () => {
    const saved = okData('saveTemplateNumberRules', await callEndpoint(app, 'saveTemplateNumberRules', { token: admin, body: { ruleScope: 0, rules: [{}] } }));
    expect(saved.ruleScope).toBe(0);
    expect(saved.list.find((r) => r.inUse)).toMatchObject({ digits: 1, startNumber: 1, resetStartNumber: 1, isNatural: true, resetCycle: 0, recount: true, scopeId: null });
    const digits = okData('saveTemplateNumberRules', await callEndpoint(app, 'saveTemplateNumberRules', { token: admin, body: { ruleScope: 0, rules: [{ digits: 3, isNatural: false }] } }));
    expect(digits.list.filter((r) => r.inUse)).toHaveLength(1);
    expect(digits.list.find((r) => r.inUse)).toMatchObject({ digits: 3, isNatural: false, version: 3 });

    failure(await callEndpoint(app, 'saveTemplateNumberRules', { token: alice, body: { ruleScope: 0, rules: [{}] } }), 403, 'forbidden');
    failure(await callEndpoint(app, 'saveTemplateNumberRules', { body: { ruleScope: 0, rules: [{}] } }), 401, 'unauthorized');
  });

  it('refuses bad rule sets naming the field, and unknown scope ids', async () => {
    const cases: [unknown, string][] = [
      [{ ruleScope: 0, rules: [{ digits: 0 }] }, 'rules.0.digits'],
      [{ ruleScope: 0, rules: [{ resetCycle: 5 }] }, 'rules.0.resetCycle'],
      [{ ruleScope: 4, rules: [{}] }, 'ruleScope'],
      [{ ruleScope: 0, rules: [{ startNum: 'one' }] }, 'rules.0.startNum'],
      [{ ruleScope: 0, rules: [{}], extra: 1 }, '(root)'],
      [{ ruleScope: 1, rules: [{}] }, 'rules.0.scopeId'],
      [{ ruleScope: 0, rules: [{}, {}] }, 'rules'],
    ];
    for (const [body, path] of cases) {
      const error = failure(await callEndpoint(app, 'saveContractNumberRules', { token: admin, body }), 400, 'validation_failed');
      expect(error.issues?.map((i) => i.path), JSON.stringify(body)).toContain(path);
    }
    const missing = { ruleScope: 1, rules: [{ scopeId: '0190a0a0-0000-7000-8000-000000000000' }] };
    failure(await callEndpoint(app, 'saveContractNumberRules', { token: admin, body: missing }), 404, 'not_found');
  });

  it('saves, lists and deletes abbreviations with a date format', async () => {
    const saved = okData('saveTemplateNumberAbbrSetting', await callEndpoint(app, 'saveTemplateNumberAbbrSetting', { token: admin, body: { ruleScope: 0, abbr: 'TPL', dateFormat: 1 } }));
    expect(saved).toMatchObject({ abbr: 'TPL', dateFormat: 1, ruleScope: 0, scopeId: null });
    const list = okData('templateNumberAbbrSettings', await callEndpoint(app, 'templateNumberAbbrSettings', { token: alice }));
    expect(list.list).toHaveLength(1);
    const preview = okData('templateNumberRulesPreview', await callEndpoint(app, 'templateNumberRulesPreview', { token: alice }));
    expect(preview.list[0]!.format).toMatch(/^TPL-\d{6}-009$/);

    const bad = failure(await callEndpoint(app, 'saveTemplateNumberAbbrSetting', { token: admin, body: { ruleScope: 0, abbr: 'a b', dateFormat: 7 } }), 400, 'validation_failed');
    expect(bad.issues?.map((i) => i.path).sort()).toEqual(['abbr', 'dateFormat']);
    failure(await callEndpoint(app, 'saveTemplateNumberAbbrSetting', { token: alice, body: { ruleScope: 0, abbr: 'X' } }), 403, 'forbidden');

    const deleted = okData('deleteTemplateNumberAbbrSetting', await callEndpoint(app, 'deleteTemplateNumberAbbrSetting', { token: admin, query: { id: saved.id } }));
    expect(deleted).toEqual({ id: saved.id, deleted: true });
    failure(await callEndpoint(app, 'deleteTemplateNumberAbbrSetting', { token: admin, query: { id: saved.id } }), 404, 'not_found');
    failure(await callEndpoint(app, 'deleteTemplateNumberAbbrSetting', { token: admin, query: { id: '' } }), 400, 'validation_failed');
  });

  it('keeps the number editors: everybody reads them, only admins save them', async () => {
    const seeded = okData('contractNumberEditors', await callEndpoint(app, 'contractNumberEditors', { token: alice }));
    expect(seeded.editors.sort()).toEqual([userIds.admin, userIds.carol].sort());
    const saved = okData('saveContractNumberEditors', await callEndpoint(app, 'saveContractNumberEditors', { token: admin, body: { editors: [userIds.admin, userIds.carol, userIds.bob] } }));
    expect(saved.editors).toHaveLength(3);
    failure(await callEndpoint(app, 'saveContractNumberEditors', { token: alice, body: { editors: [userIds.alice] } }), 403, 'forbidden');
    failure(await callEndpoint(app, 'saveContractNumberEditors', { token: admin, body: { editors: 'all' } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'saveContractNumberEditors', { token: admin, body: { editors: ['nobody'] } }), 404, 'not_found');
  });

  it('designates a main department (admins only)', async () => {
    const [sales] = await fixture.db.select({ departmentId: users.departmentId }).from(users).where(eq(users.username, 'bob'));
    const body = { userId: userIds.alice!, departmentId: sales!.departmentId! };
    expect(okData('designateDepartment', await callEndpoint(app, 'designateDepartment', { token: admin, body }))).toEqual(body);
    failure(await callEndpoint(app, 'designateDepartment', { token: alice, body }), 403, 'forbidden');
    failure(await callEndpoint(app, 'designateDepartment', { token: admin, body: { ...body, userId: 'nobody' } }), 404, 'not_found');
    failure(await callEndpoint(app, 'designateDepartment', { token: admin, body: { userId: body.userId } }), 400, 'validation_failed');
  });

  it('checks duplicates: one number, all numbers, and an empty number', async () => {
    const empty = failure(await callEndpoint(app, 'contractNumberCheckDuplicate', { token: admin, query: { contractNumber: '  ' } }), 400, 'validation_failed');
    expect(empty.message).toContain('please enter the number');
    expect(empty.issues?.[0]?.path).toBe('contractNumber');
    const none = okData('contractNumberCheckDuplicate', await callEndpoint(app, 'contractNumberCheckDuplicate', { token: admin, query: { contractNumber: "x'; drop table contracts; --" } }));
    expect(none.list).toEqual([]);
    const all = okData('contractNumberCheckDuplicate', await callEndpoint(app, 'contractNumberCheckDuplicate', { token: admin, query: { checkAll: 'true' } }));
    expect(all.list.every((d) => d.contractList.length > 1)).toBe(true);
    const templates = okData('templateNumberCheckDuplicate', await callEndpoint(app, 'templateNumberCheckDuplicate', { token: admin, query: { contractNumber: 'MB-001' } }));
    expect(templates.list).toHaveLength(1);
    expect(templates.list[0]!.contractList).toHaveLength(1);
    failure(await callEndpoint(app, 'contractNumberCheckDuplicate', { token: admin, query: { contractNumber: 'a', other: 1 } }), 400, 'validation_failed');
    failure(await callEndpoint(app, 'contractNumberCheckDuplicate', { query: { contractNumber: 'a' } }), 401, 'unauthorized');
  });

  it('allocates 50 distinct consecutive numbers to 50 concurrent contract creations', async () => {
    okData('saveContractNumberRules', await callEndpoint(app, 'saveContractNumberRules', { token: admin, body: { ruleScope: 0, rules: [{ digits: 3, isNatural: false, startNum: 11 }] } }));
    okData('saveContractNumberAbbrSetting', await callEndpoint(app, 'saveContractNumberAbbrSetting', { token: admin, body: { ruleScope: 0, abbr: 'CC' } }));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => callEndpoint(app, 'createContract', { token: i % 2 ? alice : admin, body: { name: `concurrent ${i}` } })),
    );
    const numbers = results.map((r) => okData('createContract', r).contractNumber!);
    expect(new Set(numbers).size).toBe(50);
    expect(numbers.sort()).toEqual(Array.from({ length: 50 }, (_, i) => `CC-${String(11 + i).padStart(3, '0')}`));
    expect(results.every((r) => okData('createContract', r).contractNumberAuto)).toBe(true);
  });

  it('restarts the serial at the restart number when the reset period changes', async () => {
    const clock = new TestClock();
    const timed = fixture.server(clock);
    // A rule never used before: its first period starts at the start number.
    const contractTypeId = okData('contractTypeList', await callEndpoint(timed, 'contractTypeList', { token: admin })).list[1]!.id;
    const rules = { ruleScope: 1, rules: [{ scopeId: contractTypeId, digits: 2, isNatural: false, startNum: 5, reStartNum: 1, resetCycle: 3 }] };
    okData('saveContractNumberRules', await callEndpoint(timed, 'saveContractNumberRules', { token: admin, body: rules }));
    const abbr = { ruleScope: 1, scopeId: contractTypeId, abbr: 'MR', dateFormat: 1 };
    okData('saveContractNumberAbbrSetting', await callEndpoint(timed, 'saveContractNumberAbbrSetting', { token: admin, body: abbr }));
    let token = admin;
    const next = async () =>
      okData('createContract', await callEndpoint(timed, 'createContract', { token, body: { name: 'monthly', contractTypeId } })).contractNumber;
    const month = () => DateTime.fromJSDate(clock.now(), { zone: numberingZone }).toFormat('yyyyMM');
    const thisMonth = month();
    expect([await next(), await next()]).toEqual([`MR-${thisMonth}-05`, `MR-${thisMonth}-06`]);
    clock.advance(32 * 24 * 60 * 60 * 1000);
    token = (await signIn(timed, 'admin', account('admin').password)).token;
    expect([await next(), await next()]).toEqual([`MR-${month()}-01`, `MR-${month()}-02`]);
  });
});
