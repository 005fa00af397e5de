-- stats_follow_*: after every statement that writes fill shares, trades or trade journals (an import's
-- thousands of rows are one statement), the trading days whose statistics read them are noted (stats_note;
-- the next read refreshes them):
-- - a fill share: its day (old and new, for an update);
-- - a trade: the day it closed (old and new); its fill shares are rewritten with it by every rebuild that
--   changes it, and note their own days;
-- - a trade journal (its tags, setup and plan, which give the trade's groups and 1R): the days of its trade's
--   shares and close, for the trade it is on before and after.
-- Days are in the account's zone; an account that no longer exists is skipped. Inside a write batch
-- (ledger_batch_begin .. ledger_batch_end) a statement only widens the account's span (stats_span_add), noted
-- at the batch's end.
CREATE OR REPLACE FUNCTION stats_follow_shares() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  accts uuid[];
  ds date[];
BEGIN
  IF current_setting('journal.ledger_batch', true) = 'on' THEN
    -- Inside a write batch: the span of what changed (stats_span_add).
    IF TG_OP = 'INSERT' THEN
      PERFORM stats_span_add(account_id, min(executed_at), max(executed_at)) FROM stats_new GROUP BY account_id;
    ELSIF TG_OP = 'DELETE' THEN
      PERFORM stats_span_add(account_id, min(executed_at), max(executed_at)) FROM stats_old GROUP BY account_id;
    ELSE
      PERFORM stats_span_add(account_id, min(executed_at), max(executed_at))
      FROM (SELECT account_id, executed_at FROM stats_new UNION ALL SELECT account_id, executed_at FROM stats_old) s GROUP BY account_id;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(x.account_id), array_agg(x.day) INTO accts, ds FROM (
      SELECT DISTINCT s.account_id, (s.executed_at AT TIME ZONE a.timezone)::date AS day
      FROM (SELECT DISTINCT account_id, executed_at FROM stats_new) s JOIN accounts a ON a.id = s.account_id
    ) x;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(x.account_id), array_agg(x.day) INTO accts, ds FROM (
      SELECT DISTINCT s.account_id, (s.executed_at AT TIME ZONE a.timezone)::date AS day
      FROM (SELECT DISTINCT account_id, executed_at FROM stats_old) s JOIN accounts a ON a.id = s.account_id
    ) x;
  ELSE
    SELECT array_agg(x.account_id), array_agg(x.day) INTO accts, ds FROM (
      SELECT DISTINCT s.account_id, (s.executed_at AT TIME ZONE a.timezone)::date AS day
      FROM (SELECT account_id, executed_at FROM stats_new UNION SELECT account_id, executed_at FROM stats_old) s
      JOIN accounts a ON a.id = s.account_id
    ) x;
  END IF;
  PERFORM stats_note(accts, ds);
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
  ds date[];
BEGIN
  IF current_setting('journal.ledger_batch', true) = 'on' THEN
    IF TG_OP = 'INSERT' THEN
      PERFORM stats_span_add(account_id, min(closed_at), max(closed_at)) FROM stats_new WHERE closed_at IS NOT NULL GROUP BY account_id;
    ELSIF TG_OP = 'DELETE' THEN
      PERFORM stats_span_add(account_id, min(closed_at), max(closed_at)) FROM stats_old WHERE closed_at IS NOT NULL GROUP BY account_id;
    ELSE
      PERFORM stats_span_add(account_id, min(closed_at), max(closed_at))
      FROM (SELECT account_id, closed_at FROM stats_new UNION ALL SELECT account_id, closed_at FROM stats_old) s
      WHERE closed_at IS NOT NULL GROUP BY account_id;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(x.account_id), array_agg(x.day) INTO accts, ds FROM (
      SELECT DISTINCT s.account_id, (s.closed_at AT TIME ZONE a.timezone)::date AS day
      FROM stats_new s JOIN accounts a ON a.id = s.account_id WHERE s.closed_at IS NOT NULL
    ) x;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(x.account_id), array_agg(x.day) INTO accts, ds FROM (
      SELECT DISTINCT s.account_id, (s.closed_at AT TIME ZONE a.timezone)::date AS day
      FROM stats_old s JOIN accounts a ON a.id = s.account_id WHERE s.closed_at IS NOT NULL
    ) x;
  ELSE
    SELECT array_agg(x.account_id), array_agg(x.day) INTO accts, ds FROM (
      SELECT DISTINCT s.account_id, (s.closed_at AT TIME ZONE a.timezone)::date AS day
      FROM (SELECT account_id, closed_at FROM stats_new UNION SELECT account_id, closed_at FROM stats_old) s
      JOIN accounts a ON a.id = s.account_id WHERE s.closed_at IS NOT NULL
    ) x;
  END IF;
  PERFORM stats_note(accts, ds);
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
  ds date[];
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
  IF current_setting('journal.ledger_batch', true) = 'on' THEN
    -- Inside a write batch: from each trade's opening to its close (its last share while open).
    PERFORM stats_span_add(p.account_id, min(p.opened_at),
      max(coalesce(p.closed_at, (SELECT max(pf.executed_at) FROM position_fills pf WHERE pf.position_id = p.id), p.opened_at)))
    FROM positions p WHERE p.id = ANY (trades) GROUP BY p.account_id;
    RETURN NULL;
  END IF;
  SELECT array_agg(x.account_id), array_agg(x.day) INTO accts, ds FROM (
    SELECT DISTINCT p.account_id, (w.at AT TIME ZONE a.timezone)::date AS day
    FROM positions p JOIN accounts a ON a.id = p.account_id
    CROSS JOIN LATERAL (
      SELECT pf.executed_at FROM position_fills pf WHERE pf.position_id = p.id
      UNION ALL SELECT p.closed_at WHERE p.closed_at IS NOT NULL
    ) AS w(at)
    WHERE p.id = ANY (trades)
  ) x;
  PERFORM stats_note(accts, ds);
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
