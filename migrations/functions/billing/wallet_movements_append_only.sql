-- wallet_movements is the wallet's history: rows are appended, never changed. This trigger refuses any
-- UPDATE (a user's rows go only with the user, by the foreign key's cascade).
CREATE OR REPLACE FUNCTION wallet_movements_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'wallet_movements is append-only' USING ERRCODE = 'P0001';
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER wallet_movements_append_only BEFORE UPDATE ON wallet_movements
  FOR EACH ROW EXECUTE FUNCTION wallet_movements_append_only();
