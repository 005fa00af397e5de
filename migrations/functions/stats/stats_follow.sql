-- stats_follow_*: after every statement that writes fill shares, trades or trade journals (an import's
-- thousands of rows are one statement), the trading days whose statistics read them are noted (stats_note;
-- the next read refreshes them):
-- - a fill share: its day (old and new, for an update);
-- - a trade: the day it closed (old and new); its fill shares are rewritten with it by every rebuild that
--   changes it, and note their own days;
-- - a trade journal (its tags, setup and plan, which give the trade's groups and 1R): the days of its trade's
--   shares and close, for the trade it is on before and after.
-- stats_note_times(accounts, times) turns a statement's (account, time) pairs into days in the account's zone
-- (an account that no longer exists is skipped) and notes them; inside a write batch (ledger_batch_begin ..
-- ledger_batch_end) it only widens the account's span (stats_span_add), noted at the batch's end.
CREATE OR REPLACE FUNCTION stats_note_times(p_accounts uuid[], p_times timestamptz[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  accts uuid[];
  ds date[];
BEGIN
  IF current_setting('journal.ledger_batch', true) = 'on' THEN
    -- Inside a write batch: the span of what changed (stats_span_add).
    PERFORM stats_span_add(t.a, min(t.at), max(t.at)) FROM unnest(p_accounts, p_times) AS t(a, at) WHERE t.at IS NOT NULL GROUP BY t.a;
    RETURN;
  END IF;
  SELECT array_agg(x.a), array_agg(x.day) INTO accts, ds FROM (
    SELECT DISTINCT t.a, (t.at AT TIME ZONE ac.timezone)::date AS day
    FROM unnest(p_accounts, p_times) AS t(a, at) JOIN accounts ac ON ac.id = t.a WHERE t.at IS NOT NULL
  ) x;
  PERFORM stats_note(accts, ds);
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_follow_shares() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  accts uuid[];
  ts timestamptz[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(account_id), array_agg(executed_at) INTO accts, ts FROM stats_new;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(account_id), array_agg(executed_at) INTO accts, ts FROM stats_old;
  ELSE
    SELECT array_agg(account_id), array_agg(executed_at) INTO accts, ts
    FROM (SELECT account_id, executed_at FROM stats_new UNION ALL SELECT account_id, executed_at FROM stats_old) s;
  END IF;
  PERFORM stats_note_times(accts, ts);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_shares_insert AFTER INSERT ON position_fills
  REFERENCING NEW TABLE AS stats_new FOR EACH STATEMENT EXECUTE FUNCTION stats_follow_shares();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_shares_delete AFTER DELETE ON position_fills
  REFERENCING OLD TABLE AS stats_old FOR EACH STATEMENT EXECUTE FUNCTION stats_follow_shares();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_shares_update AFTER UPDATE ON position_fills
  REFERENCING NEW TABLE AS stats_new OLD TABLE AS stats_old FOR EACH STATEMENT EXECUTE FUNCTION stats_follow_shares();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_follow_trades() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  accts uuid[];
  ts timestamptz[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(account_id), array_agg(closed_at) INTO accts, ts FROM stats_new WHERE closed_at IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(account_id), array_agg(closed_at) INTO accts, ts FROM stats_old WHERE closed_at IS NOT NULL;
  ELSE
    SELECT array_agg(account_id), array_agg(closed_at) INTO accts, ts
    FROM (SELECT account_id, closed_at FROM stats_new UNION ALL SELECT account_id, closed_at FROM stats_old) s WHERE closed_at IS NOT NULL;
  END IF;
  PERFORM stats_note_times(accts, ts);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_trades_insert AFTER INSERT ON positions
  REFERENCING NEW TABLE AS stats_new FOR EACH STATEMENT EXECUTE FUNCTION stats_follow_trades();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_trades_delete AFTER DELETE ON positions
  REFERENCING OLD TABLE AS stats_old FOR EACH STATEMENT EXECUTE FUNCTION stats_follow_trades();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_trades_update AFTER UPDATE ON positions
  REFERENCING NEW TABLE AS stats_new OLD TABLE AS stats_old FOR EACH STATEMENT EXECUTE FUNCTION stats_follow_trades();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_follow_journals() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  accts uuid[];
  ts timestamptz[];
  trades uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT position_id) INTO trades FROM stats_new WHERE position_id IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT position_id) INTO trades FROM stats_old WHERE position_id IS NOT NULL;
  ELSE
    SELECT array_agg(position_id) INTO trades FROM (
      SELECT position_id FROM stats_new UNION SELECT position_id FROM stats_old
    ) t WHERE position_id IS NOT NULL;
  END IF;
  IF trades IS NULL THEN
    RETURN NULL;
  END IF;
  -- The times of each trade's shares and its close.
  SELECT array_agg(p.account_id), array_agg(w.at) INTO accts, ts
  FROM positions p
  CROSS JOIN LATERAL (
    SELECT pf.executed_at FROM position_fills pf WHERE pf.position_id = p.id
    UNION ALL SELECT p.closed_at WHERE p.closed_at IS NOT NULL
  ) AS w(at)
  WHERE p.id = ANY (trades);
  PERFORM stats_note_times(accts, ts);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_journals_insert AFTER INSERT ON trade_journals
  REFERENCING NEW TABLE AS stats_new FOR EACH STATEMENT EXECUTE FUNCTION stats_follow_journals();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_journals_delete AFTER DELETE ON trade_journals
  REFERENCING OLD TABLE AS stats_old FOR EACH STATEMENT EXECUTE FUNCTION stats_follow_journals();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_follow_journals_update AFTER UPDATE ON trade_journals
  REFERENCING NEW TABLE AS stats_new OLD TABLE AS stats_old FOR EACH STATEMENT EXECUTE FUNCTION stats_follow_journals();
