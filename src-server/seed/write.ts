import { sql } from 'drizzle-orm';
import { hashPassword } from '../auth/password';
import type { ServerDb } from '../db/database';
import { contracts, counterparties, departments, organisations, users } from '../db/schema';
import { seedLedger } from '../ledger/seed';
import { demoUsers } from './catalogue';
import { generateDemoData } from './generate';

export interface SeedSummary {
  departments: number;
  users: number;
  counterparties: number;
  contracts: number;
}

/** Rows per INSERT: 15 columns × 1,000 rows stays well under PostgreSQL's 65,535 parameters. */
const batchSize = 1000;

function batches<T>(rows: readonly T[]): T[][] {
  return Array.from({ length: Math.ceil(rows.length / batchSize) }, (_, i) => rows.slice(i * batchSize, (i + 1) * batchSize));
}

/**
 * Replaces everything in the database with the demo data of `seed`, in one transaction: seeding
 * twice clears and rewrites the same rows (same ids), and signs everybody out. The change
 * sequence is not reset, so a client's cursor stays below the rewritten rows and it re-pulls them.
 */
export async function seedDatabase(db: ServerDb, options: { contracts: number; seed: number }): Promise<SeedSummary> {
  const data = generateDemoData(options);
  // One hash per distinct password: they are published in the README, and scrypt is slow on purpose.
  const hashes = new Map<string, Promise<string>>();
  for (const { password } of data.users) if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  const userRows = await Promise.all(
    data.users.map(async ({ password, ...user }) => ({ ...user, passwordHash: await hashes.get(password)! })),
  );

  await db.transaction(async (tx) => {
    await tx.execute(
      sql`truncate table ledger_scenes, contract_transfers, case_type_templates, case_types, workflows, contracts, contract_tombstones, processed_mutations, counterparties, auth_sessions, login_failures, users, departments, organisations cascade`,
    );
    // Truncation leaves no tombstones: every cursor from before must resync (positions: migration 0003).
    await tx.execute(sql`update sync_horizon set pruned_through = pg_current_xact_id()::text::bigint << 24`);
    await tx.insert(organisations).values(data.organisation);
    await tx.insert(departments).values(data.departments);
    await tx.insert(users).values(userRows);
    for (const batch of batches(data.counterparties)) await tx.insert(counterparties).values(batch);
    for (const batch of batches(data.contracts)) await tx.insert(contracts).values(batch);
    const demoNames = new Set(demoUsers.map((user) => user.username));
    await seedLedger(tx, { seed: options.seed, organisationId: data.organisation.id, userIds: data.users.filter((u) => demoNames.has(u.username)).map((u) => u.id) });
  });
  return {
    departments: data.departments.length,
    users: userRows.length,
    counterparties: data.counterparties.length,
    contracts: data.contracts.length,
  };
}
