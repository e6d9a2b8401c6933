-- A change position is (the writing transaction's id << 24) | (a counter within that transaction).
-- Ordered by transaction id first, every change a transaction makes after a reader's snapshot
-- sorts above everything that reader may serve (changes of transactions below the snapshot's
-- xmin, see src-server/sync/pull.ts), so a late commit can never land below a held cursor.
-- 2^39 transaction ids (128 wraparound epochs) and 2^24 - 1 changes per transaction fit a bigint.
CREATE FUNCTION sync_next_change_position() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  -- A transaction-local setting: it starts afresh in every transaction and rolls back with it.
  n bigint := coalesce(nullif(current_setting('contract_sync.changes_in_xact', true), ''), '0')::bigint + 1;
BEGIN
  IF n > 16777215 THEN
    RAISE EXCEPTION 'one transaction may write at most 16777215 sync changes';
  END IF;
  PERFORM set_config('contract_sync.changes_in_xact', n::text, true);
  RETURN (pg_current_xact_id()::text::bigint << 24) | n;
END;
$$;
--> statement-breakpoint
-- Replaces the sequence of migration 0001. A transfer (new responsible person or department) also
-- leaves a tombstone under the old owner columns, placed before the new row: whoever saw the
-- contract only through them loses it, whoever still sees it gets it back right after.
CREATE OR REPLACE FUNCTION contracts_take_change_seq() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.responsible_user_id IS DISTINCT FROM NEW.responsible_user_id
      OR OLD.department_id IS DISTINCT FROM NEW.department_id) THEN
    INSERT INTO contract_tombstones (change_seq, contract_id, responsible_user_id, department_id)
      VALUES (sync_next_change_position(), OLD.id, OLD.responsible_user_id, OLD.department_id);
  END IF;
  NEW.change_seq := sync_next_change_position();
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION contracts_leave_tombstone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contract_tombstones (change_seq, contract_id, responsible_user_id, department_id)
    VALUES (sync_next_change_position(), OLD.id, OLD.responsible_user_id, OLD.department_id);
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER contracts_leave_tombstone
  AFTER DELETE ON contracts
  FOR EACH ROW EXECUTE FUNCTION contracts_leave_tombstone();
--> statement-breakpoint
INSERT INTO sync_horizon (id, pruned_through) VALUES (1, 0);
