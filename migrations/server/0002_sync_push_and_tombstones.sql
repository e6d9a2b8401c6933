CREATE TABLE "contract_tombstones" (
	"change_seq" bigint PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"responsible_user_id" text,
	"department_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "processed_mutations" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"client_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"name" text NOT NULL,
	"result" jsonb,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_horizon" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"pruned_through" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sync_horizon_single_row_check" CHECK ("sync_horizon"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "processed_mutations" ADD CONSTRAINT "processed_mutations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_tombstones_created_at_idx" ON "contract_tombstones" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "processed_mutations_client_idx" ON "processed_mutations" USING btree ("client_id","seq");--> statement-breakpoint
DROP SEQUENCE "public"."contract_change_seq";