-- A first sync writes tens of thousands of contracts; indexing each through these triggers cost
-- about four times what building the index in bulk afterwards costs. While `replica_meta` holds
-- 'search_index_deferred' (set by the first page of a first sync into an empty replica, removed
-- when that pull ends), the index triggers (of 0022) stand aside, and the core then indexes every
-- contract row that has no `search_rows` entry, in steps (src-main/core/search/index-builder.ts).
-- The update triggers skip a row without an entry too, so whatever changes meanwhile is indexed
-- once, by the builder, as it is then.
DROP TRIGGER `contracts_search_insert`;
--> statement-breakpoint
DROP TRIGGER `contracts_search_update`;
--> statement-breakpoint
DROP TRIGGER `contracts_search_delete`;
--> statement-breakpoint
DROP TRIGGER `contracts_local_search_insert`;
--> statement-breakpoint
DROP TRIGGER `contracts_local_search_update`;
--> statement-breakpoint
DROP TRIGGER `contracts_local_search_delete`;
--> statement-breakpoint
DROP TRIGGER `archived_files_search_insert`;
--> statement-breakpoint
DROP TRIGGER `archived_files_search_update`;
--> statement-breakpoint
DROP TRIGGER `archived_files_search_delete`;
--> statement-breakpoint
CREATE TRIGGER `contracts_search_insert` AFTER INSERT ON `contracts` WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'search_index_deferred') BEGIN
  INSERT INTO `search_rows` (`contract_id`, `source`) VALUES (new.`id`, 'base');
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`id` AND `r`.`source` = 'base';
  INSERT INTO `contract_search_bigrams` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `rowid`, cjk_bigrams(`name`), cjk_bigrams(`contract_number`), cjk_bigrams(`counterpart_name`), cjk_bigrams(`form_text`), cjk_bigrams(`pdf_text`)
    FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`id` AND `source` = 'base');
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_search_update` AFTER UPDATE OF `name`, `contract_number`, `counterpart_name`, `form_values` ON `contracts` WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'search_index_deferred') BEGIN
  DELETE FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`id` AND `source` = 'base');
  DELETE FROM `contract_search_bigrams` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`id` AND `source` = 'base');
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`id` AND `r`.`source` = 'base';
  INSERT INTO `contract_search_bigrams` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `rowid`, cjk_bigrams(`name`), cjk_bigrams(`contract_number`), cjk_bigrams(`counterpart_name`), cjk_bigrams(`form_text`), cjk_bigrams(`pdf_text`)
    FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`id` AND `source` = 'base');
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_search_delete` AFTER DELETE ON `contracts` WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'search_index_deferred') BEGIN
  DELETE FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'base');
  DELETE FROM `contract_search_bigrams` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'base');
  DELETE FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'base';
END;
--> statement-breakpoint
-- The archived PDF's record leaves with its contract whatever the index does.
CREATE TRIGGER `contracts_archived_file_delete` AFTER DELETE ON `contracts` BEGIN
  DELETE FROM `archived_files` WHERE `contract_id` = old.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_local_search_insert` AFTER INSERT ON `contracts_local` WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'search_index_deferred') BEGIN
  INSERT INTO `search_rows` (`contract_id`, `source`) VALUES (new.`id`, 'local');
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`id` AND `r`.`source` = 'local';
  INSERT INTO `contract_search_bigrams` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `rowid`, cjk_bigrams(`name`), cjk_bigrams(`contract_number`), cjk_bigrams(`counterpart_name`), cjk_bigrams(`form_text`), cjk_bigrams(`pdf_text`)
    FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`id` AND `source` = 'local');
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_local_search_update` AFTER UPDATE OF `name`, `contract_number`, `counterpart_name`, `form_values` ON `contracts_local` WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'search_index_deferred') BEGIN
  DELETE FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`id` AND `source` = 'local');
  DELETE FROM `contract_search_bigrams` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`id` AND `source` = 'local');
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`id` AND `r`.`source` = 'local';
  INSERT INTO `contract_search_bigrams` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `rowid`, cjk_bigrams(`name`), cjk_bigrams(`contract_number`), cjk_bigrams(`counterpart_name`), cjk_bigrams(`form_text`), cjk_bigrams(`pdf_text`)
    FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`id` AND `source` = 'local');
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_local_search_delete` AFTER DELETE ON `contracts_local` WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'search_index_deferred') BEGIN
  DELETE FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'local');
  DELETE FROM `contract_search_bigrams` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'local');
  DELETE FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'local';
END;
--> statement-breakpoint
CREATE TRIGGER `archived_files_search_insert` AFTER INSERT ON `archived_files` WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'search_index_deferred') AND new.`text` IS NOT NULL BEGIN
  DELETE FROM `contract_search` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`contract_id`);
  DELETE FROM `contract_search_bigrams` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`contract_id`);
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`contract_id`;
  INSERT INTO `contract_search_bigrams` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `rowid`, cjk_bigrams(`name`), cjk_bigrams(`contract_number`), cjk_bigrams(`counterpart_name`), cjk_bigrams(`form_text`), cjk_bigrams(`pdf_text`)
    FROM `contract_search` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`contract_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `archived_files_search_update` AFTER UPDATE OF `text` ON `archived_files` WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'search_index_deferred') BEGIN
  DELETE FROM `contract_search` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`contract_id`);
  DELETE FROM `contract_search_bigrams` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`contract_id`);
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`contract_id`;
  INSERT INTO `contract_search_bigrams` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `rowid`, cjk_bigrams(`name`), cjk_bigrams(`contract_number`), cjk_bigrams(`counterpart_name`), cjk_bigrams(`form_text`), cjk_bigrams(`pdf_text`)
    FROM `contract_search` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`contract_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `archived_files_search_delete` AFTER DELETE ON `archived_files` WHEN NOT EXISTS (SELECT 1 FROM `replica_meta` WHERE `key` = 'search_index_deferred') AND old.`text` IS NOT NULL BEGIN
  DELETE FROM `contract_search` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`contract_id`);
  DELETE FROM `contract_search_bigrams` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`contract_id`);
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = old.`contract_id`;
  INSERT INTO `contract_search_bigrams` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `rowid`, cjk_bigrams(`name`), cjk_bigrams(`contract_number`), cjk_bigrams(`counterpart_name`), cjk_bigrams(`form_text`), cjk_bigrams(`pdf_text`)
    FROM `contract_search` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`contract_id`);
END;
