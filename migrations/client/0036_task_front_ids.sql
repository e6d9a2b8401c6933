-- Predecessor relations in the replica (issue 28, sync schema 5): each task keeps its predecessors'
-- ids (JSON, NULL when none), the base row as pulled and the optimistic one as queued relates leave it.
ALTER TABLE `performance_tasks` ADD `front_task_ids` text;--> statement-breakpoint
ALTER TABLE `performance_tasks_local` ADD `front_task_ids` text;--> statement-breakpoint
-- Tasks pulled before sync schema 5 lack their predecessors: pull everything again, as a
-- must_resync does (base rows kept until the full pull has not brought them back, the outbox kept).
INSERT OR IGNORE INTO `resync_unseen` (`id`) SELECT `id` FROM `contracts`;--> statement-breakpoint
DELETE FROM `performance_tasks`;--> statement-breakpoint
UPDATE `replica_meta` SET `value` = '0' WHERE `key` = 'pull_cursor';
