-- Per-field versions of tasks, plans and scenes (architecture, sync rule 6), kept by the trigger
-- function of migration 0020. The groups are those of entityFieldGroups in
-- src-shared/sync/field-versions.ts (tests/server/sync-field-groups.test.ts checks they agree).
CREATE TRIGGER performance_tasks_track_field_versions
  BEFORE UPDATE ON performance_tasks
  FOR EACH ROW EXECUTE FUNCTION sync_track_field_versions(
    'name=name', 'type=type', 'state=state', 'completion_values=completion', 'finished_amount=completion',
    'finished_at=completion', 'finished_by=completion', 'level=level', 'row_index=rowIndex',
    'expiration_time=expirationTime', 'payable_amount=amount', 'receivable_amount=amount', 'amount_unit=amount',
    'leader_user_id=leader', 'plan_id=plan', 'contract_id=plan', 'performance_id=plan', 'values=value:*');
--> statement-breakpoint
CREATE TRIGGER performance_plans_track_field_versions
  BEFORE UPDATE ON performance_plans
  FOR EACH ROW EXECUTE FUNCTION sync_track_field_versions(
    'condition_type=schedule', 'schedule=schedule', 'contract_id=performance', 'performance_id=performance');
--> statement-breakpoint
CREATE TRIGGER ledger_scenes_track_field_versions
  BEFORE UPDATE ON ledger_scenes
  FOR EACH ROW EXECUTE FUNCTION sync_track_field_versions(
    'name=name', 'is_default=isDefault', 'performance_id=performanceId', 'filter_ids=filterIDs', 'filters=filter',
    'title_ids=titleIDs', 'sort_order=sortOrder');
--> statement-breakpoint
-- As for contracts (0020): what changed before is unknown, so every group starts at the row's
-- version, written with the row triggers off so that nothing goes down the feed again.
ALTER TABLE performance_tasks DISABLE TRIGGER USER;
--> statement-breakpoint
UPDATE performance_tasks SET field_versions = jsonb_build_object('*', version);
--> statement-breakpoint
ALTER TABLE performance_tasks ENABLE TRIGGER USER;
--> statement-breakpoint
ALTER TABLE performance_plans DISABLE TRIGGER USER;
--> statement-breakpoint
UPDATE performance_plans SET field_versions = jsonb_build_object('*', version);
--> statement-breakpoint
ALTER TABLE performance_plans ENABLE TRIGGER USER;
--> statement-breakpoint
ALTER TABLE ledger_scenes DISABLE TRIGGER USER;
--> statement-breakpoint
UPDATE ledger_scenes SET field_versions = jsonb_build_object('*', version);
--> statement-breakpoint
ALTER TABLE ledger_scenes ENABLE TRIGGER USER;
