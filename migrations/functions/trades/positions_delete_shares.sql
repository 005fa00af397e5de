-- positions_delete_shares: position_fills is derived data without foreign keys (they cost a check per share
-- written); this statement-level trigger keeps the cascade, so shares go with their position however it is
-- deleted (a rebuild, an account or user deleted with its history), in one set-based delete per statement.

CREATE OR REPLACE FUNCTION positions_delete_shares() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM position_fills pf USING gone WHERE pf.position_id = gone.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "positions_delete_shares" AFTER DELETE ON "positions"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION positions_delete_shares();
