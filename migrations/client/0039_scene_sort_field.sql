-- A scene keeps its sort (issue 28, sync schema 7), the pulled scene and the optimistic one as
-- queued edits leave it. No pull again: every scene had none until the server's migration 0040,
-- and a desktop speaking sync schema 6 pulls nothing after it, so a scene given a sort since
-- comes down the feed after this replica's cursor.
ALTER TABLE `ledger_scenes` ADD `sort_field` text;--> statement-breakpoint
ALTER TABLE `ledger_scenes_local` ADD `sort_field` text;
