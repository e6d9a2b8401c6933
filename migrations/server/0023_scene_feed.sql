CREATE TABLE "ledger_scene_tombstones" (
	"change_seq" bigint PRIMARY KEY NOT NULL,
	"scene_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_scenes" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "ledger_scene_tombstones_user_idx" ON "ledger_scene_tombstones" USING btree ("user_id","change_seq");--> statement-breakpoint
CREATE INDEX "ledger_scene_tombstones_created_at_idx" ON "ledger_scene_tombstones" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ledger_scenes_change_seq_idx" ON "ledger_scenes" USING btree ("user_id","change_seq");--> statement-breakpoint
-- Scenes join the change feed (issue 14): each write takes a position like every synced row
-- (sync_take_change_seq, migration 0013), and a deleted scene leaves a tombstone for its user.
CREATE TRIGGER ledger_scenes_take_change_seq
  BEFORE INSERT OR UPDATE ON ledger_scenes
  FOR EACH ROW EXECUTE FUNCTION sync_take_change_seq();
--> statement-breakpoint
CREATE FUNCTION ledger_scenes_leave_tombstone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_scene_tombstones (change_seq, scene_id, user_id) VALUES (sync_next_change_position(), OLD.id, OLD.user_id);
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_scenes_leave_tombstone
  AFTER DELETE ON ledger_scenes
  FOR EACH ROW EXECUTE FUNCTION ledger_scenes_leave_tombstone();
--> statement-breakpoint
-- Scenes written before this migration, in one transaction: positions in table order.
UPDATE ledger_scenes SET change_seq = 0;
