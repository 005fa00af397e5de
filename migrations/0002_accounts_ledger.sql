CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"brokerage_id" uuid,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"starting_balance" numeric(28, 10) DEFAULT '0' NOT NULL,
	"timezone" text DEFAULT 'America/New_York' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brokerages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"amount" numeric(28, 10) NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"note" text,
	"fill_id" uuid,
	"rank" bigint DEFAULT 0 NOT NULL,
	"balance_after" numeric(28, 10) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_type_known" CHECK ("ledger_entries"."type" in ('opening', 'deposit', 'withdrawal', 'fill', 'adjustment'))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_brokerage_id_brokerages_id_fk" FOREIGN KEY ("brokerage_id") REFERENCES "public"."brokerages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brokerages" ADD CONSTRAINT "brokerages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_user_name_idx" ON "accounts" USING btree ("user_id",lower("name"));--> statement-breakpoint
CREATE INDEX "accounts_user_id_idx" ON "accounts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "brokerages_user_name_idx" ON "brokerages" USING btree ("user_id",lower("name"));--> statement-breakpoint
CREATE INDEX "ledger_entries_account_rank_idx" ON "ledger_entries" USING btree ("account_id","rank");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_order_idx" ON "ledger_entries" USING btree ("account_id","occurred_at","id");