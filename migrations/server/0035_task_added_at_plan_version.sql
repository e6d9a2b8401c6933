-- The plan version whose save added each sheet row (issue 12, per-field merge): a save made
-- offline from an older plan version did not know the rows added after it, so it keeps them
-- rather than dropping them as rows the user removed. Rows from before this column count as known.
ALTER TABLE "performance_tasks" ADD COLUMN "added_at_plan_version" integer DEFAULT 0 NOT NULL;
