CREATE TABLE "csv_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"status" text DEFAULT 'staged' NOT NULL,
	"file_name" text,
	"preset_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"committed_at" timestamp with time zone,
	"undone_at" timestamp with time zone,
	"summary" jsonb NOT NULL,
	"staged" jsonb,
	"staged_bytes" integer DEFAULT 0 NOT NULL,
	"fills_created" integer,
	CONSTRAINT "csv_imports_status_known" CHECK ("csv_imports"."status" in ('staged', 'committing', 'committed', 'undone'))
);
--> statement-breakpoint
ALTER TABLE "csv_imports" ADD CONSTRAINT "csv_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csv_imports" ADD CONSTRAINT "csv_imports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "csv_imports_account_idx" ON "csv_imports" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "csv_imports_status_idx" ON "csv_imports" USING btree ("status","expires_at");