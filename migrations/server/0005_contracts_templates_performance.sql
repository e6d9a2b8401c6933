CREATE TABLE "contract_agents" (
	"contract_id" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "contract_agents_contract_id_user_id_pk" PRIMARY KEY("contract_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "contract_types" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL,
	"parent_id" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL,
	"template_number" text,
	"contract_type_id" text,
	"status" smallint DEFAULT 1 NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"document" jsonb,
	"created_by" text,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "templates_status_check" CHECK ("templates"."status" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "performance_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"performance_id" text NOT NULL,
	"condition_type" smallint DEFAULT 0 NOT NULL,
	"schedule" jsonb,
	"created_by" text,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "performance_task_relations" (
	"task_id" text NOT NULL,
	"front_task_id" text NOT NULL,
	CONSTRAINT "performance_task_relations_task_id_front_task_id_pk" PRIMARY KEY("task_id","front_task_id"),
	CONSTRAINT "performance_task_relations_not_self_check" CHECK ("performance_task_relations"."task_id" <> "performance_task_relations"."front_task_id")
);
--> statement-breakpoint
CREATE TABLE "performance_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"plan_id" text,
	"contract_id" text,
	"performance_id" text,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"level" smallint,
	"row_index" integer DEFAULT 1 NOT NULL,
	"expiration_time" date,
	"payable_amount" bigint,
	"receivable_amount" bigint,
	"amount_unit" text,
	"leader_user_id" text,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"completion_values" jsonb,
	"finished_amount" bigint,
	"finished_at" timestamp with time zone,
	"finished_by" text,
	"created_by" text,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "performance_tasks_state_check" CHECK ("performance_tasks"."state" between 1 and 5),
	CONSTRAINT "performance_tasks_amount_unit_check" CHECK ((coalesce("performance_tasks"."payable_amount", "performance_tasks"."receivable_amount") is null) or "performance_tasks"."amount_unit" is not null)
);
--> statement-breakpoint
CREATE TABLE "performances" (
	"id" text PRIMARY KEY NOT NULL,
	"organisation_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminder_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "business_handler_user_id" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "contract_type_id" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "template_id" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "form_values" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "project_id" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "archive_file_id" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "case_type_id" text;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "contract_agents" ADD CONSTRAINT "contract_agents_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_agents" ADD CONSTRAINT "contract_agents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_types" ADD CONSTRAINT "contract_types_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_types" ADD CONSTRAINT "contract_types_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."contract_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_contract_type_id_contract_types_id_fk" FOREIGN KEY ("contract_type_id") REFERENCES "public"."contract_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_plans" ADD CONSTRAINT "performance_plans_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_plans" ADD CONSTRAINT "performance_plans_performance_id_performances_id_fk" FOREIGN KEY ("performance_id") REFERENCES "public"."performances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_plans" ADD CONSTRAINT "performance_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_task_relations" ADD CONSTRAINT "performance_task_relations_task_id_performance_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."performance_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_task_relations" ADD CONSTRAINT "performance_task_relations_front_task_id_performance_tasks_id_fk" FOREIGN KEY ("front_task_id") REFERENCES "public"."performance_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_tasks" ADD CONSTRAINT "performance_tasks_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_tasks" ADD CONSTRAINT "performance_tasks_plan_id_performance_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."performance_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_tasks" ADD CONSTRAINT "performance_tasks_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_tasks" ADD CONSTRAINT "performance_tasks_performance_id_performances_id_fk" FOREIGN KEY ("performance_id") REFERENCES "public"."performances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_tasks" ADD CONSTRAINT "performance_tasks_leader_user_id_users_id_fk" FOREIGN KEY ("leader_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_tasks" ADD CONSTRAINT "performance_tasks_finished_by_users_id_fk" FOREIGN KEY ("finished_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_tasks" ADD CONSTRAINT "performance_tasks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performances" ADD CONSTRAINT "performances_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_settings" ADD CONSTRAINT "reminder_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_agents_user_idx" ON "contract_agents" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_types_organisation_name_key" ON "contract_types" USING btree ("organisation_id","name");--> statement-breakpoint
CREATE INDEX "templates_organisation_idx" ON "templates" USING btree ("organisation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "templates_number_key" ON "templates" USING btree ("organisation_id","template_number");--> statement-breakpoint
CREATE INDEX "performance_plans_contract_idx" ON "performance_plans" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "performance_plans_performance_idx" ON "performance_plans" USING btree ("performance_id");--> statement-breakpoint
CREATE INDEX "performance_task_relations_front_idx" ON "performance_task_relations" USING btree ("front_task_id");--> statement-breakpoint
CREATE INDEX "performance_tasks_plan_idx" ON "performance_tasks" USING btree ("plan_id","row_index");--> statement-breakpoint
CREATE INDEX "performance_tasks_contract_idx" ON "performance_tasks" USING btree ("contract_id","row_index");--> statement-breakpoint
CREATE INDEX "performance_tasks_leader_due_idx" ON "performance_tasks" USING btree ("leader_user_id","expiration_time");--> statement-breakpoint
CREATE INDEX "performance_tasks_due_idx" ON "performance_tasks" USING btree ("organisation_id","expiration_time");--> statement-breakpoint
CREATE INDEX "performances_organisation_idx" ON "performances" USING btree ("organisation_id");--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_business_handler_user_id_users_id_fk" FOREIGN KEY ("business_handler_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_contract_type_id_contract_types_id_fk" FOREIGN KEY ("contract_type_id") REFERENCES "public"."contract_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contracts_project_idx" ON "contracts" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "contracts_contract_type_idx" ON "contracts" USING btree ("contract_type_id");