-- The weekly digest's deliveries: one row per user and week, claimed once (docs/digest.md).
CREATE TABLE "digest_sends" (
	"user_id" uuid NOT NULL,
	"week" date NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "digest_sends_user_id_week_pk" PRIMARY KEY("user_id","week"),
	CONSTRAINT "digest_sends_status_known" CHECK ("digest_sends"."status" in ('sending', 'retry', 'sent', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "digest_sends" ADD CONSTRAINT "digest_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "digest_sends_status_idx" ON "digest_sends" USING btree ("status","claimed_at");