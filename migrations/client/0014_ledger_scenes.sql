CREATE TABLE `ledger_scenes` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`is_default` integer NOT NULL,
	`is_system` integer NOT NULL,
	`performance_id` text,
	`filter_ids` text NOT NULL,
	`title_ids` text NOT NULL,
	`filters` text NOT NULL,
	`sort_order` integer NOT NULL,
	`version` integer NOT NULL,
	`update_time` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ledger_scenes_local` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`is_default` integer NOT NULL,
	`is_system` integer NOT NULL,
	`performance_id` text,
	`filter_ids` text NOT NULL,
	`title_ids` text NOT NULL,
	`filters` text NOT NULL,
	`sort_order` integer NOT NULL,
	`version` integer NOT NULL,
	`update_time` text NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	`default_set_at` text
);
--> statement-breakpoint
ALTER TABLE `performance_tasks` ADD `create_time` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `performance_tasks_local` ADD `create_time` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `performance_tasks_update_time` ON `performance_tasks` (`update_time`,`id`);--> statement-breakpoint
-- Scenes were never pulled and tasks lack the ledger's creation time: pull everything again, as a
-- must_resync does (base rows kept until the full pull has not brought them back, the outbox kept).
INSERT OR IGNORE INTO `resync_unseen` (`id`) SELECT `id` FROM `contracts`;--> statement-breakpoint
DELETE FROM `performance_tasks`;--> statement-breakpoint
UPDATE `replica_meta` SET `value` = '0' WHERE `key` = 'pull_cursor';
