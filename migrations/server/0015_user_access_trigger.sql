-- Loss of access through the user's own rights (issue 3, points 5 and 6): when a user's department
-- or role changes, their replica was built under rights they no longer have, and the tombstones of
-- the contracts they lose do not name them. The change gets a change-feed position (migration
-- 0003); a pull whose cursor is older answers must_resync (src-server/sync/access.ts).
CREATE FUNCTION users_take_access_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.department_id IS DISTINCT FROM NEW.department_id OR OLD.role IS DISTINCT FROM NEW.role THEN
    NEW.access_changed_position := sync_next_change_position();
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_take_access_change
  BEFORE UPDATE OF department_id, role ON users
  FOR EACH ROW EXECUTE FUNCTION users_take_access_change();
