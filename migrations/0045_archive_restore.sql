-- The images of an archive being imported, kept until the statement that writes the archive takes them
-- (lib/archive/restore.ts, archive_restore). A row deleted with an object key (a refused archive, a discarded
-- leftover, its user deleted) queues the key in object_deletions (the trigger in
-- migrations/functions/archive/archive_restore_images_queue_object_deletion.sql); archive_restore clears the
-- keys it takes first.
CREATE TABLE "archive_restore_images" (
	"id" uuid PRIMARY KEY NOT NULL,
	"restore_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"file" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"data" "bytea",
	"storage_key" text,
	"created_at" timestamp with time zone NOT NULL,
	"staged_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "archive_restore_images" ADD CONSTRAINT "archive_restore_images_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "archive_restore_images_restore_idx" ON "archive_restore_images" USING btree ("restore_id","file");--> statement-breakpoint
CREATE INDEX "archive_restore_images_staged_idx" ON "archive_restore_images" USING btree ("staged_at");
