-- Option strategies by broker order (issue 53): fills keep the order they belong to (the legs of one multi-leg order make one strategy), a strategy its playbook, rolls are found by the strategies closed near another's opening, and the accounts whose trades changed are noted for the next settle (strategy_pending, written by the strategies_follow triggers) instead of counting every trade on each read.
CREATE TABLE "strategy_pending" (
	"account_id" uuid NOT NULL,
	"tx" bigint NOT NULL,
	CONSTRAINT "strategy_pending_account_id_tx_pk" PRIMARY KEY("account_id","tx")
);
--> statement-breakpoint
DROP TABLE "strategy_marks" CASCADE;--> statement-breakpoint
ALTER TABLE "fills" ADD COLUMN "order_id" text;--> statement-breakpoint
ALTER TABLE "strategies" ADD COLUMN "playbook_id" uuid;--> statement-breakpoint
ALTER TABLE "strategy_pending" ADD CONSTRAINT "strategy_pending_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_playbook_id_playbooks_id_fk" FOREIGN KEY ("playbook_id") REFERENCES "public"."playbooks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fills_account_order_idx" ON "fills" USING btree ("account_id","order_id") WHERE "fills"."order_id" is not null;--> statement-breakpoint
CREATE INDEX "strategies_account_underlying_closed_idx" ON "strategies" USING btree ("account_id","underlying","closed_at");--> statement-breakpoint
-- Every account with option or stock trades is settled once more, by the new rules.
INSERT INTO "strategy_pending" ("account_id", "tx") SELECT DISTINCT "account_id", 0 FROM "positions" WHERE "asset_class" IN ('option', 'stock');