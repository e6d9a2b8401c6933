-- Two-character Chinese words as index lookups (issue 14). The trigram index (0015) cannot match
-- a term shorter than three characters, so '租赁' or '违约' scanned every row's text, PDFs included.
-- This index holds, for the same rows and columns, every pair of adjacent CJK characters as a
-- unicode61 token (cjk_bigrams(), registered by the core on every replica connection), so such a
-- word is one token. Only which column matched is kept (detail=column): the core highlights pairs
-- itself, and a pair is a one-token phrase.
CREATE VIRTUAL TABLE `contract_search_bigrams` USING fts5(`name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`, tokenize = 'unicode61', detail = 'column', columnsize = 0);
--> statement-breakpoint
-- Replicas that already hold contracts and PDF text get their pairs now.
INSERT INTO `contract_search_bigrams` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
  SELECT `rowid`, cjk_bigrams(`name`), cjk_bigrams(`contract_number`), cjk_bigrams(`counterpart_name`), cjk_bigrams(`form_text`), cjk_bigrams(`pdf_text`) FROM `contract_search`;
--> statement-breakpoint
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
-- The triggers of 0015, now keeping both indexes.
CREATE TRIGGER `contracts_search_insert` AFTER INSERT ON `contracts` BEGIN
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
CREATE TRIGGER `contracts_search_update` AFTER UPDATE OF `name`, `contract_number`, `counterpart_name`, `form_values` ON `contracts` BEGIN
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
-- A contract that leaves the replica takes its archived PDF's record (and text) with it.
CREATE TRIGGER `contracts_search_delete` AFTER DELETE ON `contracts` BEGIN
  DELETE FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'base');
  DELETE FROM `contract_search_bigrams` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'base');
  DELETE FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'base';
  DELETE FROM `archived_files` WHERE `contract_id` = old.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_local_search_insert` AFTER INSERT ON `contracts_local` BEGIN
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
CREATE TRIGGER `contracts_local_search_update` AFTER UPDATE OF `name`, `contract_number`, `counterpart_name`, `form_values` ON `contracts_local` BEGIN
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
CREATE TRIGGER `contracts_local_search_delete` AFTER DELETE ON `contracts_local` BEGIN
  DELETE FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'local');
  DELETE FROM `contract_search_bigrams` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'local');
  DELETE FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'local';
END;
--> statement-breakpoint
-- An archived PDF's text (extracted, replaced or gone) re-indexes every row of its contract.
CREATE TRIGGER `archived_files_search_insert` AFTER INSERT ON `archived_files` WHEN new.`text` IS NOT NULL BEGIN
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
CREATE TRIGGER `archived_files_search_update` AFTER UPDATE OF `text` ON `archived_files` BEGIN
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
CREATE TRIGGER `archived_files_search_delete` AFTER DELETE ON `archived_files` WHEN old.`text` IS NOT NULL BEGIN
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
