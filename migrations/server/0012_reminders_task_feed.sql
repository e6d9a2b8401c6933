CREATE TABLE "performance_task_tombstones" (
	"change_seq" bigint PRIMARY KEY NOT NULL,
	"task_id" text NOT NULL,
	"contract_id" text,
	"created_by" text,
	"leader_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "performance_tasks" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reminder_settings" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "performance_task_tombstones_created_at_idx" ON "performance_task_tombstones" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "performance_tasks_change_seq_idx" ON "performance_tasks" USING btree ("change_seq");--> statement-breakpoint
CREATE INDEX "reminder_settings_change_seq_idx" ON "reminder_settings" USING btree ("user_id","change_seq");