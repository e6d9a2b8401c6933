CREATE TABLE `performance_plans` (
	`id` text PRIMARY KEY NOT NULL,
	`contract_id` text NOT NULL,
	`performance_id` text NOT NULL,
	`performance_name` text NOT NULL,
	`performance_type` text NOT NULL,
	`columns` text NOT NULL,
	`fields` text NOT NULL,
	`condition_type` integer NOT NULL,
	`schedule` text,
	`version` integer NOT NULL,
	`update_time` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `performance_plans_contract` ON `performance_plans` (`contract_id`);--> statement-breakpoint
CREATE TABLE `performance_plans_local` (
	`id` text PRIMARY KEY NOT NULL,
	`contract_id` text NOT NULL,
	`performance_id` text NOT NULL,
	`performance_name` text NOT NULL,
	`performance_type` text NOT NULL,
	`columns` text NOT NULL,
	`fields` text NOT NULL,
	`condition_type` integer NOT NULL,
	`schedule` text,
	`version` integer NOT NULL,
	`update_time` text NOT NULL,
	`pending_rows` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `performance_tasks_local` (
	`id` text PRIMARY KEY NOT NULL,
	`contract_id` text,
	`plan_id` text,
	`performance_id` text,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`state` integer NOT NULL,
	`expiration_time` text,
	`receivable_amount` integer,
	`payable_amount` integer,
	`amount_unit` text,
	`leader_user_id` text,
	`row_index` integer DEFAULT 1 NOT NULL,
	`level` integer,
	`values` text DEFAULT '{}' NOT NULL,
	`completion_values` text,
	`finished_amount` integer,
	`version` integer NOT NULL,
	`update_time` text NOT NULL,
	`deleted` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `performance_tasks_local_contract` ON `performance_tasks_local` (`contract_id`);--> statement-breakpoint
ALTER TABLE `performance_tasks` ADD `row_index` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `performance_tasks` ADD `level` integer;--> statement-breakpoint
ALTER TABLE `performance_tasks` ADD `values` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `performance_tasks` ADD `completion_values` text;--> statement-breakpoint
ALTER TABLE `performance_tasks` ADD `finished_amount` integer;--> statement-breakpoint
-- Tasks pulled before sync schema 4 lack their sheet rows, and plans were never pulled: pull
-- everything again, as a must_resync does (base contracts kept until the full pull has not
-- brought them back, the outbox kept).
INSERT OR IGNORE INTO `resync_unseen` (`id`) SELECT `id` FROM `contracts`;--> statement-breakpoint
DELETE FROM `performance_tasks`;--> statement-breakpoint
UPDATE `replica_meta` SET `value` = '0' WHERE `key` = 'pull_cursor';
