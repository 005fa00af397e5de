-- Prop-firm warnings: the trader's thresholds on the evaluation, and the warnings given, once per kind and trading day (docs/prop-firms.md).
CREATE TABLE "prop_warnings" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"value" numeric NOT NULL,
	"threshold" numeric NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"emailed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "prop_warnings_account_id_day_kind_pk" PRIMARY KEY("account_id","day","kind"),
	CONSTRAINT "prop_warnings_kind_known" CHECK ("prop_warnings"."kind" in ('floor', 'daily_loss'))
);
--> statement-breakpoint
ALTER TABLE "prop_evaluations" ADD COLUMN "warn_floor" numeric;--> statement-breakpoint
ALTER TABLE "prop_evaluations" ADD COLUMN "warn_daily" numeric;--> statement-breakpoint
ALTER TABLE "prop_evaluations" ADD COLUMN "warn_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "prop_evaluations" ADD COLUMN "warned_v" bigint DEFAULT -1 NOT NULL;--> statement-breakpoint
ALTER TABLE "prop_warnings" ADD CONSTRAINT "prop_warnings_account_id_prop_evaluations_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."prop_evaluations"("account_id") ON DELETE cascade ON UPDATE no action;