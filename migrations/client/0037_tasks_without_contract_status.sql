-- The tasks whose contract is not in the replica (quick tasks without a contract, mostly): few,
-- so this index is small. An unfiltered scene counts its tasks as all tasks (SQLite counts a
-- table's rows by its pages) less these, instead of reading 200,000 index entries for the
-- `contract_status IS NOT NULL` of each (src-main/core/ledger/scene-search.ts).
CREATE INDEX `performance_tasks_without_contract_status` ON `performance_tasks` (`id`) WHERE `contract_status` IS NULL;
