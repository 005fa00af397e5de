-- strategies_follow: after every statement that writes trades (the rebuilds insert, upsert and delete positions),
-- the accounts whose option or stock trades changed are noted in strategy_pending under the writing transaction's
-- id, for the next strategies_settle. Once a transaction has noted an account the note is there: its next thousand
-- statements insert nothing. An account deleted in the same statement is not noted (it is gone).
CREATE OR REPLACE FUNCTION strategies_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO strategy_pending (account_id, tx)
    SELECT DISTINCT t.account_id, txid_current() FROM strategies_new t JOIN accounts a ON a.id = t.account_id
    WHERE t.asset_class IN ('option', 'stock')
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO strategy_pending (account_id, tx)
    SELECT DISTINCT t.account_id, txid_current() FROM strategies_old t JOIN accounts a ON a.id = t.account_id
    WHERE t.asset_class IN ('option', 'stock')
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER strategies_follow_insert AFTER INSERT ON positions
  REFERENCING NEW TABLE AS strategies_new FOR EACH STATEMENT EXECUTE FUNCTION strategies_follow();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER strategies_follow_delete AFTER DELETE ON positions
  REFERENCING OLD TABLE AS strategies_old FOR EACH STATEMENT EXECUTE FUNCTION strategies_follow();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER strategies_follow_update AFTER UPDATE ON positions
  REFERENCING NEW TABLE AS strategies_new FOR EACH STATEMENT EXECUTE FUNCTION strategies_follow();
