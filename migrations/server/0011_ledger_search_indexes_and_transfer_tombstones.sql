-- The ledger search (src-server/ledger/search.ts). Its default order, newest change first, per
-- performance and overall: a page is the first rows of one of these indexes, joined to contracts.
CREATE INDEX "performance_tasks_update_time_idx" ON "performance_tasks" ("update_time" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "performance_tasks_performance_update_time_idx" ON "performance_tasks" ("performance_id", "update_time" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "performance_tasks_expiration_time_idx" ON "performance_tasks" ("expiration_time", "id");
--> statement-breakpoint
-- Filters that narrow to a part of the records (a state, an amount range) and their counts.
CREATE INDEX "performance_tasks_state_idx" ON "performance_tasks" ("state", "performance_id");
--> statement-breakpoint
CREATE INDEX "performance_tasks_receivable_amount_idx" ON "performance_tasks" ("receivable_amount") WHERE "receivable_amount" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "performance_tasks_payable_amount_idx" ON "performance_tasks" ("payable_amount") WHERE "payable_amount" IS NOT NULL;
--> statement-breakpoint
-- The contract-side part of a search word (src-server/ledger/search.ts, `q`).
CREATE INDEX "contracts_contract_number_idx" ON "contracts" ("contract_number");
--> statement-breakpoint
-- Visibility now includes the business handler (src-server/contracts/repository.ts).
CREATE INDEX "contracts_business_handler_user_idx" ON "contracts" ("business_handler_user_id");
--> statement-breakpoint
-- Contains-searches (ILIKE '%word%') on task and contract names use trigram indexes where the
-- pg_trgm extension is available (PostgreSQL ships it; PGlite only when loaded), and fall back to
-- scans otherwise.
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available: ledger name searches scan';
  END;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX performance_tasks_name_trgm_idx ON performance_tasks USING gin (name gin_trgm_ops)';
    EXECUTE 'CREATE INDEX contracts_name_trgm_idx ON contracts USING gin (name gin_trgm_ops)';
    EXECUTE 'CREATE INDEX contracts_contract_number_trgm_idx ON contracts USING gin (contract_number gin_trgm_ops)';
  END IF;
END;
$$;
--> statement-breakpoint
-- Scene names are unique per user. Deferred to commit, so that one save may swap two names; the
-- scene writes hold a per-user lock and check first, so this only guards against bugs.
ALTER TABLE "ledger_scenes" ADD CONSTRAINT "ledger_scenes_user_name_key" UNIQUE ("user_id", "name") DEFERRABLE INITIALLY DEFERRED;
--> statement-breakpoint
-- Replaces the function of migration 0003. A transfer also moves the business handler: when the
-- former handler was not also the responsible person, a second tombstone names them, so that
-- they too lose the contract in the change feed unless they still see it (as an agent, by
-- department), in which case the new row that follows gives it back.
CREATE OR REPLACE FUNCTION contracts_take_change_seq() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.responsible_user_id IS DISTINCT FROM NEW.responsible_user_id
      OR OLD.department_id IS DISTINCT FROM NEW.department_id) THEN
    INSERT INTO contract_tombstones (change_seq, contract_id, responsible_user_id, department_id)
      VALUES (sync_next_change_position(), OLD.id, OLD.responsible_user_id, OLD.department_id);
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.business_handler_user_id IS DISTINCT FROM NEW.business_handler_user_id
      AND OLD.business_handler_user_id IS DISTINCT FROM OLD.responsible_user_id THEN
    INSERT INTO contract_tombstones (change_seq, contract_id, responsible_user_id, department_id)
      VALUES (sync_next_change_position(), OLD.id, OLD.business_handler_user_id, NULL);
  END IF;
  NEW.change_seq := sync_next_change_position();
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- ledger_task_counts follows performance_tasks, one statement at a time (transition tables, so a
-- batch insert costs one grouped upsert), with the owner columns of each record's contract. An
-- update only matters when it moves a record to another contract or performance. Each branch
-- names only the transition tables its event has (PL/pgSQL plans a statement when it first runs it).
CREATE FUNCTION ledger_task_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ledger_task_counts AS k (contract_id, performance_id, count, responsible_user_id, department_id, business_handler_user_id)
    SELECT c.id, coalesce(n.performance_id, ''), count(*), c.responsible_user_id, c.department_id, c.business_handler_user_id
    FROM new_rows n JOIN contracts c ON c.id = n.contract_id
    GROUP BY c.id, coalesce(n.performance_id, '')
    ON CONFLICT (contract_id, performance_id) DO UPDATE SET count = k.count + excluded.count;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE ledger_task_counts k SET count = k.count - d.n
    FROM (SELECT contract_id, coalesce(performance_id, '') AS performance_id, count(*) AS n FROM old_rows WHERE contract_id IS NOT NULL GROUP BY 1, 2) d
    WHERE k.contract_id = d.contract_id AND k.performance_id = d.performance_id;
  ELSE
    INSERT INTO ledger_task_counts AS k (contract_id, performance_id, count, responsible_user_id, department_id, business_handler_user_id)
    SELECT c.id, moved.performance_id, sum(moved.delta), c.responsible_user_id, c.department_id, c.business_handler_user_id
    FROM (
      SELECT o.contract_id, coalesce(o.performance_id, '') AS performance_id, -1 AS delta FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE o.contract_id IS NOT NULL AND (n.contract_id IS DISTINCT FROM o.contract_id OR n.performance_id IS DISTINCT FROM o.performance_id)
      UNION ALL
      SELECT n.contract_id, coalesce(n.performance_id, ''), 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE n.contract_id IS NOT NULL AND (n.contract_id IS DISTINCT FROM o.contract_id OR n.performance_id IS DISTINCT FROM o.performance_id)
    ) moved
    JOIN contracts c ON c.id = moved.contract_id
    GROUP BY c.id, moved.performance_id
    ON CONFLICT (contract_id, performance_id) DO UPDATE SET count = k.count + excluded.count;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_task_counts_insert AFTER INSERT ON performance_tasks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_task_counts_apply();
--> statement-breakpoint
CREATE TRIGGER ledger_task_counts_update AFTER UPDATE ON performance_tasks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_task_counts_apply();
--> statement-breakpoint
CREATE TRIGGER ledger_task_counts_delete AFTER DELETE ON performance_tasks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_task_counts_apply();
--> statement-breakpoint
-- A transfer or a move to another department: the kept counts follow the contract's owners.
CREATE FUNCTION ledger_task_counts_follow_owners() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger_task_counts
    SET responsible_user_id = NEW.responsible_user_id, department_id = NEW.department_id, business_handler_user_id = NEW.business_handler_user_id
    WHERE contract_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_task_counts_follow_owners AFTER UPDATE OF responsible_user_id, department_id, business_handler_user_id ON contracts
  FOR EACH ROW WHEN (OLD.responsible_user_id IS DISTINCT FROM NEW.responsible_user_id OR OLD.department_id IS DISTINCT FROM NEW.department_id
    OR OLD.business_handler_user_id IS DISTINCT FROM NEW.business_handler_user_id)
  EXECUTE FUNCTION ledger_task_counts_follow_owners();
--> statement-breakpoint
-- Records written before this migration.
INSERT INTO ledger_task_counts (contract_id, performance_id, count, responsible_user_id, department_id, business_handler_user_id)
SELECT c.id, coalesce(t.performance_id, ''), count(*), c.responsible_user_id, c.department_id, c.business_handler_user_id
FROM performance_tasks t JOIN contracts c ON c.id = t.contract_id
GROUP BY c.id, coalesce(t.performance_id, '');
