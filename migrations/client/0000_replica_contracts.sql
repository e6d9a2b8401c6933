CREATE TABLE `contracts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`contract_number` text,
	`status` integer,
	`contract_type_name` text,
	`template_name` text,
	`counterpart_name` text,
	`amount` integer,
	`amount_unit` text,
	`responsible_user_id` text,
	`responsible_user_name` text,
	`department_id` text,
	`department_name` text,
	`sign_date` text,
	`create_time` text NOT NULL,
	`update_time` text NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contracts_update_time` ON `contracts` (`update_time`);--> statement-breakpoint
CREATE INDEX `contracts_status_update_time` ON `contracts` (`status`,`update_time`);--> statement-breakpoint
CREATE TABLE `replica_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
