-- A broker's own rates per date (IBKR Flex fxRateToBase), and the rates a staged import carries to its commit (docs/currencies.md).
CREATE TABLE "fx_broker_rates" (
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"base" text NOT NULL,
	"day" date NOT NULL,
	"k" numeric NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fx_broker_rates_user_id_currency_base_day_pk" PRIMARY KEY("user_id","currency","base","day"),
	CONSTRAINT "fx_broker_rates_positive" CHECK (k > 0)
);
--> statement-breakpoint
ALTER TABLE "csv_imports" ADD COLUMN "broker_rates" jsonb;--> statement-breakpoint
ALTER TABLE "fx_broker_rates" ADD CONSTRAINT "fx_broker_rates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;