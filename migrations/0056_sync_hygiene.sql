-- Broker sync hygiene (issue 54): a connection's start date (nothing before it imported), and each run's count of the fills the trader had deleted, which no run brings back.
ALTER TABLE "broker_connections" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "broker_sync_runs" ADD COLUMN "skipped_deleted" integer DEFAULT 0 NOT NULL;