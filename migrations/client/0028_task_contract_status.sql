-- Scene pages (issue 14): a status filter and the count no longer join every matching task to its
-- contract. Each pulled task keeps its contract's status as contract_status_counts keys it
-- (coalesce(status, 0)), NULL while the replica lacks the contract; triggers on both tables keep it.
-- The scene index holds it beside the type and due date (and the join key and id for the page's
-- order), so a page and its count over type, status and due date read this index alone.
ALTER TABLE `performance_tasks` ADD `contract_status` integer;--> statement-breakpoint
UPDATE `performance_tasks` SET `contract_status` = (SELECT coalesce(`status`, 0) FROM `contracts` WHERE `contracts`.`id` = `performance_tasks`.`contract_id`);--> statement-breakpoint
CREATE TRIGGER `performance_tasks_contract_status_insert` AFTER INSERT ON `performance_tasks` BEGIN
  UPDATE `performance_tasks` SET `contract_status` = (SELECT coalesce(`status`, 0) FROM `contracts` WHERE `id` = new.`contract_id`) WHERE `rowid` = new.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `performance_tasks_contract_status_move` AFTER UPDATE OF `contract_id` ON `performance_tasks`
  WHEN old.`contract_id` IS NOT new.`contract_id` BEGIN
  UPDATE `performance_tasks` SET `contract_status` = (SELECT coalesce(`status`, 0) FROM `contracts` WHERE `id` = new.`contract_id`) WHERE `rowid` = new.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_task_status_insert` AFTER INSERT ON `contracts` BEGIN
  UPDATE `performance_tasks` SET `contract_status` = coalesce(new.`status`, 0) WHERE `contract_id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_task_status_change` AFTER UPDATE OF `status` ON `contracts`
  WHEN old.`status` IS NOT new.`status` BEGIN
  UPDATE `performance_tasks` SET `contract_status` = coalesce(new.`status`, 0) WHERE `contract_id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_task_status_delete` AFTER DELETE ON `contracts` BEGIN
  UPDATE `performance_tasks` SET `contract_status` = NULL WHERE `contract_id` = old.`id`;
END;
--> statement-breakpoint
DROP INDEX IF EXISTS `performance_tasks_type_expiration`;--> statement-breakpoint
CREATE INDEX `performance_tasks_scene` ON `performance_tasks` (`type`,`expiration_time`,`contract_status`,`contract_id`,`id`);
