-- Sign-in throttle per user name and client address (issue 11, "Server hardening"): the per-name
-- failure log let anyone lock any user out, and it counted failures only after the password check.
CREATE TABLE "login_throttles" (
	"username" text NOT NULL,
	"address" text NOT NULL,
	"attempts" integer NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_throttles_username_address_pk" PRIMARY KEY("username","address")
);
--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;--> statement-breakpoint
CREATE INDEX "login_throttles_last_attempt_idx" ON "login_throttles" USING btree ("last_attempt_at");