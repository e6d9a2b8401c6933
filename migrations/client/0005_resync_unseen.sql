CREATE TABLE `resync_unseen` (
	`id` text PRIMARY KEY NOT NULL
);
