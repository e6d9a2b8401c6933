CREATE TABLE "performance_plan_tombstones" (
	"change_seq" bigint PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"contract_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "performance_plans" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "performance_plan_tombstones_created_at_idx" ON "performance_plan_tombstones" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "performance_plans_change_seq_idx" ON "performance_plans" USING btree ("change_seq");--> statement-breakpoint
-- Plans join the change feed (issue 13) as tasks did (migration 0013): positions on write, a
-- tombstone on delete, and a new position whenever their contract changes hands (so whoever
-- gains the contract gets its plans) or their performance's sheet columns or completion form
-- change (a plan carries both, for the desktop's sheet and finish dialog offline).
CREATE TRIGGER performance_plans_take_change_seq
  BEFORE INSERT OR UPDATE ON performance_plans
  FOR EACH ROW EXECUTE FUNCTION sync_take_change_seq();
--> statement-breakpoint
CREATE FUNCTION performance_plans_leave_tombstone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO performance_plan_tombstones (change_seq, plan_id, contract_id)
    VALUES (sync_next_change_position(), OLD.id, OLD.contract_id);
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER performance_plans_leave_tombstone
  AFTER DELETE ON performance_plans
  FOR EACH ROW EXECUTE FUNCTION performance_plans_leave_tombstone();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION performance_tasks_follow_contract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE performance_plans SET change_seq = 0 WHERE contract_id = NEW.id;
  UPDATE performance_tasks SET change_seq = 0 WHERE contract_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contracts_follow_agents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO contract_tombstones (change_seq, contract_id, responsible_user_id, department_id)
      SELECT sync_next_change_position(), OLD.contract_id, OLD.user_id, NULL
      WHERE EXISTS (SELECT 1 FROM contracts WHERE id = OLD.contract_id);
    UPDATE contracts SET change_seq = 0 WHERE id = OLD.contract_id;
    UPDATE performance_plans SET change_seq = 0 WHERE contract_id = OLD.contract_id;
    UPDATE performance_tasks SET change_seq = 0 WHERE contract_id = OLD.contract_id;
  ELSE
    UPDATE contracts SET change_seq = 0 WHERE id = NEW.contract_id;
    UPDATE performance_plans SET change_seq = 0 WHERE contract_id = NEW.contract_id;
    UPDATE performance_tasks SET change_seq = 0 WHERE contract_id = NEW.contract_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION performance_plans_follow_performance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE performance_plans SET change_seq = 0 WHERE performance_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER performance_plans_follow_performance AFTER UPDATE OF name, type, fields, columns ON performances
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.type IS DISTINCT FROM NEW.type
    OR OLD.fields IS DISTINCT FROM NEW.fields OR OLD.columns IS DISTINCT FROM NEW.columns)
  EXECUTE FUNCTION performance_plans_follow_performance();
--> statement-breakpoint
-- Plans written before this migration, in one transaction: positions in table order.
UPDATE performance_plans SET change_seq = 0;
