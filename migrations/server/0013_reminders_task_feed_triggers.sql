-- Performance tasks and reminder settings join the change feed (src-server/sync/pull.ts), with
-- positions from sync_next_change_position() (migration 0003) exactly like contracts.
CREATE FUNCTION sync_take_change_seq() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_seq := sync_next_change_position();
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER performance_tasks_take_change_seq
  BEFORE INSERT OR UPDATE ON performance_tasks
  FOR EACH ROW EXECUTE FUNCTION sync_take_change_seq();
--> statement-breakpoint
CREATE TRIGGER reminder_settings_take_change_seq
  BEFORE INSERT OR UPDATE ON reminder_settings
  FOR EACH ROW EXECUTE FUNCTION sync_take_change_seq();
--> statement-breakpoint
CREATE FUNCTION performance_tasks_leave_tombstone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO performance_task_tombstones (change_seq, task_id, contract_id, created_by, leader_user_id)
    VALUES (sync_next_change_position(), OLD.id, OLD.contract_id, OLD.created_by, OLD.leader_user_id);
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER performance_tasks_leave_tombstone
  AFTER DELETE ON performance_tasks
  FOR EACH ROW EXECUTE FUNCTION performance_tasks_leave_tombstone();
--> statement-breakpoint
-- Whoever gains a contract (transfer, new department) must also get its tasks: they take new
-- positions after the contract's own new row (an AFTER trigger), so a client applies the contract
-- first. Whoever lost it gets the contract's tombstone, which removes its tasks on the client.
CREATE FUNCTION performance_tasks_follow_contract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE performance_tasks SET change_seq = 0 WHERE contract_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER performance_tasks_follow_contract_owners AFTER UPDATE OF responsible_user_id, department_id, business_handler_user_id ON contracts
  FOR EACH ROW WHEN (OLD.responsible_user_id IS DISTINCT FROM NEW.responsible_user_id OR OLD.department_id IS DISTINCT FROM NEW.department_id
    OR OLD.business_handler_user_id IS DISTINCT FROM NEW.business_handler_user_id)
  EXECUTE FUNCTION performance_tasks_follow_contract();
--> statement-breakpoint
-- An agent added or removed changes who sees the contract too. A removed agent gets a tombstone
-- naming them (as the former business handler does, migration 0011); then the contract takes a
-- new position (its own trigger) and its tasks after it, so an added agent gets both, and whoever
-- still sees it gets it back. (Each branch names only its event's row: PL/pgSQL plans a
-- statement when it first runs it.)
CREATE FUNCTION contracts_follow_agents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO contract_tombstones (change_seq, contract_id, responsible_user_id, department_id)
      SELECT sync_next_change_position(), OLD.contract_id, OLD.user_id, NULL
      WHERE EXISTS (SELECT 1 FROM contracts WHERE id = OLD.contract_id);
    UPDATE contracts SET change_seq = 0 WHERE id = OLD.contract_id;
    UPDATE performance_tasks SET change_seq = 0 WHERE contract_id = OLD.contract_id;
  ELSE
    UPDATE contracts SET change_seq = 0 WHERE id = NEW.contract_id;
    UPDATE performance_tasks SET change_seq = 0 WHERE contract_id = NEW.contract_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER contracts_follow_agents AFTER INSERT OR DELETE ON contract_agents
  FOR EACH ROW EXECUTE FUNCTION contracts_follow_agents();
--> statement-breakpoint
-- Rows written before this migration, in one transaction: positions in table order.
UPDATE performance_tasks SET change_seq = 0;
--> statement-breakpoint
UPDATE reminder_settings SET change_seq = 0;
