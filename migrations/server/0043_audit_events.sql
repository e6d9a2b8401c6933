CREATE TABLE "audit_events" (
	"organisation_id" text NOT NULL,
	"seq" integer NOT NULL,
	"user_id" text NOT NULL,
	"user_name" text NOT NULL,
	"device" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"action" text NOT NULL,
	"changes" jsonb NOT NULL,
	"edited_at" timestamp with time zone,
	"applied_at" timestamp with time zone NOT NULL,
	"mutation_id" text,
	"request_id" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_events_organisation_id_seq_pk" PRIMARY KEY("organisation_id","seq")
);
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "audit_retention_days" integer DEFAULT 3650 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_entity_idx" ON "audit_events" USING btree ("organisation_id","entity","entity_id");--> statement-breakpoint
CREATE INDEX "audit_events_user_idx" ON "audit_events" USING btree ("organisation_id","user_id");--> statement-breakpoint
CREATE INDEX "audit_events_applied_idx" ON "audit_events" USING btree ("organisation_id","applied_at");--> statement-breakpoint
-- Append-only: the server never changes an event (pruning deletes the oldest). Whoever can drop
-- this trigger can still edit rows: the hash chain is what detects that (src-server/audit/chain.ts).
CREATE FUNCTION "audit_events_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit events are append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_update"();
