-- A broker's own rate per account and date (IBKR Flex fxRateToBase), the rates a staged import carries to its commit, and each month kept in the base as a drawdown segment (docs/currencies.md).
CREATE TABLE "fx_broker_rates" (
	"user_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"base" text NOT NULL,
	"day" date NOT NULL,
	"k" numeric NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fx_broker_rates_account_id_base_day_pk" PRIMARY KEY("account_id","base","day"),
	CONSTRAINT "fx_broker_rates_positive" CHECK (k > 0)
);
--> statement-breakpoint
ALTER TABLE "csv_imports" ADD COLUMN "broker_rates" jsonb;--> statement-breakpoint
-- The months kept in the base are a cache: dropped, and built again with their drawdown segments on the next read.
DELETE FROM "stats_base_groups";--> statement-breakpoint
DELETE FROM "stats_base_months";--> statement-breakpoint
ALTER TABLE "stats_base_months" ADD COLUMN "dd_net" numeric NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_base_months" ADD COLUMN "dd_high" numeric NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_base_months" ADD COLUMN "dd_low" numeric NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_base_months" ADD COLUMN "dd_drop" numeric NOT NULL;--> statement-breakpoint
ALTER TABLE "fx_broker_rates" ADD CONSTRAINT "fx_broker_rates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fx_broker_rates" ADD CONSTRAINT "fx_broker_rates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fx_broker_rates_user_base_idx" ON "fx_broker_rates" USING btree ("user_id","base");