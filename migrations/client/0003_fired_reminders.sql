CREATE TABLE `fired_reminders` (
	`id` text PRIMARY KEY NOT NULL,
	`task_id` text NOT NULL,
	`rule` text NOT NULL,
	`occurrence` text NOT NULL,
	`fired_at` text NOT NULL,
	`snoozed_until` text
);
--> statement-breakpoint
CREATE INDEX `fired_reminders_snoozed_until` ON `fired_reminders` (`snoozed_until`);