import { sql } from 'drizzle-orm';
import type { ServerDb } from '../db/database';

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
