-- The column mappings traders used for files no preset reads, one per account and header layout, offered
-- again for the next file with the same header (lib/imports/suggest.ts; docs/imports.md, "Any CSV").
CREATE TABLE "import_mappings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"header_key" text NOT NULL,
	"header" jsonb NOT NULL,
	"mapping" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "import_mappings_account_header_idx" ON "import_mappings" USING btree ("account_id","header_key");