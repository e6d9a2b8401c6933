import { and, eq, sql } from 'drizzle-orm';
import { visibleTo, type Viewer } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { contractAgents } from '../db/schema';
import { ledgerTaskCounts, ledgerTaskTotals } from './schema';

/**
 * Folds the additions in ledger_task_totals into one row per group, in one statement: readers see
 * either the additions or their sum, and rows that writers append meanwhile are left for next time.
 */
export async function compactLedgerTaskTotals(db: ServerDb): Promise<void> {
  await db.execute(sql`
    with folded as (delete from ledger_task_totals returning *)
    insert into ledger_task_totals (performance_id, responsible_user_id, department_id, business_handler_user_id, count)
    select performance_id, responsible_user_id, department_id, business_handler_user_id, sum(count)
    from folded group by 1, 2, 3, 4 having sum(count) <> 0`);
}

/**
 * The ledger records (tasks with a contract) the viewer may see, of one performance or all
 * (null), from the kept counts: the per-group totals whose owner columns the viewer may see,
 * plus, for the contracts the viewer acts for as an agent (the one per-contract part of the
 * visibility rule), their per-contract counts where the owner columns do not already show them.
 */
export async function countLedgerRecords(db: ServerDb, viewer: Viewer, performanceId: string | null): Promise<number> {
  const g = ledgerTaskTotals;
  const k = ledgerTaskCounts;
  const byOwners = sql`(select coalesce(sum(${g.count}), 0) from ${g} where ${and(
    performanceId ? eq(g.performanceId, performanceId) : undefined,
    visibleTo(viewer, { responsibleUserId: g.responsibleUserId, departmentId: g.departmentId, businessHandlerUserId: g.businessHandlerUserId }),
  ) ?? sql`true`})`;
  const ownerOfCount = { responsibleUserId: k.responsibleUserId, departmentId: k.departmentId, businessHandlerUserId: k.businessHandlerUserId };
  const asAgent =
    viewer.role === 'admin'
      ? sql`0`
      : sql`(select coalesce(sum(${k.count}), 0) from ${k} where ${and(
          performanceId ? eq(k.performanceId, performanceId) : undefined,
          sql`${k.contractId} = any(array(select ${contractAgents.contractId} from ${contractAgents} where ${contractAgents.userId} = ${viewer.id}))`,
          sql`not coalesce(${visibleTo(viewer, ownerOfCount)}, false)`,
        )})`;
  const { rows } = (await db.execute(sql`select ${byOwners} + ${asAgent} as total`)) as unknown as { rows: { total: string | number }[] };
  return Number(rows[0]?.total ?? 0);
}
