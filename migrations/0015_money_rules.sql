-- Money rules (DESIGN.md section 9): each fill share carries its time and the gross P&L it realised, so
-- realised P&L counts on the day it is realised (partial exits included) and a futures fill moves cash by
-- its fees and realised P&L. The shares are derived data: post-migration 0002_money_rules rebuilds every
-- position (the new positions_rebuild fills `realized`) and re-derives the ledger. The times are copied here
-- already, so dated statistics work even before that post-migration runs (SKIP_POST_MIGRATIONS).
ALTER TABLE "position_fills" ADD COLUMN "executed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "position_fills" ADD COLUMN "realized" numeric(28, 10) DEFAULT '0' NOT NULL;--> statement-breakpoint
UPDATE "position_fills" pf SET "executed_at" = f."executed_at" FROM "fills" f WHERE f."id" = pf."fill_id";--> statement-breakpoint
CREATE INDEX "ledger_entries_opening_idx" ON "ledger_entries" USING btree ("account_id") WHERE "ledger_entries"."type" = 'opening';
