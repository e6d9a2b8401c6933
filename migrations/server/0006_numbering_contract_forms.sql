CREATE TABLE "approval_records" (
	"id" text PRIMARY KEY NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"action" text NOT NULL,
	"from_status" smallint,
	"to_status" smallint NOT NULL,
	"user_id" text NOT NULL,
	"comment" text,
	"file_id" text,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "archive_offline_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_alterations" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"user_id" text NOT NULL,
	"reason" text NOT NULL,
	"changes" jsonb NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "field_definitions" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "field_options" (
	"field_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer NOT NULL,
	CONSTRAINT "field_options_field_id_id_pk" PRIMARY KEY("field_id","id")
);
--> statement-breakpoint
CREATE TABLE "template_clauses" (
	"id" text PRIMARY KEY NOT NULL,
	"template_id" text NOT NULL,
	"position" integer NOT NULL,
	"label_id" text NOT NULL,
	"name" text NOT NULL,
	"is_nullable" boolean DEFAULT false NOT NULL,
	"bookmark_name" text,
	"statement_list" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "number_counters" (
	"rule_id" text NOT NULL,
	"scope_key" text NOT NULL,
	"period" text NOT NULL,
	"last_serial" integer NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "number_counters_rule_id_scope_key_period_pk" PRIMARY KEY("rule_id","scope_key","period")
);
--> statement-breakpoint
CREATE TABLE "number_editors" (
	"organisation_id" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "number_editors_organisation_id_user_id_pk" PRIMARY KEY("organisation_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "numbering_abbr_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"kind" text NOT NULL,
	"rule_scope" smallint NOT NULL,
	"scope_key" text DEFAULT '' NOT NULL,
	"abbr" text NOT NULL,
	"date_format" smallint,
	"version" integer DEFAULT 1 NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "numbering_abbr_settings_date_format_check" CHECK ("numbering_abbr_settings"."date_format" between 0 and 3)
);
--> statement-breakpoint
CREATE TABLE "numbering_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"kind" text NOT NULL,
	"rule_scope" smallint NOT NULL,
	"scope_key" text DEFAULT '' NOT NULL,
	"digits" integer DEFAULT 1 NOT NULL,
	"is_natural" boolean DEFAULT true NOT NULL,
	"start_number" integer DEFAULT 1 NOT NULL,
	"reset_start_number" integer DEFAULT 1 NOT NULL,
	"reset_cycle" smallint DEFAULT 0 NOT NULL,
	"recount" boolean DEFAULT true NOT NULL,
	"in_use" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "numbering_rules_kind_check" CHECK ("numbering_rules"."kind" in ('contract', 'template')),
	CONSTRAINT "numbering_rules_scope_check" CHECK ("numbering_rules"."rule_scope" between 0 and 3),
	CONSTRAINT "numbering_rules_cycle_check" CHECK ("numbering_rules"."reset_cycle" between 0 and 4),
	CONSTRAINT "numbering_rules_digits_check" CHECK ("numbering_rules"."digits" between 1 and 9)
);
--> statement-breakpoint
CREATE TABLE "user_main_departments" (
	"user_id" text PRIMARY KEY NOT NULL,
	"department_id" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "contract_number_auto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_records" ADD CONSTRAINT "approval_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archive_offline_settings" ADD CONSTRAINT "archive_offline_settings_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_alterations" ADD CONSTRAINT "contract_alterations_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_alterations" ADD CONSTRAINT "contract_alterations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_definitions" ADD CONSTRAINT "field_definitions_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_options" ADD CONSTRAINT "field_options_field_id_field_definitions_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."field_definitions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_clauses" ADD CONSTRAINT "template_clauses_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "number_counters" ADD CONSTRAINT "number_counters_rule_id_numbering_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."numbering_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "number_editors" ADD CONSTRAINT "number_editors_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "number_editors" ADD CONSTRAINT "number_editors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "numbering_abbr_settings" ADD CONSTRAINT "numbering_abbr_settings_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "numbering_rules" ADD CONSTRAINT "numbering_rules_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_main_departments" ADD CONSTRAINT "user_main_departments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_main_departments" ADD CONSTRAINT "user_main_departments_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_records_subject_idx" ON "approval_records" USING btree ("subject_kind","subject_id","create_time");--> statement-breakpoint
CREATE INDEX "contract_alterations_contract_idx" ON "contract_alterations" USING btree ("contract_id","create_time");--> statement-breakpoint
CREATE INDEX "field_definitions_organisation_idx" ON "field_definitions" USING btree ("organisation_id","sort_order");--> statement-breakpoint
CREATE INDEX "field_options_order_idx" ON "field_options" USING btree ("field_id","sort_order");--> statement-breakpoint
CREATE INDEX "template_clauses_template_idx" ON "template_clauses" USING btree ("template_id","position");--> statement-breakpoint
CREATE INDEX "idempotency_keys_create_time_idx" ON "idempotency_keys" USING btree ("create_time");--> statement-breakpoint
CREATE UNIQUE INDEX "numbering_abbr_settings_scope_key" ON "numbering_abbr_settings" USING btree ("organisation_id","kind","rule_scope","scope_key");--> statement-breakpoint
CREATE UNIQUE INDEX "numbering_rules_scope_key" ON "numbering_rules" USING btree ("organisation_id","kind","rule_scope","scope_key");--> statement-breakpoint
CREATE INDEX "user_main_departments_department_idx" ON "user_main_departments" USING btree ("department_id");