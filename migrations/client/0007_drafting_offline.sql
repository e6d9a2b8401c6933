CREATE TABLE `catalogue_counterparties` (
	`user_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`party_type` integer NOT NULL,
	`credit_code` text,
	PRIMARY KEY(`user_id`, `id`)
);
--> statement-breakpoint
CREATE INDEX `catalogue_counterparties_type_name` ON `catalogue_counterparties` (`user_id`,`party_type`,`name`);--> statement-breakpoint
CREATE TABLE `catalogue_templates` (
	`user_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`detail` text NOT NULL,
	PRIMARY KEY(`user_id`, `id`)
);
--> statement-breakpoint
CREATE TABLE `drafting_catalogue` (
	`user_id` text PRIMARY KEY NOT NULL,
	`refreshed_at` text NOT NULL,
	`contract_types` text NOT NULL,
	`numbering_preview` text NOT NULL,
	`is_number_editor` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `number_notices` (
	`contract_id` text PRIMARY KEY NOT NULL,
	`contract_name` text NOT NULL,
	`provisional` text NOT NULL,
	`confirmed` text,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `provisional_numbers` (
	`number` text PRIMARY KEY NOT NULL,
	`contract_id` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `contracts` ADD `contract_number_auto` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `contracts` ADD `contract_type_id` text;--> statement-breakpoint
ALTER TABLE `contracts` ADD `template_id` text;--> statement-breakpoint
ALTER TABLE `contracts` ADD `form_values` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `contracts` ADD `number_provisional` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `contracts_local` ADD `contract_number_auto` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `contracts_local` ADD `contract_type_id` text;--> statement-breakpoint
ALTER TABLE `contracts_local` ADD `template_id` text;--> statement-breakpoint
ALTER TABLE `contracts_local` ADD `form_values` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `contracts_local` ADD `number_provisional` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox` ADD `outcome` text;--> statement-breakpoint
-- Rows pulled before sync schema 3 lack the form columns: pull everything again, as a must_resync
-- does (base rows kept until the full pull has not brought them back, the outbox kept).
INSERT OR IGNORE INTO `resync_unseen` (`id`) SELECT `id` FROM `contracts`;--> statement-breakpoint
DELETE FROM `performance_tasks`;--> statement-breakpoint
UPDATE `replica_meta` SET `value` = '0' WHERE `key` = 'pull_cursor';
