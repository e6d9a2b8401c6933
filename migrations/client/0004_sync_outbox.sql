CREATE TABLE `contracts_local` (
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
CREATE TABLE `outbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`args` text NOT NULL,
	`base_versions` text NOT NULL,
	`created_at` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`applied_versions` text,
	`error` text,
	`current` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_id_unique` ON `outbox` (`id`);--> statement-breakpoint
CREATE INDEX `outbox_state_seq` ON `outbox` (`state`,`seq`);--> statement-breakpoint
CREATE TABLE `outbox_touches` (
	`row_key` text NOT NULL,
	`seq` integer NOT NULL,
	PRIMARY KEY(`row_key`, `seq`),
	FOREIGN KEY (`seq`) REFERENCES `outbox`(`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `outbox_touches_seq` ON `outbox_touches` (`seq`);--> statement-breakpoint
CREATE VIEW `contracts_overlay` AS select * from contracts_local union all select * from contracts where id not in (select id from contracts_local);