import { sql } from 'drizzle-orm';
import { hashPassword } from '../auth/password';
import type { ServerDb } from '../db/database';
import { seedCounterpartyDetails, withCounterpartyDetails } from '../counterparties/seed';
import { contracts, counterparties, departments, organisations, users } from '../db/schema';
import { seedContractForms } from '../contract-forms/seed';
import { seedTemplateDocuments, writeSeededFiles, type SeededFile } from '../contract-document/seed';
import { seedNumbering } from '../numbering/seed';
import { seedPerformance } from '../performance/seed';
import { compactLedgerTaskTotals } from '../ledger/totals';
import { seedIntellectualProperty } from '../intellectual-property/seed';
import { seedLawFirms } from '../law-firms/seed';
import { projects } from '../projects/schema';
import { generateProjects } from '../projects/seed';
import { seedScoring } from '../scoring/seed';
import { insertInBatches } from './batch';
import { withFormValues } from './form-values';
import { generateDemoData, seedBaseDate } from './generate';
import { seedLedger } from '../ledger/seed';
import { demoUsers } from './catalogue';

export interface SeedSummary {
  departments: number;
  users: number;
  counterparties: number;
  contracts: number;
  performanceTasks: number;
}

/**
 * Replaces everything in the database with the demo data of `seed`, in one transaction: seeding
 * twice clears and rewrites the same rows (same ids), and signs everybody out. The change
 * sequence is not reset, so a client's cursor stays below the rewritten rows and it re-pulls them.
 */
export async function seedDatabase(db: ServerDb, options: { contracts: number; seed: number; filesDir?: string | undefined }): Promise<SeedSummary> {
  const data = generateDemoData(options);
  // One hash per distinct password: they are published in the README, and scrypt is slow on purpose.
  const hashes = new Map<string, Promise<string>>();
  for (const { password } of data.users) if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  const userRows = await Promise.all(
    data.users.map(async ({ password, ...user }) => ({ ...user, passwordHash: await hashes.get(password)! })),
  );

  const base = seedBaseDate.getTime();
  const organisationId = data.organisation.id;
  const staff = data.users.filter((u) => u.role === 'staff');
  const parties = withCounterpartyDetails(data.counterparties, options.seed);
  const projectData = generateProjects({ organisationId, staff, contracts: data.contracts }, options.seed, base);

  let documentFiles: SeededFile[] = [];
  const performance = await db.transaction(async (tx) => {
    // Every table of every feature except the sync horizon, read from the catalogue so a new
    // feature's table cannot be forgotten here.
    await tx.execute(sql`
      do $$ begin
        execute (select 'truncate table ' || string_agg(format('%I', tablename), ', ') || ' cascade'
                 from pg_tables where schemaname = 'public' and tablename <> 'sync_horizon');
      end $$`);
    // Truncation leaves no tombstones: every cursor from before must resync (positions: migration 0003).
    await tx.execute(sql`update sync_horizon set pruned_through = pg_current_xact_id()::text::bigint << 24`);
    await tx.insert(organisations).values(data.organisation);
    await tx.insert(departments).values(data.departments);
    await tx.insert(users).values(userRows);
    await insertInBatches(tx, counterparties, parties);
    await seedCounterpartyDetails(tx, parties, options.seed, base);
    await insertInBatches(tx, projects, projectData.projects);
    // The contracts are drafted from the seeded templates, which name the seeded contract types.
    const numbering = await seedNumbering(tx, data, options.seed, seedBaseDate);
    const templates = await seedContractForms(tx, data, numbering, options.seed, seedBaseDate);
    const uploadedBy = data.users.find((u) => u.role === 'admin')!.id;
    documentFiles = await seedTemplateDocuments(tx, templates, { organisationId, uploadedBy, seed: options.seed, at: seedBaseDate });
    const contractRows = withFormValues(data.contracts, { templates, parties, users: data.users, departments: data.departments }, options.seed).map((c) => ({
      ...c,
      projectId: projectData.projectOf.get(c.id) ?? null,
    }));
    await insertInBatches(tx, contracts, contractRows);
    await seedLawFirms(tx, organisationId, options.seed, base);
    await seedScoring(tx, { organisationId, contracts: contractRows, parties, scorers: staff.map((u) => u.id) }, options.seed, base);
    await seedIntellectualProperty(tx, { organisationId, creators: staff.map((u) => u.id) }, options.seed, base);
    const demoNames = new Set(demoUsers.map((user) => user.username));
    await seedLedger(tx, { seed: options.seed, organisationId, userIds: data.users.filter((u) => demoNames.has(u.username)).map((u) => u.id) });
    const written = await seedPerformance(tx, { seed: options.seed, organisationId, users: userRows, baseDate: seedBaseDate });
    // The batches of records left one addition per batch and group in the ledger's kept totals.
    await compactLedgerTaskTotals(tx);
    return written;
  });
  // Fresh statistics of every table filled: without them the planner takes the first pages of the
  // change feed for a few rows, and sorts every contract for each page (where autovacuum is off
  // or has not come round yet, as right after a seed).
  await db.execute(sql`analyze`);
  // The templates' documents (without a files folder, as in tests of the database alone, only their rows).
  if (options.filesDir) await writeSeededFiles(options.filesDir, documentFiles);
  return {
    departments: data.departments.length,
    users: userRows.length,
    counterparties: data.counterparties.length,
    contracts: data.contracts.length,
    performanceTasks: performance.tasks,
  };
}
