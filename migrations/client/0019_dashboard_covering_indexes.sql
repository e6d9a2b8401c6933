DROP INDEX IF EXISTS `performance_tasks_expiration_time`;--> statement-breakpoint
DROP INDEX IF EXISTS `performance_tasks_board`;--> statement-breakpoint
CREATE INDEX `performance_tasks_due_state` ON `performance_tasks` (`expiration_time`,`state`);--> statement-breakpoint
CREATE INDEX `performance_tasks_card` ON `performance_tasks` (`expiration_time`,`name`,`id`,`contract_id`,`type`,`state`,`receivable_amount`,`payable_amount`,`amount_unit`);
