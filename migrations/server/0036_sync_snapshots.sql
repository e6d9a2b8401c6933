-- A user's prepared first sync (issue 12, src-server/sync/snapshots.ts): the feed's pages from
-- cursor 0, compressed once and served whole to a new replica of that user.
CREATE TABLE "sync_snapshots" (
	"user_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"protocol_version" integer NOT NULL,
	"schema_version" integer NOT NULL,
	"level" bigint NOT NULL,
	"position" bigint NOT NULL,
	"body" bytea NOT NULL,
	"built_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Brotli does not compress again: stored out of line as it is.
ALTER TABLE "sync_snapshots" ALTER COLUMN "body" SET STORAGE EXTERNAL;
