import { expect, it } from 'vitest';
import { ledgerTaskTotals } from '../../src-server/ledger/schema';
import { runMaintenance, startMaintenance } from '../../src-server/maintenance';
import { describeOnDatabases } from './support';

describeOnDatabases('server maintenance', (fixture) => {
  it('folds the ledger totals at start, and a failing task is reported without stopping the round', async () => {
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

    const broken = { execute: () => Promise.reject(new Error('connection lost')) } as unknown as typeof fixture.db;
    await runMaintenance(broken, (message) => warnings.push(message));
    expect(warnings).toEqual(['maintenance: folding ledger_task_totals failed: connection lost']);
  });
});
