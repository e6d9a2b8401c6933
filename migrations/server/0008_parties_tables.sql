CREATE TABLE "counterparty_banks" (
	"counterparty_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"account" text NOT NULL,
	"account_name" text NOT NULL,
	CONSTRAINT "counterparty_banks_counterparty_id_position_pk" PRIMARY KEY("counterparty_id","position")
);
--> statement-breakpoint
CREATE TABLE "counterparty_contacts" (
	"counterparty_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text,
	"email" text,
	"title" text,
	CONSTRAINT "counterparty_contacts_counterparty_id_position_pk" PRIMARY KEY("counterparty_id","position")
);
--> statement-breakpoint
CREATE TABLE "counterparty_monitoring_results" (
	"id" text PRIMARY KEY NOT NULL,
	"counterparty_id" text NOT NULL,
	"dimension_name" text NOT NULL,
	"info" text NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "counterparty_registrations" (
	"counterparty_id" text PRIMARY KEY NOT NULL,
	"enterprise_type" text,
	"registered_capital" text,
	"history_name" text,
	"business_scope" text,
	"term_start" date,
	"term_end" date,
	"governing_body" text,
	"legal_person" text,
	"establishment_date" date,
	"cancellation_date" date,
	"approval_date" date,
	"registration_status" text
);
--> statement-breakpoint
CREATE TABLE "counterparty_risks" (
	"id" text PRIMARY KEY NOT NULL,
	"counterparty_id" text NOT NULL,
	"dimension_name" text NOT NULL,
	"description" text NOT NULL,
	"occurred_on" date NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploaded_files" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"contract_id" text,
	"uploaded_by" text NOT NULL,
	"name" text NOT NULL,
	"extension" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"purpose" text NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "intellectual_properties" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"registration_number" text NOT NULL,
	"owner_organization_id" text NOT NULL,
	"status" text NOT NULL,
	"application_date" date,
	"registration_date" date,
	"expiration_date" date,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" text,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "intellectual_properties_dates_check" CHECK ("intellectual_properties"."expiration_date" is null or "intellectual_properties"."application_date" is null or "intellectual_properties"."expiration_date" >= "intellectual_properties"."application_date")
);
--> statement-breakpoint
CREATE TABLE "ip_organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL,
	"credit_code" text,
	"contact_name" text,
	"contact_phone" text,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" text,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ip_records" (
	"id" text PRIMARY KEY NOT NULL,
	"intellectual_property_id" text NOT NULL,
	"kind" text NOT NULL,
	"record_date" date NOT NULL,
	"title" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"created_by" text,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ip_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"intellectual_property_id" text NOT NULL,
	"from_organization_id" text NOT NULL,
	"to_organization_id" text NOT NULL,
	"transfer_date" date NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_by" text,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "law_firms" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lawyers" (
	"id" text PRIMARY KEY NOT NULL,
	"law_firm_id" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "score_result_items" (
	"result_id" text NOT NULL,
	"criterion_id" text NOT NULL,
	"actual_score" integer NOT NULL,
	CONSTRAINT "score_result_items_result_id_criterion_id_pk" PRIMARY KEY("result_id","criterion_id"),
	CONSTRAINT "score_result_items_score_check" CHECK ("score_result_items"."actual_score" >= 0)
);
--> statement-breakpoint
CREATE TABLE "score_results" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"counterparty_id" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"total_score" integer NOT NULL,
	"max_total_score" integer NOT NULL,
	"scored_by" text,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scoring_criteria" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"name" text NOT NULL,
	"criterion" text NOT NULL,
	"max_score" integer NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "scoring_criteria_max_score_check" CHECK ("scoring_criteria"."max_score" > 0)
);
--> statement-breakpoint
CREATE TABLE "scoring_criteria_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "keyword" text;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "id_number" text;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "contact_info" text;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "fax" text;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "rating" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "rating_remark" text;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "is_connected_transaction" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "detail_refreshed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "counterparties" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "counterparty_banks" ADD CONSTRAINT "counterparty_banks_counterparty_id_counterparties_id_fk" FOREIGN KEY ("counterparty_id") REFERENCES "public"."counterparties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counterparty_contacts" ADD CONSTRAINT "counterparty_contacts_counterparty_id_counterparties_id_fk" FOREIGN KEY ("counterparty_id") REFERENCES "public"."counterparties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counterparty_monitoring_results" ADD CONSTRAINT "counterparty_monitoring_results_counterparty_id_counterparties_id_fk" FOREIGN KEY ("counterparty_id") REFERENCES "public"."counterparties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counterparty_registrations" ADD CONSTRAINT "counterparty_registrations_counterparty_id_counterparties_id_fk" FOREIGN KEY ("counterparty_id") REFERENCES "public"."counterparties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counterparty_risks" ADD CONSTRAINT "counterparty_risks_counterparty_id_counterparties_id_fk" FOREIGN KEY ("counterparty_id") REFERENCES "public"."counterparties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploaded_files" ADD CONSTRAINT "uploaded_files_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploaded_files" ADD CONSTRAINT "uploaded_files_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploaded_files" ADD CONSTRAINT "uploaded_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intellectual_properties" ADD CONSTRAINT "intellectual_properties_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intellectual_properties" ADD CONSTRAINT "intellectual_properties_owner_organization_id_ip_organizations_id_fk" FOREIGN KEY ("owner_organization_id") REFERENCES "public"."ip_organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intellectual_properties" ADD CONSTRAINT "intellectual_properties_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_organizations" ADD CONSTRAINT "ip_organizations_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_organizations" ADD CONSTRAINT "ip_organizations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_records" ADD CONSTRAINT "ip_records_intellectual_property_id_intellectual_properties_id_fk" FOREIGN KEY ("intellectual_property_id") REFERENCES "public"."intellectual_properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_records" ADD CONSTRAINT "ip_records_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_transfers" ADD CONSTRAINT "ip_transfers_intellectual_property_id_intellectual_properties_id_fk" FOREIGN KEY ("intellectual_property_id") REFERENCES "public"."intellectual_properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_transfers" ADD CONSTRAINT "ip_transfers_from_organization_id_ip_organizations_id_fk" FOREIGN KEY ("from_organization_id") REFERENCES "public"."ip_organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_transfers" ADD CONSTRAINT "ip_transfers_to_organization_id_ip_organizations_id_fk" FOREIGN KEY ("to_organization_id") REFERENCES "public"."ip_organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_transfers" ADD CONSTRAINT "ip_transfers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "law_firms" ADD CONSTRAINT "law_firms_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lawyers" ADD CONSTRAINT "lawyers_law_firm_id_law_firms_id_fk" FOREIGN KEY ("law_firm_id") REFERENCES "public"."law_firms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_result_items" ADD CONSTRAINT "score_result_items_result_id_score_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."score_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_result_items" ADD CONSTRAINT "score_result_items_criterion_id_scoring_criteria_id_fk" FOREIGN KEY ("criterion_id") REFERENCES "public"."scoring_criteria"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_results" ADD CONSTRAINT "score_results_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_results" ADD CONSTRAINT "score_results_counterparty_id_counterparties_id_fk" FOREIGN KEY ("counterparty_id") REFERENCES "public"."counterparties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_results" ADD CONSTRAINT "score_results_scored_by_users_id_fk" FOREIGN KEY ("scored_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scoring_criteria" ADD CONSTRAINT "scoring_criteria_group_id_scoring_criteria_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."scoring_criteria_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scoring_criteria_groups" ADD CONSTRAINT "scoring_criteria_groups_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "counterparty_monitoring_counterparty_idx" ON "counterparty_monitoring_results" USING btree ("counterparty_id","update_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "counterparty_risks_counterparty_idx" ON "counterparty_risks" USING btree ("counterparty_id","occurred_on" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "uploaded_files_contract_idx" ON "uploaded_files" USING btree ("contract_id");--> statement-breakpoint
CREATE UNIQUE INDEX "intellectual_properties_number_key" ON "intellectual_properties" USING btree ("organisation_id","type","registration_number");--> statement-breakpoint
CREATE INDEX "intellectual_properties_owner_idx" ON "intellectual_properties" USING btree ("owner_organization_id");--> statement-breakpoint
CREATE INDEX "intellectual_properties_update_time_idx" ON "intellectual_properties" USING btree ("organisation_id","update_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "ip_organizations_name_key" ON "ip_organizations" USING btree ("organisation_id","name");--> statement-breakpoint
CREATE INDEX "ip_records_property_idx" ON "ip_records" USING btree ("intellectual_property_id","record_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ip_transfers_property_idx" ON "ip_transfers" USING btree ("intellectual_property_id","create_time");--> statement-breakpoint
CREATE UNIQUE INDEX "law_firms_organisation_name_key" ON "law_firms" USING btree ("organisation_id","name");--> statement-breakpoint
CREATE INDEX "lawyers_law_firm_idx" ON "lawyers" USING btree ("law_firm_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_organisation_name_key" ON "projects" USING btree ("organisation_id","name");--> statement-breakpoint
CREATE INDEX "projects_update_time_idx" ON "projects" USING btree ("organisation_id","update_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "score_results_contract_key" ON "score_results" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "score_results_counterparty_idx" ON "score_results" USING btree ("counterparty_id");--> statement-breakpoint
CREATE INDEX "scoring_criteria_group_idx" ON "scoring_criteria" USING btree ("group_id","sort_order");--> statement-breakpoint
CREATE INDEX "scoring_criteria_groups_organisation_idx" ON "scoring_criteria_groups" USING btree ("organisation_id","sort_order");--> statement-breakpoint
ALTER TABLE "counterparties" ADD CONSTRAINT "counterparties_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "counterparties_name_prefix_idx" ON "counterparties" USING btree ("organisation_id","type",lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "counterparties_update_time_idx" ON "counterparties" USING btree ("organisation_id","type","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "counterparties" ADD CONSTRAINT "counterparties_rating_check" CHECK ("counterparties"."rating" in (0, 10, 20, 30, 40));