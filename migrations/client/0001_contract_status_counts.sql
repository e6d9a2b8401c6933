CREATE TABLE `contract_status_counts` (
	`status` integer PRIMARY KEY NOT NULL,
	`count` integer NOT NULL
);
