-- Broker sync (issue 54): tastytrade and Tradovate connections.
ALTER TABLE "broker_connections" DROP CONSTRAINT "broker_connections_provider_known";--> statement-breakpoint
ALTER TABLE "broker_connections" ADD CONSTRAINT "broker_connections_provider_known" CHECK ("broker_connections"."provider" in ('ibkr-flex', 'alpaca', 'tastytrade', 'tradovate', 'kraken', 'coinbase'));