-- Prop-firm evaluations and funded accounts (issue 56, docs/prop-firms.md): the rules an account runs under from a trading day on, the engine's state kept after its fills, and the ledger kinds prop_fee and payout.
CREATE TABLE "prop_evaluations" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"firm" text NOT NULL,
	"phase" text NOT NULL,
	"start_date" date NOT NULL,
	"rules" jsonb NOT NULL,
	"state" jsonb,
	"through_at" timestamp with time zone,
	"through_id" uuid,
	"state_v" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_type_known";--> statement-breakpoint
ALTER TABLE "prop_evaluations" ADD CONSTRAINT "prop_evaluations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prop_evaluations" ADD CONSTRAINT "prop_evaluations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prop_evaluations_user_idx" ON "prop_evaluations" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_type_known" CHECK ("ledger_entries"."type" in ('opening', 'deposit', 'withdrawal', 'fill', 'adjustment', 'prop_fee', 'payout'));