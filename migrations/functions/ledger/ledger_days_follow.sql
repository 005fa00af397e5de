-- ledger_days_follow: after every statement that inserts, deletes or updates ledger entries (an import of
-- 100,000 fills is one statement), the days it touched are made right again (ledger_days_refresh): an
-- update's old and new days both, so an entry moved to another day leaves the first one right too. The
-- trigger's own renumbering (day_rank, day_balance) fires the update trigger again one level down, which
-- returns at once. Inside a batch (ledger_batch.sql) the days are only noted, and made right at its end.
CREATE OR REPLACE FUNCTION ledger_days_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  accts uuid[];
  ds date[];
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(account_id), array_agg(day) INTO accts, ds FROM (SELECT DISTINCT account_id, day FROM ledger_new) t;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(account_id), array_agg(day) INTO accts, ds FROM (SELECT DISTINCT account_id, day FROM ledger_old) t;
  ELSE
    -- Both sides' days, without matching rows (a join of two transition tables has no statistics to plan
    -- by, and one planned as a nested loop took seconds on a 10,000-row update).
    SELECT array_agg(account_id), array_agg(day) INTO accts, ds FROM (
      SELECT account_id, day FROM ledger_new
      UNION
      SELECT account_id, day FROM ledger_old
    ) t;
  END IF;
  IF accts IS NULL THEN
    RETURN NULL;
  END IF;
  -- Inside a batch (ledger_batch_begin): kept for ledger_batch_end, which makes each day right once.
  IF current_setting('journal.ledger_batch', true) = 'on' THEN
    INSERT INTO ledger_days_pending (account_id, day) SELECT DISTINCT a, d FROM unnest(accts, ds) AS t(a, d)
    ON CONFLICT DO NOTHING;
  ELSE
    PERFORM ledger_days_refresh(accts, ds);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER ledger_days_follow_insert AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS ledger_new FOR EACH STATEMENT EXECUTE FUNCTION ledger_days_follow();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER ledger_days_follow_delete AFTER DELETE ON ledger_entries
  REFERENCING OLD TABLE AS ledger_old FOR EACH STATEMENT EXECUTE FUNCTION ledger_days_follow();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER ledger_days_follow_update AFTER UPDATE ON ledger_entries
  REFERENCING NEW TABLE AS ledger_new OLD TABLE AS ledger_old FOR EACH STATEMENT EXECUTE FUNCTION ledger_days_follow();
