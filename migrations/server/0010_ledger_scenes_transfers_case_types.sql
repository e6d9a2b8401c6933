CREATE TABLE "case_type_templates" (
	"case_type_id" text NOT NULL,
	"template_id" text NOT NULL,
	CONSTRAINT "case_type_templates_case_type_id_template_id_pk" PRIMARY KEY("case_type_id","template_id")
);
--> statement-breakpoint
CREATE TABLE "case_types" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"parent_id" text,
	"name" text NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "case_types_state_check" CHECK ("case_types"."state" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "contract_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"from_user_id" text,
	"to_user_id" text NOT NULL,
	"handle_method" smallint NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_transfers_handle_method_check" CHECK ("contract_transfers"."handle_method" in (1, 2)),
	CONSTRAINT "contract_transfers_reason_check" CHECK (char_length("contract_transfers"."reason") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "ledger_fields" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"type" text NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_default_filter" boolean DEFAULT false NOT NULL,
	"is_default_title" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ledger_fields_category_check" CHECK ("ledger_fields"."category" in ('system', 'contract'))
);
--> statement-breakpoint
CREATE TABLE "ledger_scenes" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"performance_id" text,
	"filter_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"filters" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"title_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "ledger_scenes_name_check" CHECK (char_length("ledger_scenes"."name") between 1 and 50)
);
--> statement-breakpoint
CREATE TABLE "ledger_task_counts" (
	"contract_id" text NOT NULL,
	"performance_id" text NOT NULL,
	"count" integer NOT NULL,
	"responsible_user_id" text,
	"department_id" text,
	"business_handler_user_id" text,
	CONSTRAINT "ledger_task_counts_contract_id_performance_id_pk" PRIMARY KEY("contract_id","performance_id")
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_type_templates" ADD CONSTRAINT "case_type_templates_case_type_id_case_types_id_fk" FOREIGN KEY ("case_type_id") REFERENCES "public"."case_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_type_templates" ADD CONSTRAINT "case_type_templates_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_types" ADD CONSTRAINT "case_types_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_transfers" ADD CONSTRAINT "contract_transfers_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_transfers" ADD CONSTRAINT "contract_transfers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_transfers" ADD CONSTRAINT "contract_transfers_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_transfers" ADD CONSTRAINT "contract_transfers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_scenes" ADD CONSTRAINT "ledger_scenes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_scenes" ADD CONSTRAINT "ledger_scenes_performance_id_performances_id_fk" FOREIGN KEY ("performance_id") REFERENCES "public"."performances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_task_counts" ADD CONSTRAINT "ledger_task_counts_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_type_templates_template_idx" ON "case_type_templates" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "case_types_organisation_idx" ON "case_types" USING btree ("organisation_id","sort_order");--> statement-breakpoint
CREATE INDEX "contract_transfers_contract_idx" ON "contract_transfers" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "ledger_scenes_user_idx" ON "ledger_scenes" USING btree ("user_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_scenes_one_default_key" ON "ledger_scenes" USING btree ("user_id") WHERE "ledger_scenes"."is_default";--> statement-breakpoint
CREATE INDEX "ledger_task_counts_performance_idx" ON "ledger_task_counts" USING btree ("performance_id","contract_id");--> statement-breakpoint
CREATE INDEX "ledger_task_counts_responsible_user_idx" ON "ledger_task_counts" USING btree ("responsible_user_id");--> statement-breakpoint
CREATE INDEX "ledger_task_counts_department_idx" ON "ledger_task_counts" USING btree ("department_id");--> statement-breakpoint
CREATE INDEX "ledger_task_counts_business_handler_user_idx" ON "ledger_task_counts" USING btree ("business_handler_user_id");--> statement-breakpoint
CREATE INDEX "workflows_organisation_idx" ON "workflows" USING btree ("organisation_id");