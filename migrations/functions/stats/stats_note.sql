-- stats_note(accounts, days): the statistics of these trading days (pairs) changed. They are noted in
-- stats_pending under the noting transaction's id, and refreshed by the next read of the user's statistics
-- (stats_settle), not here: a refresh reads every share and trade of its days in every dimension, which for
-- an import of 10,000 fills took longer than the import itself (docs/trading.md, "Statistics at any depth").
-- A note is never merged into another transaction's: a reader settling that one before this transaction
-- commits would otherwise take this change's note with it.
CREATE OR REPLACE FUNCTION stats_note(p_accounts uuid[], p_days date[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO stats_pending (account_id, day) SELECT DISTINCT a, d FROM unnest(p_accounts, p_days) AS t(a, d)
  ON CONFLICT DO NOTHING;
$$;
--> statement-breakpoint
-- stats_settle(user): the user's noted days (committed notes) refreshed, so what the user's statistics read next
-- is exact. Under the user's lock (stats_refresh's): a second reader waits, then finds the notes gone and the
-- rows right. Nothing noted: returns at once, without the lock.
CREATE OR REPLACE FUNCTION stats_settle(p_user uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  accts uuid[];
  ds date[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM stats_pending s JOIN accounts a ON a.id = s.account_id WHERE a.user_id = p_user) THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('stats ' || p_user::text, 0));
  WITH noted AS (
    DELETE FROM stats_pending s USING accounts a WHERE a.id = s.account_id AND a.user_id = p_user RETURNING s.account_id, s.day
  )
  SELECT array_agg(account_id), array_agg(day) INTO accts, ds FROM noted;
  IF accts IS NOT NULL THEN
    PERFORM stats_refresh(accts, ds);
  END IF;
END;
$$;
--> statement-breakpoint
-- stats_settle_read(user, max_notes): what a read does before it reads the maintained rows. The version of
-- the user's rows (stats_versions) when they are exact for it: nothing noted, or at most max_notes notes
-- (about one per trading day changed), settled now (stats_settle). NULL when more are noted (an import of a
-- long history, a change of an account's zone or default risk): refreshing them would keep this read waiting
-- for seconds, so they are left to the settle job, and the read computes its figures from the journal (the
-- same figures, lib/stats/recompute.ts). Read after the settle, inside this function: the statement calling
-- it sees the table as it was when it began.
CREATE OR REPLACE FUNCTION stats_settle_read(p_user uuid, p_max_notes integer) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  noted integer;
BEGIN
  SELECT count(*) INTO noted FROM (
    SELECT 1 FROM stats_pending s JOIN accounts a ON a.id = s.account_id WHERE a.user_id = p_user LIMIT p_max_notes + 1
  ) x;
  IF noted > p_max_notes THEN
    RETURN NULL;
  END IF;
  IF noted > 0 THEN
    PERFORM stats_settle(p_user);
  END IF;
  RETURN coalesce((SELECT version FROM stats_versions WHERE user_id = p_user), 0);
END;
$$;
--> statement-breakpoint
-- stats_span_add(account, from, to): inside a write batch (ledger_batch_begin .. ledger_batch_end: an import,
-- an undo, a restore, hundreds of statements), a statement's changes widen the account's span instead of
-- noting days one statement at a time (which cost an import of 10,000 fills about as much as its ledger): the
-- span is a transaction-local setting, and stats_spans_note notes every day in it once, at the batch's end.
CREATE OR REPLACE FUNCTION stats_span_add(p_account uuid, p_from timestamptz, p_to timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  spans jsonb := coalesce(nullif(current_setting('journal.stats_spans', true), ''), '{}')::jsonb;
  cur jsonb := spans -> p_account::text;
BEGIN
  IF p_account IS NULL OR p_from IS NULL THEN
    RETURN;
  END IF;
  IF cur IS NOT NULL THEN
    p_from := least(p_from, (cur ->> 0)::timestamptz);
    p_to := greatest(p_to, (cur ->> 1)::timestamptz);
  END IF;
  PERFORM set_config('journal.stats_spans', jsonb_set(spans, ARRAY[p_account::text], jsonb_build_array(p_from, p_to))::text, true);
END;
$$;
--> statement-breakpoint
-- stats_spans_note(): every trading day (the account's zone) of each account's span noted (stats_note), and
-- the spans cleared. ledger_batch_end calls it.
CREATE OR REPLACE FUNCTION stats_spans_note() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  spans jsonb := nullif(current_setting('journal.stats_spans', true), '')::jsonb;
  accts uuid[];
  ds date[];
BEGIN
  IF spans IS NULL THEN
    RETURN;
  END IF;
  PERFORM set_config('journal.stats_spans', '', true);
  SELECT array_agg(a.id), array_agg(d.day::date) INTO accts, ds
  FROM jsonb_each(spans) AS s(account, span)
  JOIN accounts a ON a.id = s.account::uuid
  CROSS JOIN LATERAL generate_series(((s.span ->> 0)::timestamptz AT TIME ZONE a.timezone)::date,
    ((s.span ->> 1)::timestamptz AT TIME ZONE a.timezone)::date, interval '1 day') AS d(day);
  PERFORM stats_note(accts, ds);
END;
$$;
