-- ledger_days_recount(account, from_day): the account's day and month counts and totals from from_day on,
-- counted again from its entries, whose places and running sums in their days are right already (an import
-- that only appended wrote them so: import_apply). Cheaper than ledger_days_refresh, which renumbers too.
-- Then the account's balance must fit a money column (NUMERIC_OUT_OF_RANGE otherwise).
CREATE OR REPLACE FUNCTION ledger_days_recount(p_account uuid, p_from_day date) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_days (account_id, day, entries, total)
  SELECT p_account, day, count(*), sum(amount) FROM ledger_entries WHERE account_id = p_account AND day >= p_from_day GROUP BY day
  ON CONFLICT (account_id, day) DO UPDATE SET entries = excluded.entries, total = excluded.total;
  INSERT INTO ledger_months (account_id, month, entries, total)
  SELECT p_account, date_trunc('month', day)::date, sum(entries), sum(total) FROM ledger_days
  WHERE account_id = p_account AND day >= date_trunc('month', p_from_day)::date GROUP BY 2
  ON CONFLICT (account_id, month) DO UPDATE SET entries = excluded.entries, total = excluded.total;
  PERFORM sum(total)::numeric(28, 10) FROM ledger_months WHERE account_id = p_account;
END;
$$;
