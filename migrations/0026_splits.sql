-- Stock splits (lib/trades/splits.ts): per user and symbol, read by the position rebuilds (split_factor).
CREATE TABLE "splits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"new_shares" numeric(28, 10) NOT NULL,
	"old_shares" numeric(28, 10) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "splits_shares_positive" CHECK ("splits"."new_shares" > 0 and "splits"."old_shares" > 0 and "splits"."new_shares" <> "splits"."old_shares")
);
--> statement-breakpoint
ALTER TABLE "splits" ADD CONSTRAINT "splits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "splits_user_symbol_at_idx" ON "splits" USING btree ("user_id","symbol","effective_at");
