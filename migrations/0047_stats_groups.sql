-- Statistics at any depth (docs/trading.md, "Statistics at any depth"): the figures the dashboard, the calendar,
-- the equity curve, the breakdowns and the advisor read come from stats_groups (per account, trading day or
-- month, dimension, key and 1R) and stats_drawdown_days (per user, currency and UTC day), kept by the triggers
-- and functions in migrations/functions/stats. Fill shares carry their account, indexed with their time, so a
-- day's shares are found without reading the account's history. The tables are filled by the post-migration
-- 0003_stats_backfill (the functions that fill them are defined after the migrations).
CREATE TABLE "stats_drawdown_days" (
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"net" numeric(28, 10) NOT NULL,
	"high" numeric(28, 10) NOT NULL,
	"low" numeric(28, 10) NOT NULL,
	"drop" numeric(28, 10) NOT NULL,
	CONSTRAINT "stats_drawdown_days_user_id_currency_day_pk" PRIMARY KEY("user_id","currency","day")
);
--> statement-breakpoint
CREATE TABLE "stats_groups" (
	"account_id" uuid NOT NULL,
	"grain" text NOT NULL,
	"dim" text NOT NULL,
	"day" date NOT NULL,
	"key" text NOT NULL,
	"one_r" numeric(28, 10),
	"net" numeric(28, 10) NOT NULL,
	"gross" numeric(28, 10) NOT NULL,
	"fees" numeric(28, 10) NOT NULL,
	"moved" integer NOT NULL,
	"trades" integer NOT NULL,
	"wins" integer NOT NULL,
	"losses" integer NOT NULL,
	"trades_net" numeric(28, 10) NOT NULL,
	"wins_net" numeric(28, 10),
	"losses_net" numeric(28, 10),
	"largest" numeric(28, 10),
	"smallest" numeric(28, 10),
	"day_trades" integer,
	"day_r" numeric,
	"day_with_risk" integer,
	"dd_high" numeric(28, 10),
	"dd_low" numeric(28, 10),
	"dd_drop" numeric(28, 10),
	CONSTRAINT "stats_groups_key" UNIQUE NULLS NOT DISTINCT("account_id","grain","dim","day","key","one_r")
);
--> statement-breakpoint
CREATE TABLE "stats_pending" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"tx" bigint DEFAULT txid_current() NOT NULL,
	CONSTRAINT "stats_pending_account_id_day_tx_pk" PRIMARY KEY("account_id","day","tx")
);
--> statement-breakpoint
UPDATE "position_fills" pf SET "executed_at" = f.executed_at FROM "fills" f WHERE f.id = pf.fill_id AND pf.executed_at IS NULL;--> statement-breakpoint
DELETE FROM "position_fills" WHERE "executed_at" IS NULL;--> statement-breakpoint
ALTER TABLE "position_fills" ALTER COLUMN "executed_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "position_fills" ADD COLUMN "account_id" uuid;--> statement-breakpoint
UPDATE "position_fills" pf SET "account_id" = p.account_id FROM "positions" p WHERE p.id = pf.position_id;--> statement-breakpoint
DELETE FROM "position_fills" WHERE "account_id" IS NULL;--> statement-breakpoint
ALTER TABLE "position_fills" ALTER COLUMN "account_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_drawdown_days" ADD CONSTRAINT "stats_drawdown_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_groups" ADD CONSTRAINT "stats_groups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "position_fills_account_time_idx" ON "position_fills" USING btree ("account_id","executed_at");