-- Scene pages (issue 14): a task type and a due-date range are the commonest scene filters; this
-- index answers them (and the join key) without reading the task rows, and the (id, status) index
-- joins a contract and checks its status without reading the (large) contract row. The planner
-- chooses between these and the others by statistics: ANALYZE after a first sync keeps them.
CREATE INDEX `performance_tasks_type_expiration` ON `performance_tasks` (`type`,`expiration_time`,`contract_id`);--> statement-breakpoint
CREATE INDEX `contracts_id_status` ON `contracts` (`id`,`status`);
