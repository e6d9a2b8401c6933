CREATE TABLE `performance_tasks` (
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
	`version` integer NOT NULL,
	`update_time` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `performance_tasks_contract` ON `performance_tasks` (`contract_id`);--> statement-breakpoint
CREATE INDEX `performance_tasks_expiration_time` ON `performance_tasks` (`expiration_time`);--> statement-breakpoint
CREATE TABLE `reminder_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`version` integer NOT NULL,
	`update_time` text NOT NULL
);
