-- Price bars for the trade chart and excursions (docs/charts.md): the bars a user fetched on their key or
-- uploaded, the days they cover (and the fetch queue), and each closed trade's excursions.
CREATE TABLE "bar_days" (
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"resolution" text NOT NULL,
	"day" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bar_days_user_id_symbol_resolution_day_pk" PRIMARY KEY("user_id","symbol","resolution","day"),
	CONSTRAINT "bar_days_status_known" CHECK ("bar_days"."status" in ('queued', 'fetching', 'ok', 'empty', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "bars" (
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"resolution" text NOT NULL,
	"t" timestamp with time zone NOT NULL,
	"open" numeric(28, 10) NOT NULL,
	"high" numeric(28, 10) NOT NULL,
	"low" numeric(28, 10) NOT NULL,
	"close" numeric(28, 10) NOT NULL,
	"volume" numeric(28, 10) DEFAULT '0' NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "bars_user_id_symbol_resolution_t_pk" PRIMARY KEY("user_id","symbol","resolution","t"),
	CONSTRAINT "bars_resolution_known" CHECK ("bars"."resolution" in ('1m', '1d')),
	CONSTRAINT "bars_source_known" CHECK ("bars"."source" in ('provider', 'upload')),
	CONSTRAINT "bars_prices" CHECK ("bars"."low" >= 0 and "bars"."low" <= "bars"."open" and "bars"."low" <= "bars"."close" and "bars"."high" >= "bars"."open" and "bars"."high" >= "bars"."close" and "bars"."volume" >= 0)
);
--> statement-breakpoint
CREATE TABLE "trade_excursions" (
	"position_id" uuid PRIMARY KEY NOT NULL,
	"basis" timestamp with time zone NOT NULL,
	"price_mae" numeric(28, 10),
	"price_mfe" numeric(28, 10),
	"position_mae" numeric(28, 10),
	"position_mfe" numeric(28, 10),
	"best_exit_pnl" numeric(28, 10),
	"bars_from" text,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bar_days" ADD CONSTRAINT "bar_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bars" ADD CONSTRAINT "bars_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bar_days_queue_idx" ON "bar_days" USING btree ("next_attempt_at") WHERE "bar_days"."status" = 'queued';
