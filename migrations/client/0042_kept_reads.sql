CREATE TABLE `repeated_contract_numbers` (
	`contract_number` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contracts_related_candidates` ON `contracts` (`update_time`,`id`,`name`,`contract_number`);--> statement-breakpoint
-- Kept equal to SELECT contract_number FROM contracts WHERE contract_number IS NOT NULL GROUP BY 1
-- HAVING count(*) > 1 (issue 30: the duplicate check of every number offline grouped all 50,000
-- rows, 25.7–65.5 ms). Each change looks its number up in `contracts_contract_number`. While
-- `replica_meta` holds 'repeated_numbers_deferred' (set by the first page of a first sync into an
-- empty replica, whose indexes are set aside too) these triggers stand aside, and the pull's end
-- derives the table from the rows (src-main/core/contracts/repeated-numbers.ts).
INSERT INTO `repeated_contract_numbers` (`contract_number`)
  SELECT `contract_number` FROM `contracts` WHERE `contract_number` IS NOT NULL GROUP BY `contract_number` HAVING count(*) > 1;
--> statement-breakpoint
CREATE TRIGGER `contracts_repeated_number_insert` AFTER INSERT ON `contracts`
  WHEN new.`contract_number` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'repeated_numbers_deferred') BEGIN
  INSERT OR IGNORE INTO `repeated_contract_numbers` (`contract_number`) SELECT new.`contract_number`
    WHERE EXISTS (SELECT 1 FROM `contracts` WHERE `contract_number` = new.`contract_number` AND `rowid` <> new.`rowid`);
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_repeated_number_delete` AFTER DELETE ON `contracts`
  WHEN old.`contract_number` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'repeated_numbers_deferred') BEGIN
  DELETE FROM `repeated_contract_numbers` WHERE `contract_number` = old.`contract_number`
    AND (SELECT count(*) FROM `contracts` WHERE `contract_number` = old.`contract_number`) < 2;
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_repeated_number_update` AFTER UPDATE OF `contract_number` ON `contracts`
  WHEN old.`contract_number` IS NOT new.`contract_number` AND NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'repeated_numbers_deferred') BEGIN
  DELETE FROM `repeated_contract_numbers` WHERE `contract_number` = old.`contract_number`
    AND (SELECT count(*) FROM `contracts` WHERE `contract_number` = old.`contract_number`) < 2;
  INSERT OR IGNORE INTO `repeated_contract_numbers` (`contract_number`) SELECT new.`contract_number`
    WHERE new.`contract_number` IS NOT NULL
      AND EXISTS (SELECT 1 FROM `contracts` WHERE `contract_number` = new.`contract_number` AND `rowid` <> new.`rowid`);
END;
