CREATE TABLE "ledger_task_totals" (
	"performance_id" text NOT NULL,
	"responsible_user_id" text,
	"department_id" text,
	"business_handler_user_id" text,
	"count" bigint NOT NULL
);
