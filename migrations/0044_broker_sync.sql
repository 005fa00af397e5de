-- Broker sync (lib/sync; docs/imports.md, "Broker sync"): an account's connection to its broker (first:
-- Interactive Brokers' Flex Web Service; the token sealed like a provider key) and each run pulling from it,
-- one running run per account at a time.
CREATE TABLE "broker_connections" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"ciphertext" text NOT NULL,
	"key_id" text NOT NULL,
	"token_tail" text NOT NULL,
	"query_id" text NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"broken" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broker_connections_provider_known" CHECK ("broker_connections"."provider" in ('ibkr-flex'))
);
--> statement-breakpoint
CREATE TABLE "broker_sync_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"imported" integer DEFAULT 0 NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"error" text,
	"import_id" uuid,
	CONSTRAINT "broker_sync_runs_status_known" CHECK ("broker_sync_runs"."status" in ('running', 'succeeded', 'failed')),
	CONSTRAINT "broker_sync_runs_trigger_known" CHECK ("broker_sync_runs"."trigger" in ('schedule', 'manual'))
);
--> statement-breakpoint
ALTER TABLE "broker_connections" ADD CONSTRAINT "broker_connections_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_connections" ADD CONSTRAINT "broker_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_sync_runs" ADD CONSTRAINT "broker_sync_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broker_connections_key_id_idx" ON "broker_connections" USING btree ("key_id");--> statement-breakpoint
CREATE INDEX "broker_sync_runs_account_idx" ON "broker_sync_runs" USING btree ("account_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "broker_sync_runs_running_idx" ON "broker_sync_runs" USING btree ("account_id") WHERE "broker_sync_runs"."status" = 'running';