ALTER TABLE "performance_tasks" ADD COLUMN "field_versions" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "performance_plans" ADD COLUMN "field_versions" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_scenes" ADD COLUMN "field_versions" jsonb DEFAULT '{}'::jsonb NOT NULL;
