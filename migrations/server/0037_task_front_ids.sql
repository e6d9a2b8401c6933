-- Predecessor relations reach the desktop replica (issue 28): each task carries the ids of its
-- front (predecessor) tasks, kept from performance_task_relations by the triggers below, so the
-- feed sends them with the task and a change of them moves the task down the feed (a new version,
-- the field group "front"). Null when a task has none.
ALTER TABLE "performance_tasks" ADD COLUMN "front_task_ids" text[];
--> statement-breakpoint
-- The relations made before: written with the row triggers off, as no change of the tasks (the
-- desktop's own migration pulls everything again).
ALTER TABLE performance_tasks DISABLE TRIGGER USER;
--> statement-breakpoint
UPDATE performance_tasks t SET front_task_ids = r.ids
  FROM (SELECT task_id, array_agg(front_task_id ORDER BY front_task_id COLLATE "C") AS ids FROM performance_task_relations GROUP BY task_id) r
  WHERE r.task_id = t.id;
--> statement-breakpoint
ALTER TABLE performance_tasks ENABLE TRIGGER USER;
--> statement-breakpoint
-- Once per statement over the relations it added or removed (a relate of many, a delete's
-- cascade): each task named takes its relations anew, and a new version. A task deleted by the
-- same statement that removed its relations is gone already and updates nothing.
CREATE FUNCTION performance_tasks_take_front_ids() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE performance_tasks t
    SET front_task_ids = (SELECT array_agg(r.front_task_id ORDER BY r.front_task_id COLLATE "C") FROM performance_task_relations r WHERE r.task_id = t.id),
        version = t.version + 1,
        update_time = now()
    WHERE t.id IN (SELECT DISTINCT task_id FROM changed_relations);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER performance_task_relations_added AFTER INSERT ON performance_task_relations
  REFERENCING NEW TABLE AS changed_relations
  FOR EACH STATEMENT EXECUTE FUNCTION performance_tasks_take_front_ids();
--> statement-breakpoint
CREATE TRIGGER performance_task_relations_removed AFTER DELETE ON performance_task_relations
  REFERENCING OLD TABLE AS changed_relations
  FOR EACH STATEMENT EXECUTE FUNCTION performance_tasks_take_front_ids();
--> statement-breakpoint
DROP TRIGGER performance_tasks_track_field_versions ON performance_tasks;
--> statement-breakpoint
CREATE TRIGGER performance_tasks_track_field_versions
  BEFORE UPDATE ON performance_tasks
  FOR EACH ROW EXECUTE FUNCTION sync_track_field_versions(
    'name=name', 'type=type', 'state=state', 'completion_values=completion', 'finished_amount=completion',
    'finished_at=completion', 'finished_by=completion', 'level=level', 'row_index=rowIndex',
    'expiration_time=expirationTime', 'payable_amount=amount', 'receivable_amount=amount', 'amount_unit=amount',
    'leader_user_id=leader', 'plan_id=plan', 'contract_id=plan', 'performance_id=plan', 'front_task_ids=front', 'values=value:*');
