ALTER TABLE "law_firms" ADD COLUMN "state" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "lawyers" ADD COLUMN "state" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "law_firms" ADD CONSTRAINT "law_firms_state_check" CHECK ("law_firms"."state" in (1, 2));--> statement-breakpoint
ALTER TABLE "lawyers" ADD CONSTRAINT "lawyers_state_check" CHECK ("lawyers"."state" in (1, 2));