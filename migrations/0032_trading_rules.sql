-- Trading rules (issue 36): limits a trader sets per account, scored after the fact from the trades (lib/rules).
CREATE TABLE "trading_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"params" jsonb NOT NULL,
	"weight" smallint DEFAULT 2 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trading_rules_weight_range" CHECK ("trading_rules"."weight" between 1 and 3)
);
--> statement-breakpoint
ALTER TABLE "trading_rules" ADD CONSTRAINT "trading_rules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trading_rules_account_idx" ON "trading_rules" USING btree ("account_id");