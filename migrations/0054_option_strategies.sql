-- Option strategies (issue 53): the option trades of one account and underlying taken as one trade (lib/options/strategies.ts).
CREATE TABLE "strategies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"underlying" text NOT NULL,
	"source" text NOT NULL,
	"roll_of_id" uuid,
	"notes" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"setup" text,
	"rating" smallint,
	"planned_risk" numeric(28, 10),
	"opened_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "strategies_source_known" CHECK ("strategies"."source" in ('auto', 'manual')),
	CONSTRAINT "strategies_rating_range" CHECK ("strategies"."rating" is null or "strategies"."rating" between 1 and 5),
	CONSTRAINT "strategies_planned_risk_positive" CHECK ("strategies"."planned_risk" is null or "strategies"."planned_risk" > 0)
);
--> statement-breakpoint
CREATE TABLE "strategy_legs" (
	"strategy_id" uuid NOT NULL,
	"fill_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"quantity" numeric(28, 10) NOT NULL,
	"price" numeric(28, 10) NOT NULL,
	"executed_at" timestamp with time zone NOT NULL,
	"execution_id" text,
	CONSTRAINT "strategy_legs_strategy_id_fill_id_pk" PRIMARY KEY("strategy_id","fill_id"),
	CONSTRAINT "strategy_legs_fill_id_unique" UNIQUE("fill_id")
);
--> statement-breakpoint
CREATE TABLE "strategy_marks" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"positions_mark" text NOT NULL,
	"settled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_roll_of_id_fk" FOREIGN KEY ("roll_of_id") REFERENCES "public"."strategies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_legs" ADD CONSTRAINT "strategy_legs_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_marks" ADD CONSTRAINT "strategy_marks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "strategies_account_underlying_opened_idx" ON "strategies" USING btree ("account_id","underlying","opened_at");--> statement-breakpoint
CREATE INDEX "strategies_account_opened_idx" ON "strategies" USING btree ("account_id","opened_at");--> statement-breakpoint
CREATE INDEX "strategies_roll_of_idx" ON "strategies" USING btree ("roll_of_id");