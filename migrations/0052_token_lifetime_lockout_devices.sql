-- Third pass (issue 52): each failed sign-in keeps the device it came from, so a browser the account knows is not
-- locked out by failures from elsewhere (lib/auth/lockout.ts); and an access token lives a year at most
-- (lib/auth/tokens.ts TOKEN_MAX_DAYS): tokens made without an expiry, or with a longer one, now end a year after
-- this upgrade.
ALTER TABLE "sign_in_failures" ADD COLUMN "device_hash" text;
--> statement-breakpoint
UPDATE "access_tokens" SET "expires_at" = now() + interval '365 days' WHERE "expires_at" IS NULL OR "expires_at" > now() + interval '365 days';
