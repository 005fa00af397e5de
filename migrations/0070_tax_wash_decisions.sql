-- The trader's decisions on possible wash sales through options, kept by what names them (docs/tax.md).
CREATE TABLE "tax_wash_decisions" (
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"loss_sold_at" date NOT NULL,
	"replacement_symbol" text NOT NULL,
	"replacement_at" date NOT NULL,
	"decision" text NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_wash_decisions_user_id_symbol_loss_sold_at_replacement_symbol_replacement_at_pk" PRIMARY KEY("user_id","symbol","loss_sold_at","replacement_symbol","replacement_at"),
	CONSTRAINT "tax_wash_decisions_known" CHECK ("tax_wash_decisions"."decision" in ('wash', 'not_wash'))
);
--> statement-breakpoint
ALTER TABLE "tax_wash_decisions" ADD CONSTRAINT "tax_wash_decisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;