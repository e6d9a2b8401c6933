-- The approval trail reaches the desktop replica (issue 29): each contract keeps its approval
-- steps (submit, approve, reject, archive) with who took them, their comment, when they were taken
-- and when applied, so the feed sends them with the contract (sync schema 6). A step queued
-- offline keeps the device's time of the step in approval_records.taken_at (null: taken online).
ALTER TABLE "approval_records" ADD COLUMN "taken_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "approval_trail" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
-- The steps recorded before: written with the row triggers off, as no change of the contracts
-- (the desktop's own migration pulls everything again).
ALTER TABLE contracts DISABLE TRIGGER USER;
--> statement-breakpoint
UPDATE contracts c SET approval_trail = t.trail
  FROM (
    SELECT r.subject_id, jsonb_agg(jsonb_build_object(
        'action', r.action, 'fromStatus', r.from_status, 'toStatus', r.to_status, 'userId', r.user_id, 'userName', u.display_name, 'comment', r.comment,
        'takenAt', to_char(coalesce(r.taken_at, r.create_time) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'appliedAt', to_char(r.create_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ) ORDER BY r.create_time, r.id) AS trail
    FROM approval_records r JOIN users u ON u.id = r.user_id
    WHERE r.subject_kind = 'contract'
    GROUP BY r.subject_id
  ) t
  WHERE t.subject_id = c.id;
--> statement-breakpoint
ALTER TABLE contracts ENABLE TRIGGER USER;
