-- Discipline (issue 36): playbooks with a checklist, a trade journal's playbook and its answers (which follow the
-- fills with the rest of the journal), and the daily journal (one entry per account and trading day).
CREATE TABLE "day_journals" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"plan" text,
	"review" text,
	"mood" smallint,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "day_journals_account_id_day_pk" PRIMARY KEY("account_id","day"),
	CONSTRAINT "day_journals_mood_range" CHECK ("day_journals"."mood" is null or "day_journals"."mood" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "playbooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"entry_criteria" text,
	"exit_criteria" text,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trade_journals" ADD COLUMN "playbook_id" uuid;--> statement-breakpoint
ALTER TABLE "trade_journals" ADD COLUMN "playbook_answers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "day_journals" ADD CONSTRAINT "day_journals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbooks" ADD CONSTRAINT "playbooks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "playbooks_user_name_idx" ON "playbooks" USING btree ("user_id",lower("name"));--> statement-breakpoint
ALTER TABLE "trade_journals" ADD CONSTRAINT "trade_journals_playbook_id_playbooks_id_fk" FOREIGN KEY ("playbook_id") REFERENCES "public"."playbooks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_journals_playbook_idx" ON "trade_journals" USING btree ("playbook_id");