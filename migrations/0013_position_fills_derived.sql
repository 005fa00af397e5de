-- position_fills is derived data: the fill shares of each position, written only by positions_rebuild and
-- positions_rebuild_from, which delete a symbol's shares (from the replay's start) before writing them
-- again, in the transaction that changed the fills. Its two foreign keys cost a check per share written
-- (two thirds of the checks in a 10,000-fill import's commit) and guarded nothing the rebuild does not:
-- - to fills: every path that removes or changes a fill rebuilds its symbol in the same transaction
--   (fill_delete, fill_update, import_undo). ledger_entries.fill_id has never had one, for the same reason.
--   The index on fill_id only served that key's cascade.
-- - to positions: its cascade is kept by a statement-level trigger, so shares still go with their position
--   however it is deleted (a rebuild, an account or user deleted with its history), in one set-based delete
--   per statement instead of a check per share.
-- tests/node/trades.test.ts checks, after random adds, edits and deletes and after the account is deleted,
-- that every share names an existing fill of its position's account and symbol and that no share is left.
ALTER TABLE "position_fills" DROP CONSTRAINT IF EXISTS "position_fills_fill_id_fills_id_fk";
--> statement-breakpoint
ALTER TABLE "position_fills" DROP CONSTRAINT IF EXISTS "position_fills_position_id_positions_id_fk";
--> statement-breakpoint
DROP INDEX IF EXISTS "position_fills_fill_idx";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION positions_delete_shares() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM position_fills pf USING gone WHERE pf.position_id = gone.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "positions_delete_shares" ON "positions";
--> statement-breakpoint
CREATE TRIGGER "positions_delete_shares" AFTER DELETE ON "positions"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION positions_delete_shares();
--> statement-breakpoint
-- A staged import lives minutes and is read once: stored uncompressed, which saves compressing a few MB of
-- JSON at preview and decompressing it at commit. CSV_IMPORT_MAX_STAGED_BYTES still bounds it.
ALTER TABLE "csv_imports" ALTER COLUMN "staged" SET STORAGE EXTERNAL;
