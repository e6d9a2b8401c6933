import { asc, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractStatuses } from '../../src-shared/domain/enums';
import { contracts, counterparties, departments, organisations, templates, users } from '../../src-server/db/schema';
import { templateClauses } from '../../src-server/contract-forms/schema';
import type { FieldConfig } from '../../src-shared/domain/contract-forms';
import { formFieldsSchema } from '../../src-shared/form/field-config';
import { FormValidation } from '../../src-shared/form/validation';
import { cleanContractForm, isAlterable } from '../../src-shared/rules/contract-forms';
import { contractTerms } from '../../src-shared/rules/contract-terms';
import { generateDemoData, seedBaseDate } from '../../src-server/seed/generate';
import { demoUsers, seedDatabase, type ServerDb } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, failure, signIn } from './support';

/** Everything the seed writes, minus what is random by design (password salts) or server-assigned (change_seq). */
async function snapshot(db: ServerDb) {
  return {
    organisations: await db.select().from(organisations).orderBy(asc(organisations.id)),
    departments: await db.select().from(departments).orderBy(asc(departments.id)),
    users: (await db.select().from(users).orderBy(asc(users.id))).map(({ passwordHash: _hash, ...user }) => user),
    counterparties: await db.select().from(counterparties).orderBy(asc(counterparties.id)),
    contracts: (await db.select().from(contracts).orderBy(asc(contracts.id))).map(({ changeSeq: _seq, ...contract }) => contract),
  };
}

describe('demo data generation', () => {
  it('is a pure function of the seed', () => {
    expect(generateDemoData({ contracts: 200, seed: 4 })).toEqual(generateDemoData({ contracts: 200, seed: 4 }));
    expect(generateDemoData({ contracts: 200, seed: 4 }).contracts).not.toEqual(generateDemoData({ contracts: 200, seed: 5 }).contracts);
  });
});

