-- Sign-in lockout (issue 33): failed sign-ins by the hash of the email, for the lockout of lib/auth/lockout.ts.
CREATE TABLE "sign_in_failures" (
	"key" text NOT NULL,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_failures_key_idx" ON "sign_in_failures" USING btree ("key","failed_at");