-- stats_follow_accounts: an account's zone (which day each share and close falls on) or default risk (the 1R
-- of trades without a plan) changed: its statistics are computed again from nothing (stats_account_rebuild:
-- its rows go, every day it has is noted, and the next read computes them).
-- A deleted account's rows went with it; its user's totals over the currency
-- (stats_drawdown_days) are computed again from the accounts left.
CREATE OR REPLACE FUNCTION stats_account_rebuild(p_account uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  accts uuid[];
  ds date[];
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('stats ' || user_id::text, 0)) FROM accounts WHERE id = p_account;
  DELETE FROM stats_groups WHERE account_id = p_account;
  PERFORM stats_version_bump(ARRAY(SELECT user_id FROM accounts WHERE id = p_account));
  SELECT array_agg(p_account), array_agg(x.day) INTO accts, ds FROM (
    SELECT (pf.executed_at AT TIME ZONE a.timezone)::date AS day
    FROM position_fills pf JOIN accounts a ON a.id = pf.account_id WHERE pf.account_id = p_account
    UNION
    SELECT (p.closed_at AT TIME ZONE a.timezone)::date
    FROM positions p JOIN accounts a ON a.id = p.account_id WHERE p.account_id = p_account AND p.closed_at IS NOT NULL
  ) x;
  PERFORM stats_note(accts, ds);
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_follow_accounts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM stats_account_rebuild(NEW.id);
    RETURN NULL;
  END IF;
  -- Deleted: its notes go, and the user's days over the currency are computed from the accounts left (none
  -- when the user went too).
  DELETE FROM stats_pending WHERE account_id = OLD.id;
  IF EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id) THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('stats ' || OLD.user_id::text, 0));
    DELETE FROM stats_drawdown_days WHERE user_id = OLD.user_id AND currency = OLD.currency;
    INSERT INTO stats_drawdown_days (user_id, currency, day, net, high, low, drop)
    SELECT * FROM stats_drawdown_rows(ARRAY[OLD.user_id], ARRAY[OLD.currency], ARRAY['-infinity'::timestamptz], ARRAY['infinity'::timestamptz]);
    PERFORM stats_version_bump(ARRAY[OLD.user_id]);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_accounts_update AFTER UPDATE OF timezone, default_risk ON accounts
  FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone OR OLD.default_risk IS DISTINCT FROM NEW.default_risk)
  EXECUTE FUNCTION stats_follow_accounts();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_accounts_delete AFTER DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION stats_follow_accounts();
