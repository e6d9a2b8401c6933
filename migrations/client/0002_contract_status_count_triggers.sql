-- Keeps contract_status_counts equal to SELECT coalesce(status, 0), count(*) FROM contracts GROUP BY 1.
INSERT INTO `contract_status_counts` (`status`, `count`)
  SELECT coalesce(`status`, 0), count(*) FROM `contracts` GROUP BY 1;
--> statement-breakpoint
CREATE TRIGGER `contracts_count_insert` AFTER INSERT ON `contracts` BEGIN
  INSERT INTO `contract_status_counts` (`status`, `count`) VALUES (coalesce(new.`status`, 0), 1)
    ON CONFLICT (`status`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_count_delete` AFTER DELETE ON `contracts` BEGIN
  UPDATE `contract_status_counts` SET `count` = `count` - 1 WHERE `status` = coalesce(old.`status`, 0);
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_count_status_change` AFTER UPDATE OF `status` ON `contracts`
  WHEN coalesce(old.`status`, 0) <> coalesce(new.`status`, 0) BEGIN
  UPDATE `contract_status_counts` SET `count` = `count` - 1 WHERE `status` = coalesce(old.`status`, 0);
  INSERT INTO `contract_status_counts` (`status`, `count`) VALUES (coalesce(new.`status`, 0), 1)
    ON CONFLICT (`status`) DO UPDATE SET `count` = `count` + 1;
END;
