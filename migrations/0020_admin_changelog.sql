CREATE TABLE "admin_audit" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" uuid,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"target_user_id" uuid,
	"target_email" text NOT NULL,
	"reason" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_audit_action_known" CHECK ("admin_audit"."action" in ('promote', 'demote', 'set_plan', 'credit_grant', 'end_sessions'))
);
--> statement-breakpoint
CREATE TABLE "changelog_cache" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"repo" text NOT NULL,
	"releases" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"refreshing_until" timestamp with time zone,
	CONSTRAINT "changelog_cache_single_row" CHECK ("changelog_cache"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "changelog_viewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "admin_audit" ADD CONSTRAINT "admin_audit_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_audit" ADD CONSTRAINT "admin_audit_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_at_idx" ON "admin_audit" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
UPDATE "users" u SET "last_seen_at" = s.seen FROM (SELECT user_id, max(last_seen_at) AS seen FROM sessions GROUP BY user_id) s WHERE s.user_id = u.id;