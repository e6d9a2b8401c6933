-- A user's first sync as a ready replica image (issue 33, src-server/sync/images.ts): a SQLite
-- file built by the core's migrations and pull writers, brotli compressed, downloaded by byte
-- range by a new replica of that user at the same replica schema version.
CREATE TABLE "sync_images" (
	"user_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"protocol_version" integer NOT NULL,
	"schema_version" integer NOT NULL,
	"replica_version" integer NOT NULL,
	"level" bigint NOT NULL,
	"position" bigint NOT NULL,
	"cursor" text NOT NULL,
	"changes" integer NOT NULL,
	"sha256" text NOT NULL,
	"body" bytea NOT NULL,
	"raw_bytes" bigint NOT NULL,
	"build_ms" integer NOT NULL,
	"built_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Brotli does not compress again, and a byte range is read without the rest: stored out of line as it is.
ALTER TABLE "sync_images" ALTER COLUMN "body" SET STORAGE EXTERNAL;
