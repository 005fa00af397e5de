-- The fill push API (issue 33): a pushed batch is an import with its Idempotency-Key, the hash of its body and its answer.
ALTER TABLE "csv_imports" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "csv_imports" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "csv_imports" ADD COLUMN "push_result" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "csv_imports_idempotency_idx" ON "csv_imports" USING btree ("user_id","idempotency_key") WHERE "csv_imports"."idempotency_key" is not null;