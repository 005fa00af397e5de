CREATE TABLE "fills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"asset_class" text NOT NULL,
	"multiplier" numeric(28, 10) NOT NULL,
	"side" text NOT NULL,
	"quantity" numeric(28, 10) NOT NULL,
	"price" numeric(28, 10) NOT NULL,
	"fees" numeric(28, 10) DEFAULT '0' NOT NULL,
	"executed_at" timestamp with time zone NOT NULL,
	"execution_id" text,
	"import_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fills_quantity_positive" CHECK ("fills"."quantity" > 0),
	CONSTRAINT "fills_price_not_negative" CHECK ("fills"."price" >= 0),
	CONSTRAINT "fills_fees_not_negative" CHECK ("fills"."fees" >= 0),
	CONSTRAINT "fills_multiplier_positive" CHECK ("fills"."multiplier" > 0),
	CONSTRAINT "fills_side_known" CHECK ("fills"."side" in ('buy', 'sell')),
	CONSTRAINT "fills_asset_class_known" CHECK ("fills"."asset_class" in ('stock', 'option', 'future'))
);
--> statement-breakpoint
CREATE TABLE "position_fills" (
	"position_id" uuid NOT NULL,
	"fill_id" uuid NOT NULL,
	"quantity" numeric(28, 10) NOT NULL,
	"fees" numeric(28, 10) NOT NULL,
	"role" text NOT NULL,
	CONSTRAINT "position_fills_position_id_fill_id_pk" PRIMARY KEY("position_id","fill_id")
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"open_fill_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"asset_class" text NOT NULL,
	"multiplier" numeric(28, 10) NOT NULL,
	"direction" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"open_quantity" numeric(28, 10) NOT NULL,
	"max_quantity" numeric(28, 10) NOT NULL,
	"entry_quantity" numeric(28, 10) NOT NULL,
	"entry_value" numeric(28, 10) NOT NULL,
	"exit_quantity" numeric(28, 10) NOT NULL,
	"exit_value" numeric(28, 10) NOT NULL,
	"fees" numeric(28, 10) NOT NULL,
	"gross_pnl" numeric(28, 10) NOT NULL,
	"net_pnl" numeric(28, 10) NOT NULL,
	"notes" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"setup" text,
	"rating" smallint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "positions_open_fill_id_unique" UNIQUE("open_fill_id"),
	CONSTRAINT "positions_rating_range" CHECK ("positions"."rating" is null or "positions"."rating" between 1 and 5)
);
--> statement-breakpoint
ALTER TABLE "fills" ADD CONSTRAINT "fills_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_fills" ADD CONSTRAINT "position_fills_position_id_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."positions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_fills" ADD CONSTRAINT "position_fills_fill_id_fills_id_fk" FOREIGN KEY ("fill_id") REFERENCES "public"."fills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fills_account_symbol_time_idx" ON "fills" USING btree ("account_id","symbol","executed_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "fills_account_execution_id_idx" ON "fills" USING btree ("account_id","execution_id") WHERE "fills"."execution_id" is not null;--> statement-breakpoint
CREATE INDEX "position_fills_fill_idx" ON "position_fills" USING btree ("fill_id");--> statement-breakpoint
CREATE INDEX "positions_account_opened_idx" ON "positions" USING btree ("account_id","opened_at");--> statement-breakpoint
CREATE INDEX "positions_account_closed_idx" ON "positions" USING btree ("account_id","closed_at");--> statement-breakpoint
CREATE INDEX "positions_account_symbol_idx" ON "positions" USING btree ("account_id","symbol");