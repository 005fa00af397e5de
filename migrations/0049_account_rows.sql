-- Fills, ledger entries and trades keep their account by a check and a cascade made once per statement
-- (migrations/functions/accounts/account_rows.sql) instead of a foreign key's check per row, which cost
-- ~8-14 us per row written: an import writes about two and a half such rows per fill. Nothing can hold an
-- orphan here: the keys held until this migration, and the function files apply right after it.
ALTER TABLE "fills" DROP CONSTRAINT "fills_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "positions" DROP CONSTRAINT "positions_account_id_accounts_id_fk";
