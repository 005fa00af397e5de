-- Sharing and mentors (issue 59): public links (shares), mentor grants and their reads, comments on trades and days.
CREATE TABLE "comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"journal_id" uuid,
	"day" date,
	"author_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comments_one_target" CHECK (("comments"."journal_id" is null) <> ("comments"."day" is null))
);
--> statement-breakpoint
CREATE TABLE "mentor_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"email" text NOT NULL,
	"mentor_id" uuid,
	"account_ids" uuid[] NOT NULL,
	"scopes" text[] NOT NULL,
	"status" text DEFAULT 'invited' NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	CONSTRAINT "mentor_grants_owner_email" UNIQUE("owner_id","email")
);
--> statement-breakpoint
CREATE TABLE "mentor_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"grant_id" uuid NOT NULL,
	"route" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"journal_id" uuid,
	"account_ids" uuid[] NOT NULL,
	"from_at" timestamp with time zone,
	"to_at" timestamp with time zone,
	"show" jsonb NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"views" bigint DEFAULT 0 NOT NULL,
	"last_viewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shares_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "shares_kind_target" CHECK (("shares"."kind" = 'trade') = ("shares"."journal_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_journal_id_trade_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."trade_journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentor_grants" ADD CONSTRAINT "mentor_grants_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentor_grants" ADD CONSTRAINT "mentor_grants_mentor_id_users_id_fk" FOREIGN KEY ("mentor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentor_views" ADD CONSTRAINT "mentor_views_grant_id_mentor_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."mentor_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_journal_id_trade_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."trade_journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_journal_idx" ON "comments" USING btree ("journal_id","created_at");--> statement-breakpoint
CREATE INDEX "comments_day_idx" ON "comments" USING btree ("account_id","day","created_at");--> statement-breakpoint
CREATE INDEX "mentor_grants_email_idx" ON "mentor_grants" USING btree ("email");--> statement-breakpoint
CREATE INDEX "mentor_grants_mentor_idx" ON "mentor_grants" USING btree ("mentor_id");--> statement-breakpoint
CREATE INDEX "mentor_views_grant_idx" ON "mentor_views" USING btree ("grant_id","at");--> statement-breakpoint
CREATE INDEX "shares_user_idx" ON "shares" USING btree ("user_id","created_at");