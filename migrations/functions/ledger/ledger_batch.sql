-- ledger_batch_begin() / ledger_batch_end(): a function that writes an account's ledger in many statements
-- (an import writes its entries, then each futures symbol's rebuild settles their cash: one statement per
-- symbol) opens a batch; while it is open, ledger_days_follow only notes the days each statement touched
-- (ledger_days_pending), and ledger_batch_end makes them right once, instead of once per statement (a futures
-- import of 10,000 fills over 100 symbols otherwise renumbers its days 100 times). The batch is a
-- transaction-local setting: an error rolls back the notes with everything else. Not nested: the caller that
-- begins one ends it before it returns. The statistics' notes follow the same batch: its statements widen each
-- account's span (stats_span_add), and its end notes the span's days once (stats_spans_note).
CREATE OR REPLACE FUNCTION ledger_batch_begin() RETURNS void
LANGUAGE sql AS $$
  SELECT set_config('journal.ledger_batch', 'on', true);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_batch_end() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  accts uuid[];
  ds date[];
BEGIN
  PERFORM set_config('journal.ledger_batch', 'off', true);
  WITH noted AS (DELETE FROM ledger_days_pending RETURNING account_id, day)
  SELECT array_agg(account_id), array_agg(day) INTO accts, ds FROM noted;
  IF accts IS NOT NULL THEN
    PERFORM ledger_days_refresh(accts, ds);
  END IF;
  PERFORM stats_spans_note();
END;
$$;
