-- The ledger search (src-server/ledger/search.ts). Its default order, newest change first, per
-- performance and overall: a page is the first rows of one of these indexes, joined to contracts.
CREATE INDEX "performance_tasks_update_time_idx" ON "performance_tasks" ("update_time" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "performance_tasks_performance_update_time_idx" ON "performance_tasks" ("performance_id", "update_time" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "performance_tasks_expiration_time_idx" ON "performance_tasks" ("expiration_time", "id");
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
