-- Fee schedules (lib/trades/fees.ts): an account's broker charges, applied on import to rows that carry no
-- fee; a fill says when its fees were estimated that way. A constant default: no table rewrite.
ALTER TABLE "accounts" ADD COLUMN "fee_schedule" jsonb;--> statement-breakpoint
ALTER TABLE "fills" ADD COLUMN "fees_estimated" boolean DEFAULT false NOT NULL;