describeOnDatabases('seed', (fixture) => {
  let first: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    const summary = await seedDatabase(fixture.db, { contracts: 2000, seed: 21 });
    expect(summary).toEqual({ departments: 8, users: 30, counterparties: 500, contracts: 2000, performanceTasks: expect.any(Number) });
    // About 4 tasks per contract (2 to 6 each), plus a few quick tasks of the demo users.
    expect(summary.performanceTasks / 2000).toBeGreaterThan(3.5);
    expect(summary.performanceTasks / 2000).toBeLessThan(4.5);
    first = await snapshot(fixture.db);
  });

  it('leaves fresh statistics of the tables it filled, so the feed\'s first pages are planned for their real size', async () => {
    const { rows } = (await fixture.db.execute(
      sql`select relname as name, reltuples::float8 as rows from pg_class where relname in ('contracts', 'performance_plans', 'performance_tasks') order by relname`,
    )) as unknown as { rows: { name: string; rows: number }[] };
    expect(rows.map((row) => row.name)).toEqual(['contracts', 'performance_plans', 'performance_tasks']);
    // reltuples is -1 (or 0) until the table is analysed; ANALYZE of a table this small counts it exactly.
    expect(rows.find((row) => row.name === 'contracts')!.rows).toBe(2000);
    for (const row of rows) expect(row.rows).toBeGreaterThan(1000);
  });

  it('writes an organisation, departments with a hierarchy, ~30 users and 500 counterparties of every kind', () => {
    expect(first.organisations).toHaveLength(1);
    expect(first.departments.some((d) => d.parentId !== null)).toBe(true);
    expect(new Set(first.users.map((u) => u.departmentId)).size).toBe(first.departments.length);
    for (const demo of demoUsers) {
      const user = first.users.find((u) => u.username === demo.username);
      expect(user?.role).toBe(demo.role);
      expect(first.departments.find((d) => d.id === user?.departmentId)?.name).toBe(demo.department);
    }
    const names = first.counterparties.map((c) => c.name);
    expect(names.filter((n) => /[\u4e00-\u9fff]/.test(n)).length).toBeGreaterThan(250);
    expect(names.filter((n) => /^[A-Za-z]/.test(n)).length).toBeGreaterThan(100);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(first.counterparties.map((c) => `${c.type}/${c.subtype}`))).toEqual(new Set(['1/1', '2/1', '2/2']));
  });

  it('writes realistic contracts: numbers, statuses, money, dates and owners across departments', () => {
    const rows = first.contracts;
    const numbers = rows.flatMap((c) => (c.contractNumber ? [c.contractNumber] : []));
    expect(numbers.every((n) => /^HT-20\d\d-\d{6}$/.test(n))).toBe(true);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(rows.filter((c) => c.contractNumber === null).every((c) => c.status === 1)).toBe(true);

    const statuses = new Set(rows.map((c) => c.status));
    for (const status of [...contractStatuses, null]) expect(statuses).toContain(status);
    expect(rows.filter((c) => c.status === null).length).toBeLessThan(rows.length * 0.06);

    const priced = rows.filter((c) => c.amount !== null);
    expect(priced.every((c) => Number.isSafeInteger(c.amount) && c.amount! > 0 && c.amountUnit !== null)).toBe(true);
    expect(priced.filter((c) => c.amountUnit === 'CNY').length).toBeGreaterThan(priced.length * 0.7);
    expect(rows.some((c) => c.amount === null)).toBe(true);

    const twoYearsBefore = seedBaseDate.getTime() - 731 * 24 * 60 * 60 * 1000;
    for (const c of rows) {
      expect(c.createTime.getTime()).toBeGreaterThanOrEqual(twoYearsBefore);
      expect(c.updateTime.getTime()).toBeGreaterThanOrEqual(c.createTime.getTime());
      expect(c.updateTime.getTime()).toBeLessThanOrEqual(seedBaseDate.getTime());
      expect(c.signDate !== null).toBe(c.status === 4 || c.status === 5);
    }
    expect(rows.some((c) => c.name.startsWith('采购合同 - '))).toBe(true);
    expect(rows.some((c) => c.name.startsWith('Service agreement - '))).toBe(true);
    expect(new Set(rows.map((c) => c.departmentId)).size).toBe(first.departments.length);
    for (const username of ['alice', 'bob']) {
      const owner = first.users.find((u) => u.username === username)!;
      expect(rows.some((c) => c.responsibleUserId === owner.id)).toBe(true);
    }
  });

  it("drafts every contract from its type's seeded template with form values the save rules accept, and the ledger columns say the same", async () => {
    const templateRows = await fixture.db.select().from(templates);
    const clauseRows = await fixture.db.select().from(templateClauses);
    const byId = new Map(templateRows.map((t) => [t.id, t]));
    expect(new Set(first.contracts.map((c) => c.templateId)).size).toBe(templateRows.length);
    const validation = new FormValidation();
    for (const contract of first.contracts) {
      const template = byId.get(contract.templateId!);
      expect(template, contract.id).toBeDefined();
      const fields = template!.fields as FieldConfig[];
      expect([contract.templateName, contract.contractTypeId]).toEqual([template!.name, template!.contractTypeId]);
      // What the server checks on every save, and the form's own rules (dates, clauses, money) as the desktop runs them.
      expect(cleanContractForm(contract.name, fields, contract.formValues).issues, contract.id).toEqual([]);
      expect(validation.issues(formFieldsSchema.parse(fields), contract.formValues), contract.id).toEqual([]);
      const terms = contractTerms(fields, contract.formValues);
      expect(terms.counterparty?.id ?? null).toBe(contract.counterpartyId);
      expect(terms.amount ?? null).toEqual(contract.amount === null ? null : { amount: contract.amount, unit: contract.amountUnit });
      expect(terms.signDate).toBe(contract.signDate);
      expect(contract.formValues.contractName).toBe(contract.name);
      expect(contract.formValues.contractNumber ?? null).toBe(contract.contractNumber);
      expect(contract.formValues.contractType).toBe(contract.contractTypeId);
      expect(contract.formValues.responsiblePerson).toEqual([expect.objectContaining({ id: contract.responsibleUserId })]);
    }
    // Clauses get a chosen statement, with values for the statement's fields.
    const withPayment = first.contracts.filter((c) => c.formValues.payment !== undefined);
    expect(withPayment.length).toBeGreaterThan(first.contracts.length / 2);
    expect(withPayment.some((c) => Object.values((c.formValues.payment as { values: object }).values).length > 0)).toBe(true);
    expect(clauseRows.length).toBeGreaterThan(templateRows.length);
    // Approved contracts can be altered: their templates have alterable fields holding values.
    const alterable = first.contracts.filter(
      (c) => c.status === 4 && (byId.get(c.templateId!)!.fields as FieldConfig[]).some((f) => isAlterable(f) && c.formValues[f.id] !== undefined),
    );
    expect(alterable.length).toBeGreaterThan(first.contracts.filter((c) => c.status === 4).length * 0.9);
  });

  it('rewrites the very same rows when run again with the same seed, and signs everybody out', async () => {
    const app = fixture.server();
    const { token } = await signIn(app, 'alice', 'alice123');
    await seedDatabase(fixture.db, { contracts: 2000, seed: 21 });
    expect(await snapshot(fixture.db)).toEqual(first);
    failure(await callEndpoint(app, 'me', { token }), 401, 'unauthorized');
    await signIn(app, 'alice', 'alice123');
    // Seeding 2,000 contracts again takes 15 s on a quiet machine, twice that on a busy one.
  }, 120_000);

  it('writes different data for a different seed', async () => {
    await seedDatabase(fixture.db, { contracts: 2000, seed: 22 });
    const other = await snapshot(fixture.db);
    expect(other.contracts.map((c) => c.id)).not.toEqual(first.contracts.map((c) => c.id));
    expect(other.users.map((u) => u.username)).toEqual(expect.arrayContaining(demoUsers.map((u) => u.username)));
  }, 120_000);
});
