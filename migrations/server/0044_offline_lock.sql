ALTER TABLE "devices" ADD COLUMN "offline_lock_days" integer;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "offline_lock_days" integer DEFAULT 30 NOT NULL;