CREATE TABLE `alteration_history` (
	`user_id` text NOT NULL,
	`contract_id` text NOT NULL,
	`fetched_at` text NOT NULL,
	`alterations` text NOT NULL,
	PRIMARY KEY(`user_id`, `contract_id`)
);
