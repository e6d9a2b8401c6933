DROP INDEX "performance_plans_contract_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "performance_plans_contract_performance_key" ON "performance_plans" USING btree ("contract_id","performance_id");--> statement-breakpoint
CREATE INDEX "performance_tasks_performance_idx" ON "performance_tasks" USING btree ("performance_id");--> statement-breakpoint
CREATE INDEX "performance_tasks_created_by_idx" ON "performance_tasks" USING btree ("created_by");