-- Statistics in the base currency on maintained rows (issue 55, docs/currencies.md): each month of a user's accounts converted day by day, kept while the base, the rates and the month's days are those it was built from.
CREATE TABLE "stats_base_groups" (
	"user_id" uuid NOT NULL,
	"month" date NOT NULL,
	"base" text NOT NULL,
	"fx_version" bigint NOT NULL,
	"v" bigint NOT NULL,
	"dim" text NOT NULL,
	"key" text NOT NULL,
	"one_r" numeric,
	"net" numeric NOT NULL,
	"gross" numeric NOT NULL,
	"fees" numeric NOT NULL,
	"moved" integer NOT NULL,
	"trades" integer NOT NULL,
	"wins" integer NOT NULL,
	"losses" integer NOT NULL,
	"trades_net" numeric NOT NULL,
	"wins_net" numeric,
	"losses_net" numeric,
	"largest" numeric,
	"smallest" numeric,
	"b_trades_net" numeric NOT NULL,
	"b_wins_net" numeric,
	"b_losses_net" numeric,
	"b_largest" numeric,
	"b_smallest" numeric,
	CONSTRAINT "stats_base_groups_key" UNIQUE NULLS NOT DISTINCT("user_id","month","base","fx_version","v","dim","key","one_r")
);
--> statement-breakpoint
CREATE TABLE "stats_base_months" (
	"user_id" uuid NOT NULL,
	"month" date NOT NULL,
	"base" text NOT NULL,
	"fx_version" bigint NOT NULL,
	"v" bigint NOT NULL,
	"missing" integer NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stats_base_months_user_id_month_pk" PRIMARY KEY("user_id","month")
);
--> statement-breakpoint
CREATE TABLE "stats_month_versions" (
	"user_id" uuid NOT NULL,
	"month" date NOT NULL,
	"v" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_month_versions_user_id_month_pk" PRIMARY KEY("user_id","month")
);
--> statement-breakpoint
ALTER TABLE "stats_base_groups" ADD CONSTRAINT "stats_base_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_base_months" ADD CONSTRAINT "stats_base_months_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_month_versions" ADD CONSTRAINT "stats_month_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stats_base_months_month" ON "stats_base_months" USING btree ("month");