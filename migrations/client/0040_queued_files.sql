-- Files kept on the device until they reach the server (issue 30): attachments and archive PDFs
-- chosen offline, uploaded resumably before the edits that name them are pushed.
CREATE TABLE `queued_files` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`purpose` text NOT NULL,
	`contract_id` text,
	`sent` integer DEFAULT 0 NOT NULL,
	`state` text DEFAULT 'waiting' NOT NULL,
	`error` text,
	`claimed` integer DEFAULT false NOT NULL,
	`kept_at` text NOT NULL
);

