CREATE TABLE `performance_task_days` (
	`day` text NOT NULL,
	`state` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `state`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Keeps performance_task_days equal to SELECT expiration_time, state, count(*) FROM performance_tasks
-- WHERE expiration_time IS NOT NULL GROUP BY 1, 2 (rows may stay at 0).
INSERT INTO `performance_task_days` (`day`, `state`, `count`)
  SELECT `expiration_time`, `state`, count(*) FROM `performance_tasks` WHERE `expiration_time` IS NOT NULL GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `performance_task_days_insert` AFTER INSERT ON `performance_tasks`
  WHEN new.`expiration_time` IS NOT NULL BEGIN
  INSERT INTO `performance_task_days` (`day`, `state`, `count`) VALUES (new.`expiration_time`, new.`state`, 1)
    ON CONFLICT (`day`, `state`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `performance_task_days_delete` AFTER DELETE ON `performance_tasks`
  WHEN old.`expiration_time` IS NOT NULL BEGIN
  UPDATE `performance_task_days` SET `count` = `count` - 1 WHERE `day` = old.`expiration_time` AND `state` = old.`state`;
END;
--> statement-breakpoint
CREATE TRIGGER `performance_task_days_update` AFTER UPDATE OF `expiration_time`, `state` ON `performance_tasks`
  WHEN old.`expiration_time` IS NOT new.`expiration_time` OR old.`state` IS NOT new.`state` BEGIN
  UPDATE `performance_task_days` SET `count` = `count` - 1 WHERE `day` = old.`expiration_time` AND `state` = old.`state`;
  INSERT INTO `performance_task_days` (`day`, `state`, `count`) SELECT new.`expiration_time`, new.`state`, 1 WHERE new.`expiration_time` IS NOT NULL
    ON CONFLICT (`day`, `state`) DO UPDATE SET `count` = `count` + 1;
END;
