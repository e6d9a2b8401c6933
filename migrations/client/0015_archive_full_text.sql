CREATE TABLE `archived_files` (
	`contract_id` text PRIMARY KEY NOT NULL,
	`file_id` text NOT NULL,
	`name` text NOT NULL,
	`size` integer NOT NULL,
	`cached` integer DEFAULT false NOT NULL,
	`opened_at` text NOT NULL,
	`pages` integer,
	`indexed_pages` integer DEFAULT 0 NOT NULL,
	`text` text
);
--> statement-breakpoint
CREATE INDEX `archived_files_cached_opened` ON `archived_files` (`cached`,`opened_at`);--> statement-breakpoint
CREATE TABLE `search_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contract_id` text NOT NULL,
	`source` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_rows_contract_source` ON `search_rows` (`contract_id`,`source`);--> statement-breakpoint
-- The full-text index (issue 14): one row per contract and source ('base' synced, 'local'
-- optimistic), keyed by search_rows.id. Trigram tokens match any substring of three characters or
-- more, so Chinese (written without spaces) is found by any part of a word; shorter terms are
-- matched by LIKE over the same table (src-main/core/search).
CREATE VIRTUAL TABLE `contract_search` USING fts5(`name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`, tokenize = 'trigram');
--> statement-breakpoint
-- What the index holds for each contract row: its terms, the text values of its form (not ids or
-- stored-file paths) and its archived PDF's text. The triggers below copy from here.
CREATE VIEW `contract_search_text` AS
  SELECT `c`.`id`, `c`.`source`, `c`.`name`, `c`.`contract_number`, `c`.`counterpart_name`,
    (SELECT group_concat(`j`.`value`, ' ') FROM json_tree(`c`.`form_values`) AS `j`
      WHERE `j`.`type` = 'text' AND `j`.`value` NOT LIKE '/api/%'
        AND NOT (length(`j`.`value`) = 36 AND `j`.`value` GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-*')) AS `form_text`,
    `a`.`text` AS `pdf_text`
  FROM (
    SELECT 'base' AS `source`, `id`, `name`, `contract_number`, `counterpart_name`, `form_values` FROM `contracts`
    UNION ALL
    SELECT 'local' AS `source`, `id`, `name`, `contract_number`, `counterpart_name`, `form_values` FROM `contracts_local`
  ) AS `c`
  LEFT JOIN `archived_files` AS `a` ON `a`.`contract_id` = `c`.`id`;
--> statement-breakpoint
INSERT INTO `search_rows` (`contract_id`, `source`) SELECT `id`, 'base' FROM `contracts`;
--> statement-breakpoint
INSERT INTO `search_rows` (`contract_id`, `source`) SELECT `id`, 'local' FROM `contracts_local`;
--> statement-breakpoint
INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
  SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
  FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`;
--> statement-breakpoint
CREATE TRIGGER `contracts_search_insert` AFTER INSERT ON `contracts` BEGIN
  INSERT INTO `search_rows` (`contract_id`, `source`) VALUES (new.`id`, 'base');
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`id` AND `r`.`source` = 'base';
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_search_update` AFTER UPDATE OF `name`, `contract_number`, `counterpart_name`, `form_values` ON `contracts` BEGIN
  DELETE FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`id` AND `source` = 'base');
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`id` AND `r`.`source` = 'base';
END;
--> statement-breakpoint
-- A contract that leaves the replica (deleted, or out of the user's view after a transfer) takes
-- its archived PDF's record with it: its text must not be found any more.
CREATE TRIGGER `contracts_search_delete` AFTER DELETE ON `contracts` BEGIN
  DELETE FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'base');
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
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_local_search_update` AFTER UPDATE OF `name`, `contract_number`, `counterpart_name`, `form_values` ON `contracts_local` BEGIN
  DELETE FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`id` AND `source` = 'local');
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`id` AND `r`.`source` = 'local';
END;
--> statement-breakpoint
CREATE TRIGGER `contracts_local_search_delete` AFTER DELETE ON `contracts_local` BEGIN
  DELETE FROM `contract_search` WHERE `rowid` = (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'local');
  DELETE FROM `search_rows` WHERE `contract_id` = old.`id` AND `source` = 'local';
END;
--> statement-breakpoint
-- An archived PDF's text (extracted, replaced or gone) re-indexes every row of its contract.
CREATE TRIGGER `archived_files_search_insert` AFTER INSERT ON `archived_files` WHEN new.`text` IS NOT NULL BEGIN
  DELETE FROM `contract_search` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`contract_id`);
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`contract_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `archived_files_search_update` AFTER UPDATE OF `text` ON `archived_files` BEGIN
  DELETE FROM `contract_search` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = new.`contract_id`);
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = new.`contract_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `archived_files_search_delete` AFTER DELETE ON `archived_files` WHEN old.`text` IS NOT NULL BEGIN
  DELETE FROM `contract_search` WHERE `rowid` IN (SELECT `id` FROM `search_rows` WHERE `contract_id` = old.`contract_id`);
  INSERT INTO `contract_search` (`rowid`, `name`, `contract_number`, `counterpart_name`, `form_text`, `pdf_text`)
    SELECT `r`.`id`, `v`.`name`, `v`.`contract_number`, `v`.`counterpart_name`, `v`.`form_text`, `v`.`pdf_text`
    FROM `search_rows` AS `r` JOIN `contract_search_text` AS `v` ON `v`.`id` = `r`.`contract_id` AND `v`.`source` = `r`.`source`
    WHERE `r`.`contract_id` = old.`contract_id`;
END;
