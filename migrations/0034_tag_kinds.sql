-- Tag kinds (issue 36): a tag marked as a setup, a mistake or an emotion, per user (lib/tags).
CREATE TABLE "tag_kinds" (
	"user_id" uuid NOT NULL,
	"tag" text NOT NULL,
	"kind" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tag_kinds_user_id_tag_pk" PRIMARY KEY("user_id","tag"),
	CONSTRAINT "tag_kinds_kind_known" CHECK ("tag_kinds"."kind" in ('setup', 'mistake', 'emotion'))
);
--> statement-breakpoint
ALTER TABLE "tag_kinds" ADD CONSTRAINT "tag_kinds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;