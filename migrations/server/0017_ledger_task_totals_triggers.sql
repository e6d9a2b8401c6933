-- ledger_task_totals follows ledger_task_counts (src-server/ledger/schema.ts): each statement that
-- changes ledger_task_counts appends, per performance and owner triple, what it added or took
-- away; nothing is ever updated in place, so concurrent writers never wait on a shared row. Each
-- branch names only the transition tables its event has.
CREATE FUNCTION ledger_task_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ledger_task_totals (performance_id, responsible_user_id, department_id, business_handler_user_id, count)
    SELECT performance_id, responsible_user_id, department_id, business_handler_user_id, sum(count)
    FROM new_rows GROUP BY 1, 2, 3, 4 HAVING sum(count) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO ledger_task_totals (performance_id, responsible_user_id, department_id, business_handler_user_id, count)
    SELECT performance_id, responsible_user_id, department_id, business_handler_user_id, -sum(count)
    FROM old_rows GROUP BY 1, 2, 3, 4 HAVING sum(count) <> 0;
  ELSE
    INSERT INTO ledger_task_totals (performance_id, responsible_user_id, department_id, business_handler_user_id, count)
    SELECT performance_id, responsible_user_id, department_id, business_handler_user_id, sum(delta)
    FROM (
      SELECT performance_id, responsible_user_id, department_id, business_handler_user_id, count AS delta FROM new_rows
      UNION ALL
      SELECT performance_id, responsible_user_id, department_id, business_handler_user_id, -count FROM old_rows
    ) moved
    GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_task_totals_insert AFTER INSERT ON ledger_task_counts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_task_totals_apply();
--> statement-breakpoint
CREATE TRIGGER ledger_task_totals_update AFTER UPDATE ON ledger_task_counts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_task_totals_apply();
--> statement-breakpoint
CREATE TRIGGER ledger_task_totals_delete AFTER DELETE ON ledger_task_counts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_task_totals_apply();
--> statement-breakpoint
-- Emptying performance_tasks at once (TRUNCATE fires no delete triggers) empties both kept counts.
-- DELETE, not TRUNCATE: the same TRUNCATE statement may be emptying these tables too.
CREATE FUNCTION ledger_task_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ledger_task_counts;
  DELETE FROM ledger_task_totals;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_task_counts_clear AFTER TRUNCATE ON performance_tasks FOR EACH STATEMENT EXECUTE FUNCTION ledger_task_counts_clear();
--> statement-breakpoint
-- Counts kept before this migration.
INSERT INTO ledger_task_totals (performance_id, responsible_user_id, department_id, business_handler_user_id, count)
SELECT performance_id, responsible_user_id, department_id, business_handler_user_id, sum(count)
FROM ledger_task_counts GROUP BY 1, 2, 3, 4 HAVING sum(count) <> 0;
--> statement-breakpoint
-- The ledger's amount-range filters count their matches from the index alone (an index-only
-- scan needs the contract id, which the count checks), instead of visiting a heap page per match.
DROP INDEX "performance_tasks_receivable_amount_idx";
--> statement-breakpoint
CREATE INDEX "performance_tasks_receivable_amount_idx" ON "performance_tasks" ("receivable_amount") INCLUDE ("contract_id") WHERE "receivable_amount" IS NOT NULL;
--> statement-breakpoint
DROP INDEX "performance_tasks_payable_amount_idx";
--> statement-breakpoint
CREATE INDEX "performance_tasks_payable_amount_idx" ON "performance_tasks" ("payable_amount") INCLUDE ("contract_id") WHERE "payable_amount" IS NOT NULL;
--> statement-breakpoint
-- The same for a task state within a performance (the per-performance tabs' state filter).
DROP INDEX "performance_tasks_state_idx";
--> statement-breakpoint
CREATE INDEX "performance_tasks_state_idx" ON "performance_tasks" ("state", "performance_id") INCLUDE ("contract_id");
--> statement-breakpoint
-- A state filter within a performance pages this index in the default order (newest change
-- first) instead of walking every record's update time and dropping the other states.
CREATE INDEX "performance_tasks_performance_state_update_time_idx" ON "performance_tasks" ("performance_id", "state", "update_time" DESC, "id" DESC);
