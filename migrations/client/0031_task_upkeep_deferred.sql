-- A first sync writes hundreds of thousands of tasks; keeping the per-day counts (0024) and each
-- task's contract status (0028) through these triggers row by row cost most of the pull's time.
-- While `replica_meta` holds 'task_upkeep_deferred' (set by the first page of a first sync into a
-- replica without tasks, with the task indexes set aside too), these triggers stand aside, and the
-- end of that pull derives both from the rows in bulk (src-main/core/performance/task-upkeep.ts).
DROP TRIGGER `performance_task_days_insert`;
--> statement-breakpoint
DROP TRIGGER `performance_task_days_delete`;
--> statement-breakpoint
DROP TRIGGER `performance_task_days_update`;
--> statement-breakpoint
DROP TRIGGER `performance_tasks_contract_status_insert`;
--> statement-breakpoint
DROP TRIGGER `performance_tasks_contract_status_move`;
--> statement-breakpoint
DROP TRIGGER `contracts_task_status_insert`;
--> statement-breakpoint
DROP TRIGGER `contracts_task_status_change`;
--> statement-breakpoint
DROP TRIGGER `contracts_task_status_delete`;
--> statement-breakpoint
CREATE TRIGGER `performance_task_days_insert` AFTER INSERT ON `performance_tasks`
  WHEN new.`expiration_time` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'task_upkeep_deferred') BEGIN
  INSERT INTO `performance_task_days` (`day`, `state`, `count`) VALUES (new.`expiration_time`, new.`state`, 1)
    ON CONFLICT (`day`, `state`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `performance_task_days_delete` AFTER DELETE ON `performance_tasks`
  WHEN old.`expiration_time` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'task_upkeep_deferred') BEGIN
  UPDATE `performance_task_days` SET `count` = `count` - 1 WHERE `day` = old.`expiration_time` AND `state` = old.`state`;
END;
--> statement-breakpoint
CREATE TRIGGER `performance_task_days_update` AFTER UPDATE OF `expiration_time`, `state` ON `performance_tasks`
  WHEN (old.`expiration_time` IS NOT new.`expiration_time` OR old.`state` IS NOT new.`state`) AND NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'task_upkeep_deferred') BEGIN
  UPDATE `performance_task_days` SET `count` = `count` - 1 WHERE `day` = old.`expiration_time` AND `state` = old.`state`;
  INSERT INTO `performance_task_days` (`day`, `state`, `count`) SELECT new.`expiration_time`, new.`state`, 1 WHERE new.`expiration_time` IS NOT NULL
    ON CONFLICT (`day`, `state`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `performance_tasks_contract_status_insert` AFTER INSERT ON `performance_tasks`
  WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'task_upkeep_deferred') BEGIN
  UPDATE `performance_tasks` SET `contract_status` = (SELECT coalesce(`status`, 0) FROM `contracts` WHERE `id` = new.`contract_id`) WHERE `rowid` = new.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `performance_tasks_contract_status_move` AFTER UPDATE OF `contract_id` ON `performance_tasks`
  WHEN old.`contract_id` IS NOT new.`contract_id` AND NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'task_upkeep_deferred') BEGIN
  UPDATE `performance_tasks` SET `contract_status` = (SELECT coalesce(`status`, 0) FROM `contracts` WHERE `id` = new.`contract_id`) WHERE `rowid` = new.`rowid`;
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_task_status_insert` AFTER INSERT ON `contracts`
  WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'task_upkeep_deferred') BEGIN
  UPDATE `performance_tasks` SET `contract_status` = coalesce(new.`status`, 0) WHERE `contract_id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_task_status_change` AFTER UPDATE OF `status` ON `contracts`
  WHEN old.`status` IS NOT new.`status` AND NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'task_upkeep_deferred') BEGIN
  UPDATE `performance_tasks` SET `contract_status` = coalesce(new.`status`, 0) WHERE `contract_id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_task_status_delete` AFTER DELETE ON `contracts`
  WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'task_upkeep_deferred') BEGIN
  UPDATE `performance_tasks` SET `contract_status` = NULL WHERE `contract_id` = old.`id`;
END;
