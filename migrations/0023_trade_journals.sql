-- What a trader writes about a trade moves off the rebuilt positions into trade_journals, which follow the
-- fills through rebuilds (migrations/functions/trades/journals_follow.sql) and are detached, never deleted,
-- when their fills go. Every position that carries a note, a tag, a setup, a rating or a screenshot gets
-- its journal here, with the fills it is on; the screenshots move to the journal.
CREATE TABLE "journal_fills" (
	"journal_id" uuid NOT NULL,
	"fill_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"quantity" numeric(28, 10) NOT NULL,
	"price" numeric(28, 10) NOT NULL,
	"executed_at" timestamp with time zone NOT NULL,
	"execution_id" text,
	CONSTRAINT "journal_fills_journal_id_fill_id_pk" PRIMARY KEY("journal_id","fill_id")
);
--> statement-breakpoint
CREATE TABLE "trade_journals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"position_id" uuid,
	"last_position_id" uuid,
	"former_position_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"notes" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"setup" text,
	"rating" smallint,
	"symbol" text NOT NULL,
	"direction" text,
	"opened_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"net_pnl" numeric(28, 10),
	"fill_count" integer DEFAULT 0 NOT NULL,
	"detached_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_journals_position_id_unique" UNIQUE("position_id"),
	CONSTRAINT "trade_journals_rating_range" CHECK ("trade_journals"."rating" is null or "trade_journals"."rating" between 1 and 5)
);
--> statement-breakpoint
ALTER TABLE "journal_fills" ADD CONSTRAINT "journal_fills_journal_id_trade_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."trade_journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_journals" ADD CONSTRAINT "trade_journals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_journals" ADD CONSTRAINT "trade_journals_position_id_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."positions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_journals_account_symbol_idx" ON "trade_journals" USING btree ("account_id","symbol");--> statement-breakpoint
CREATE INDEX "trade_journals_former_idx" ON "trade_journals" USING gin ("former_position_ids");--> statement-breakpoint
CREATE INDEX "trade_journals_last_position_idx" ON "trade_journals" USING btree ("last_position_id");--> statement-breakpoint
INSERT INTO "trade_journals" ("account_id", "position_id", "last_position_id", "notes", "tags", "setup", "rating", "symbol",
  "direction", "opened_at", "closed_at", "net_pnl", "fill_count", "created_at", "updated_at")
SELECT p.account_id, p.id, p.id, p.notes, p.tags, p.setup, p.rating, p.symbol, p.direction, p.opened_at, p.closed_at, p.net_pnl,
  (SELECT count(*) FROM position_fills pf WHERE pf.position_id = p.id), p.updated_at, p.updated_at
FROM positions p
WHERE p.notes IS NOT NULL OR cardinality(p.tags) > 0 OR p.setup IS NOT NULL OR p.rating IS NOT NULL
  OR EXISTS (SELECT 1 FROM trade_images i WHERE i.position_id = p.id);--> statement-breakpoint
INSERT INTO "journal_fills" ("journal_id", "fill_id", "symbol", "side", "quantity", "price", "executed_at", "execution_id")
SELECT j.id, f.id, f.symbol, f.side, f.quantity, f.price, date_trunc('second', f.executed_at), f.execution_id
FROM trade_journals j JOIN position_fills pf ON pf.position_id = j.position_id JOIN fills f ON f.id = pf.fill_id;--> statement-breakpoint
ALTER TABLE "trade_images" ADD COLUMN "journal_id" uuid;--> statement-breakpoint
UPDATE "trade_images" i SET "journal_id" = j.id FROM "trade_journals" j WHERE j.position_id = i.position_id;--> statement-breakpoint
ALTER TABLE "trade_images" ALTER COLUMN "journal_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_images" DROP CONSTRAINT "trade_images_position_id_positions_id_fk";--> statement-breakpoint
DROP INDEX "trade_images_position_idx";--> statement-breakpoint
ALTER TABLE "trade_images" DROP COLUMN "position_id";--> statement-breakpoint
ALTER TABLE "trade_images" ADD CONSTRAINT "trade_images_journal_id_trade_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."trade_journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_images_journal_idx" ON "trade_images" USING btree ("journal_id","created_at");--> statement-breakpoint
ALTER TABLE "positions" DROP CONSTRAINT "positions_rating_range";--> statement-breakpoint
ALTER TABLE "positions" DROP COLUMN "notes";--> statement-breakpoint
ALTER TABLE "positions" DROP COLUMN "tags";--> statement-breakpoint
ALTER TABLE "positions" DROP COLUMN "setup";--> statement-breakpoint
ALTER TABLE "positions" DROP COLUMN "rating";--> statement-breakpoint
DROP INDEX "positions_account_symbol_idx";--> statement-breakpoint
CREATE INDEX "positions_account_symbol_opened_idx" ON "positions" USING btree ("account_id","symbol","opened_at","open_fill_id");
