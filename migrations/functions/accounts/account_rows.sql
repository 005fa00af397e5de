-- account_rows: every fill, ledger entry and trade (positions) belongs to an existing account, and goes with
-- it. A foreign key would check that once per row written (~8-14 us each: 10,000 fills write ~25,000 such
-- rows); these triggers check it once per statement, for the accounts the statement wrote (their rows locked
-- FOR KEY SHARE, as a foreign key's check does, so an account being deleted waits for the writer or the
-- writer fails), and delete an account's rows in one set-based statement when it goes (a user deleted, an
-- account deleted). A row never moves to another account.

CREATE OR REPLACE FUNCTION account_rows_check() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  found integer;
BEGIN
  SELECT array_agg(account_id) INTO ids FROM (SELECT DISTINCT account_id FROM written) t;
  SELECT count(*) INTO found FROM (SELECT 1 FROM accounts a WHERE a.id = ANY (ids) FOR KEY SHARE) locked;
  IF found < coalesce(cardinality(ids), 0) THEN
    RAISE EXCEPTION 'insert on table "%" names an account that does not exist', TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, COLUMN = 'account_id';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION account_rows_stay() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a row of table "%" cannot move to another account', TG_TABLE_NAME
    USING ERRCODE = 'integrity_constraint_violation', TABLE = TG_TABLE_NAME, COLUMN = 'account_id';
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION account_rows_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- Trades first (their shares follow by positions_delete_shares), then the ledger, then the fills.
  DELETE FROM positions p USING gone WHERE p.account_id = gone.id;
  DELETE FROM ledger_entries e USING gone WHERE e.account_id = gone.id;
  DELETE FROM fills f USING gone WHERE f.account_id = gone.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER account_rows_check_fills AFTER INSERT ON fills
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION account_rows_check();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER account_rows_check_ledger AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION account_rows_check();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER account_rows_check_positions AFTER INSERT ON positions
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION account_rows_check();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER account_rows_stay_fills BEFORE UPDATE OF account_id ON fills
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id) EXECUTE FUNCTION account_rows_stay();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER account_rows_stay_ledger BEFORE UPDATE OF account_id ON ledger_entries
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id) EXECUTE FUNCTION account_rows_stay();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER account_rows_stay_positions BEFORE UPDATE OF account_id ON positions
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id) EXECUTE FUNCTION account_rows_stay();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER account_rows_delete AFTER DELETE ON accounts
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION account_rows_delete();
