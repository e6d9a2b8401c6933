-- A ledger scene keeps its sort (issue 28, journey 3 step 1): one of its columns and the direction,
-- null for the default order (newest update first), as every scene made before had. The feed
-- sends it with the scene (sync schema 7) and it is a field group of its own ("sortField"), so an
-- edit of the sort merges with other devices' edits of the scene's other fields.
ALTER TABLE "ledger_scenes" ADD COLUMN "sort_field" jsonb;
--> statement-breakpoint
DROP TRIGGER ledger_scenes_track_field_versions ON ledger_scenes;
--> statement-breakpoint
CREATE TRIGGER ledger_scenes_track_field_versions
  BEFORE UPDATE ON ledger_scenes
  FOR EACH ROW EXECUTE FUNCTION sync_track_field_versions(
    'name=name', 'is_default=isDefault', 'performance_id=performanceId', 'filter_ids=filterIDs', 'filters=filter',
    'title_ids=titleIDs', 'sort_field=sortField', 'sort_order=sortOrder');
