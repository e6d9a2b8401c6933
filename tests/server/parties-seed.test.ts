import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { isValidBankAccount } from '../../src-shared/rules/counterparties';
import { seedDatabase } from '../../src-server/index';
import { describeOnDatabases, queryRows } from './support';

// The parties' demo data: present, consistent with the rules, and the same for the same seed.

describeOnDatabases('parties demo data', (fixture) => {
  const counts = async () =>
    (await queryRows<Record<string, number>>(fixture.db, sql`select
      (select count(*)::int from counterparties) as parties, (select count(*)::int from counterparty_banks) as banks,
      (select count(*)::int from counterparty_contacts) as contacts, (select count(*)::int from counterparty_registrations) as registrations,
      (select count(*)::int from counterparty_risks) as risks, (select count(*)::int from law_firms) as firms, (select count(*)::int from lawyers) as lawyers,
      (select count(*)::int from scoring_criteria) as criteria, (select count(*)::int from score_results) as scores,
      (select count(*)::int from projects) as projects, (select count(*)::int from contracts where project_id is not null) as project_contracts,
      (select count(*)::int from ip_organizations) as ip_organizations, (select count(*)::int from intellectual_properties) as rights`))[0]!;
  let first: Record<string, number>;

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 600, seed: 21 });
    first = await counts();
  });

  it('writes every kind of party row', () => {
    expect(first.parties).toBe(500);
    for (const key of ['banks', 'contacts', 'registrations', 'risks', 'lawyers', 'scores', 'project_contracts', 'ip_organizations']) {
      expect(first[key], key).toBeGreaterThan(0);
    }
    expect(first).toMatchObject({ firms: 30, criteria: 6, projects: 60, rights: 400 });
  });

  it('keeps the rules: bank accounts, ratings, scores within full marks, project contracts of the creator’s department', async () => {
    const accounts = await queryRows<{ account: string }>(fixture.db, sql`select account from counterparty_banks`);
    expect(accounts.every((a) => isValidBankAccount(a.account))).toBe(true);
    const ratings = await queryRows<{ rating: number }>(fixture.db, sql`select distinct rating from counterparties where type = 2`);
    expect(ratings.map((r) => r.rating).sort((a, b) => a - b)).toEqual([0, 10, 20, 30, 40]);
    const [bad] = await queryRows<{ n: number }>(fixture.db, sql`select count(*)::int as n from score_results where total_score > max_total_score or total_score < 0`);
    expect(bad!.n).toBe(0);
    const [foreign] = await queryRows<{ n: number }>(fixture.db, sql`
      select count(*)::int as n from contracts c join projects p on p.id = c.project_id join users u on u.id = p.created_by
      where c.department_id is distinct from u.department_id`);
    expect(foreign!.n).toBe(0);
  });

  it('writes the same rows again for the same seed', async () => {
    const before = await queryRows<{ id: string }>(fixture.db, sql`select id from intellectual_properties order by id`);
    await seedDatabase(fixture.db, { contracts: 600, seed: 21 });
    expect(await counts()).toEqual(first);
    expect(await queryRows<{ id: string }>(fixture.db, sql`select id from intellectual_properties order by id`)).toEqual(before);
  });
});
