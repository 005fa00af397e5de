-- The version of each user's maintained statistics, raised by every function that writes them
-- (migrations/functions/stats/stats_versions.sql): a read that finds the version it computed its figures at
-- finds the same rows (lib/stats/cache.ts). A user without a row is at version 0.
CREATE TABLE "stats_versions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stats_versions" ADD CONSTRAINT "stats_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;