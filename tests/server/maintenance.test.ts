import { expect, it } from 'vitest';
import { loginThrottle } from '../../src-server/auth/throttle';
import { loginThrottles, users } from '../../src-server/db/schema';
import { idempotencyKeys } from '../../src-server/http/schema';
import { idempotencyKeyRetentionDays } from '../../src-server/http/write-safety';
import { seedDatabase } from '../../src-server/index';
import { ledgerTaskTotals } from '../../src-server/ledger/schema';
import { runMaintenance, startMaintenance } from '../../src-server/maintenance';
import { describeOnDatabases } from './support';

describeOnDatabases('server maintenance', (fixture) => {
  it('folds the ledger totals at start, and a failing task is reported without stopping the others', async () => {
    const group = { performanceId: 'p', responsibleUserId: 'u', departmentId: null, businessHandlerUserId: null };
    await fixture.db.insert(ledgerTaskTotals).values([
      { ...group, count: 3 },
      { ...group, count: 2 },
      { ...group, performanceId: 'q', count: 4 },
      { ...group, performanceId: 'q', count: -4 },
    ]);
    const warnings: string[] = [];
    await startMaintenance(fixture.db, (message) => warnings.push(message), 60_000)();
    expect(await fixture.db.select().from(ledgerTaskTotals)).toEqual([{ ...group, count: 5 }]);
    expect(warnings).toEqual([]);

    const lost = () => Promise.reject(new Error('connection lost'));
    const broken = { execute: lost, delete: () => ({ where: lost }), select: () => ({ from: lost }) } as unknown as typeof fixture.db;
    await runMaintenance(broken, (message) => warnings.push(message));
    expect(warnings).toEqual([
      'maintenance: folding ledger_task_totals failed: connection lost',
      'maintenance: pruning idempotency_keys failed: connection lost',
      'maintenance: pruning login_throttles failed: connection lost',
      'maintenance: pruning audit_events past their retention failed: connection lost',
    ]);
  });

  it('drops idempotency keys older than the kept horizon and keeps the newer ones', async () => {
    await seedDatabase(fixture.db, { contracts: 1, seed: 3 });
    const [user] = await fixture.db.select().from(users).limit(1);
    const now = new Date('2026-11-21T12:00:00Z');
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
    const key = (name: string, createTime: Date) => ({ userId: user!.id, key: name, requestHash: 'h', status: 200, createTime });
    await fixture.db.insert(idempotencyKeys).values([key('old', daysAgo(idempotencyKeyRetentionDays + 1)), key('recent', daysAgo(idempotencyKeyRetentionDays - 1))]);
    await runMaintenance(fixture.db, () => undefined, now);
    expect((await fixture.db.select().from(idempotencyKeys)).map((row) => row.key)).toEqual(['recent']);
  });

  it('drops sign-in throttle pairs idle longer than they are remembered', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const pair = (address: string, lastAttemptAt: Date) => ({ username: 'alice', address, attempts: 7, lastAttemptAt, nextAttemptAt: lastAttemptAt });
    await fixture.db.insert(loginThrottles).values([pair('old', ago(loginThrottle.forgetAfterMs + 1)), pair('recent', ago(loginThrottle.forgetAfterMs - 1000))]);
    await runMaintenance(fixture.db, () => undefined, now);
    expect((await fixture.db.select().from(loginThrottles)).map((row) => row.address)).toEqual(['recent']);
  });
});
