CREATE TABLE "symbol_loads" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"loaded_at" timestamp with time zone,
	"claim_token" uuid,
	"claimed_until" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "symbol_loads_single_row" CHECK ("symbol_loads"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "symbols" (
	"generation" integer NOT NULL,
	"ticker" text NOT NULL,
	"name" text NOT NULL,
	"exchange" text,
	"words" text NOT NULL,
	CONSTRAINT "symbols_generation_ticker_pk" PRIMARY KEY("generation","ticker")
);
--> statement-breakpoint
CREATE INDEX "symbols_ticker_prefix_idx" ON "symbols" USING btree ("generation","ticker" text_pattern_ops);--> statement-breakpoint
INSERT INTO "symbol_loads" ("id") VALUES (1) ON CONFLICT DO NOTHING;
