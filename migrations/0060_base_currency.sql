-- One base currency (issue 55, docs/currencies.md): the user's settings, the daily reference rates and the dates asked, the trader's own rates.
CREATE TABLE "fx_overrides" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"base" text NOT NULL,
	"rate" numeric NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fx_overrides_user_id_currency_day_pk" PRIMARY KEY("user_id","currency","day"),
	CONSTRAINT "fx_overrides_positive" CHECK (rate > 0)
);
--> statement-breakpoint
CREATE TABLE "fx_rate_days" (
	"day" date PRIMARY KEY NOT NULL,
	"has_rates" boolean NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fx_rates" (
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"per_eur" numeric NOT NULL,
	CONSTRAINT "fx_rates_currency_day_pk" PRIMARY KEY("currency","day"),
	CONSTRAINT "fx_rates_positive" CHECK (per_eur > 0)
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"base_currency" text,
	"privacy_mode" boolean DEFAULT false NOT NULL,
	"digest" jsonb,
	"fx_version" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fx_overrides" ADD CONSTRAINT "fx_overrides_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;