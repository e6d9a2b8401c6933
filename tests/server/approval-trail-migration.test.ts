import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { migrationsFolder } from '../../src-server/db/database';
import { contracts, users } from '../../src-server/db/schema';
import { approvalRecords } from '../../src-server/contract-forms/schema';
import { seedDatabase } from '../../src-server/index';
import { describeOnDatabases } from './support';

// Server migration 0039 (issue 29): the approval steps recorded before it are written into each
// contract's approval trail, oldest first, with who, the comment and both times (the apply time
// where no device time was kept), without moving the contracts down the feed.

describeOnDatabases('migration 0039: the approval trail of the steps recorded before', (fixture) => {
  it('writes each contract its steps from approval_records, leaving its version and feed position as they were', async () => {
    await seedDatabase(fixture.db, { contracts: 3, seed: 38 });
    const [contract] = await fixture.db.select({ id: contracts.id, version: contracts.version, changeSeq: contracts.changeSeq }).from(contracts).limit(1);
    const [user] = await fixture.db.select({ id: users.id, name: users.displayName }).from(users).limit(1);
    const steps = [
      { id: 'r2', action: 'approve', fromStatus: 2 as const, toStatus: 4 as const, comment: 'fine', takenAt: null, createTime: new Date('2026-11-21T10:00:00.000Z') },
      { id: 'r1', action: 'submit', fromStatus: 1 as const, toStatus: 2 as const, comment: null, takenAt: new Date('2026-11-20T08:00:00.000Z'), createTime: new Date('2026-11-20T09:30:00.000Z') },
    ];
    await fixture.db.insert(approvalRecords).values(steps.map((step) => ({ ...step, subjectKind: 'contract' as const, subjectId: contract!.id, userId: user!.id })));
    await fixture.db.insert(approvalRecords).values({ id: 'r3', subjectKind: 'template', subjectId: contract!.id, action: 'submit', fromStatus: 1, toStatus: 2, userId: user!.id, createTime: new Date() });

    // The migration's backfill, as it runs on a database that has these records.
    const text = readFileSync(path.join(migrationsFolder, '0039_contract_approval_trail.sql'), 'utf8');
    const statements = text.split('--> statement-breakpoint').map((s) => s.replace(/^--.*$/gm, '').trim()).filter((s) => s.startsWith('ALTER TABLE contracts') || s.startsWith('UPDATE'));
    expect(statements).toHaveLength(3);
    for (const statement of statements) await fixture.db.execute(sql.raw(statement));

    const [after] = await fixture.db.select({ trail: contracts.approvalTrail, version: contracts.version, changeSeq: contracts.changeSeq }).from(contracts).where(eq(contracts.id, contract!.id));
    expect(after!.trail).toEqual([
      { action: 'submit', fromStatus: 1, toStatus: 2, userId: user!.id, userName: user!.name, comment: null, takenAt: '2026-11-20T08:00:00.000Z', appliedAt: '2026-11-20T09:30:00.000Z' },
      { action: 'approve', fromStatus: 2, toStatus: 4, userId: user!.id, userName: user!.name, comment: 'fine', takenAt: '2026-11-21T10:00:00.000Z', appliedAt: '2026-11-21T10:00:00.000Z' },
    ]);
    expect({ version: after!.version, changeSeq: after!.changeSeq }).toEqual({ version: contract!.version, changeSeq: contract!.changeSeq });
    const others = await fixture.db.select({ trail: contracts.approvalTrail }).from(contracts).where(sql`${contracts.id} <> ${contract!.id}`);
    expect(others.every((row) => row.trail.length === 0)).toBe(true);
  });
});
