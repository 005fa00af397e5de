-- A stored key for the bar provider (Polygon.io, docs/charts.md), beside the model providers' and the market-data key.
ALTER TABLE "stored_keys" DROP CONSTRAINT "stored_keys_provider_known";--> statement-breakpoint
ALTER TABLE "stored_keys" ADD CONSTRAINT "stored_keys_provider_known" CHECK ("stored_keys"."provider" in ('openai', 'anthropic', 'gemini', 'openrouter', 'market-data', 'bars'));
