-- An account's tax status (issue 58, docs/tax.md): taxable (the default), ira or exempt.
ALTER TABLE "accounts" ADD COLUMN "tax_status" text DEFAULT 'taxable' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_tax_status_known" CHECK ("accounts"."tax_status" in ('taxable', 'ira', 'exempt'));