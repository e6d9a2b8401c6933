-- Contracts carry their counterparty's id and their approval trail (issue 29, sync schema 6): the
-- cooperation information matches a contract's counterparty by id (two parties of one name no
-- longer mix), and the history tab shows the approval steps offline.
ALTER TABLE `contracts` ADD `counterparty_id` text;--> statement-breakpoint
ALTER TABLE `contracts` ADD `approval_trail` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `contracts_local` ADD `counterparty_id` text;--> statement-breakpoint
ALTER TABLE `contracts_local` ADD `approval_trail` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS `contracts_counterpart_update_time`;--> statement-breakpoint
CREATE INDEX `contracts_counterparty_update_time` ON `contracts` (`counterparty_id`,`update_time`);--> statement-breakpoint
-- Contracts pulled before sync schema 6 lack both: pull everything again, as a must_resync does
-- (base rows kept until the full pull has not brought them back, the outbox kept).
INSERT OR IGNORE INTO `resync_unseen` (`id`) SELECT `id` FROM `contracts`;--> statement-breakpoint
DELETE FROM `performance_tasks`;--> statement-breakpoint
UPDATE `replica_meta` SET `value` = '0' WHERE `key` = 'pull_cursor';
