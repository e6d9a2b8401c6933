CREATE TABLE `cached_reads` (
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`fetched_at` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`user_id`, `kind`, `key`)
);
