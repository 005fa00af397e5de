-- Option expiry (migrations/functions/trades/options_expire.sql): fills the journal generates to close an
-- option still open after its expiry, and the options a trader keeps open instead. Existing databases: the
-- expire-options job closes such options on its first run.
CREATE TABLE "option_expiry_kept" (
	"account_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "option_expiry_kept_account_id_symbol_pk" PRIMARY KEY("account_id","symbol")
);
--> statement-breakpoint
ALTER TABLE "fills" ADD COLUMN "generated" text;--> statement-breakpoint
ALTER TABLE "option_expiry_kept" ADD CONSTRAINT "option_expiry_kept_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fills_generated_idx" ON "fills" USING btree ("account_id","symbol") WHERE "fills"."generated" is not null;--> statement-breakpoint
ALTER TABLE "fills" ADD CONSTRAINT "fills_generated_known" CHECK ("fills"."generated" is null or "fills"."generated" = 'expiry');
