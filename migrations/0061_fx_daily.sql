-- The reference rates walked back per date (issue 55, docs/currencies.md): one lookup per conversion instead of a search of the week before.
CREATE TABLE "fx_daily" (
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"per_eur" numeric NOT NULL,
	"rate_day" date NOT NULL,
	CONSTRAINT "fx_daily_currency_day_pk" PRIMARY KEY("currency","day")
);
--> statement-breakpoint
INSERT INTO "fx_daily" ("currency", "day", "per_eur", "rate_day")
SELECT c.currency, d.day, r.per_eur, r.day
FROM "fx_rate_days" d
CROSS JOIN (SELECT DISTINCT currency FROM "fx_rates") c
CROSS JOIN LATERAL (
  SELECT x.per_eur, x.day FROM "fx_rates" x WHERE x.currency = c.currency AND x.day <= d.day AND x.day >= d.day - 7 ORDER BY x.day DESC LIMIT 1
) r
ON CONFLICT DO NOTHING;
