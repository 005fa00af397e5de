-- Fills deleted by hand (issue 52): kept as what they were, so re-importing one (after an undo) is said in the preview.
CREATE TABLE "fill_tombstones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"quantity" numeric(28, 10) NOT NULL,
	"price" numeric(28, 10) NOT NULL,
	"executed_at" timestamp with time zone NOT NULL,
	"execution_id" text,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fill_tombstones" ADD CONSTRAINT "fill_tombstones_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fill_tombstones_account_symbol_idx" ON "fill_tombstones" USING btree ("account_id","symbol","executed_at");