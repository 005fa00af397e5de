-- The ledger in days (docs/accounts.md, "The ledger at any depth"): instead of a rank and a running balance
-- per entry over the whole ledger (which a backdated entry rewrote for every later entry), each entry keeps
-- its place and running sum within its UTC day, and ledger_days each day's count and total. A rank or a
-- balance is the days before plus the place in the day; ledger_months sums the days per month, so a page
-- finds its days among a few dozen rows. Filled here from the existing entries; kept from now on by the
-- trigger ledger_days_follow (migrations/functions/ledger).
CREATE TABLE "ledger_days" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"entries" integer NOT NULL,
	"total" numeric(28, 10) NOT NULL,
	CONSTRAINT "ledger_days_account_id_day_pk" PRIMARY KEY("account_id","day")
);
--> statement-breakpoint
CREATE TABLE "ledger_months" (
	"account_id" uuid NOT NULL,
	"month" date NOT NULL,
	"entries" integer NOT NULL,
	"total" numeric(28, 10) NOT NULL,
	CONSTRAINT "ledger_months_account_id_month_pk" PRIMARY KEY("account_id","month")
);
--> statement-breakpoint
CREATE TABLE "ledger_days_pending" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "ledger_days_pending_account_id_day_pk" PRIMARY KEY("account_id","day")
);
--> statement-breakpoint
ALTER TABLE "ledger_months" ADD CONSTRAINT "ledger_months_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_days" ADD CONSTRAINT "ledger_days_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP INDEX "ledger_entries_account_rank_idx";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "day" date GENERATED ALWAYS AS (((occurred_at AT TIME ZONE 'UTC')::date)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "day_rank" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "day_balance" numeric(28, 10) DEFAULT '0' NOT NULL;--> statement-breakpoint
UPDATE "ledger_entries" e SET "day_rank" = s.rn, "day_balance" = s.running
FROM (
  SELECT id, row_number() OVER w AS rn, sum(amount) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running
  FROM "ledger_entries"
  WINDOW w AS (PARTITION BY account_id, day ORDER BY occurred_at, id)
) s
WHERE e.id = s.id;--> statement-breakpoint
INSERT INTO "ledger_days" (account_id, day, entries, total)
SELECT account_id, day, count(*), sum(amount) FROM "ledger_entries" GROUP BY account_id, day;--> statement-breakpoint
INSERT INTO "ledger_months" (account_id, month, entries, total)
SELECT account_id, date_trunc('month', day)::date, sum(entries), sum(total) FROM "ledger_days" GROUP BY 1, 2;--> statement-breakpoint
CREATE INDEX "ledger_entries_account_day_idx" ON "ledger_entries" USING btree ("account_id","day","day_rank");--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP COLUMN "rank";--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP COLUMN "balance_after";
