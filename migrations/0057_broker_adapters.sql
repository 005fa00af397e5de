-- Broker sync adapters (issue 54): a connection of any provider keeps what may be shown in settings (an IBKR connection's query id moves there) and where its next run starts (cursor).
ALTER TABLE "broker_connections" DROP CONSTRAINT "broker_connections_provider_known";--> statement-breakpoint
ALTER TABLE "broker_connections" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "broker_connections" ADD COLUMN "cursor" text;--> statement-breakpoint
UPDATE "broker_connections" SET "settings" = jsonb_build_object('queryId', "query_id");--> statement-breakpoint
ALTER TABLE "broker_connections" DROP COLUMN "query_id";--> statement-breakpoint
ALTER TABLE "broker_connections" ADD CONSTRAINT "broker_connections_provider_known" CHECK ("broker_connections"."provider" in ('ibkr-flex', 'alpaca', 'kraken', 'coinbase'));