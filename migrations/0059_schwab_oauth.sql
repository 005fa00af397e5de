-- Broker sync (issue 54): Schwab connections, the sign-ins under way (their OAuth state and PKCE verifier, ten minutes at most), a connection the trader paused, and what each run left out and why.
CREATE TABLE "broker_oauth_flows" (
	"state" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"verifier" text NOT NULL,
	"start_date" date,
	"account_tail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "broker_connections" DROP CONSTRAINT "broker_connections_provider_known";--> statement-breakpoint
ALTER TABLE "broker_connections" ADD COLUMN "paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "broker_sync_runs" ADD COLUMN "skipped" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "broker_oauth_flows" ADD CONSTRAINT "broker_oauth_flows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_oauth_flows" ADD CONSTRAINT "broker_oauth_flows_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broker_oauth_flows_created_idx" ON "broker_oauth_flows" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "broker_connections" ADD CONSTRAINT "broker_connections_provider_known" CHECK ("broker_connections"."provider" in ('ibkr-flex', 'alpaca', 'tastytrade', 'tradovate', 'schwab', 'kraken', 'coinbase'));