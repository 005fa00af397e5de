-- ledger_days_refresh(accounts, days): the given days of the given accounts (pairs, by position) made right
-- again after their entries changed: every entry's place and running sum within its day (rows already right
-- are not written), each day's count and total in ledger_days (a day left empty loses its row) and each of
-- their months' in ledger_months. Then each
-- of those accounts' balance must fit the money columns (NUMERIC_OUT_OF_RANGE otherwise, as a stored
-- balance would have raised).
-- Cost: the entries of those days, whatever their depth in the ledger.
-- Called by ledger_days_follow (the trigger) after every statement that writes ledger entries.
CREATE OR REPLACE FUNCTION ledger_days_refresh(p_accounts uuid[], p_days date[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH touched AS (
    SELECT DISTINCT a AS account_id, d AS day FROM unnest(p_accounts, p_days) AS t(a, d)
  )
  UPDATE ledger_entries e SET day_rank = s.rn, day_balance = s.running
  FROM (
    SELECT x.id, row_number() OVER w AS rn, sum(x.amount) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running
    FROM ledger_entries x JOIN touched t ON t.account_id = x.account_id AND t.day = x.day
    WINDOW w AS (PARTITION BY x.account_id, x.day ORDER BY x.occurred_at, x.id)
  ) s
  WHERE e.id = s.id AND (e.day_rank <> s.rn OR e.day_balance <> s.running);

  WITH touched AS (
    SELECT DISTINCT a AS account_id, d AS day FROM unnest(p_accounts, p_days) AS t(a, d)
  ),
  totals AS (
    SELECT t.account_id, t.day, count(x.id)::integer AS n, coalesce(sum(x.amount), 0) AS total
    FROM touched t LEFT JOIN ledger_entries x ON x.account_id = t.account_id AND x.day = t.day
    GROUP BY t.account_id, t.day
  ),
  emptied AS (
    DELETE FROM ledger_days d USING totals x WHERE d.account_id = x.account_id AND d.day = x.day AND x.n = 0
  )
  INSERT INTO ledger_days (account_id, day, entries, total)
  SELECT account_id, day, n, total FROM totals WHERE n > 0 AND EXISTS (SELECT 1 FROM accounts WHERE id = totals.account_id)
  ON CONFLICT (account_id, day) DO UPDATE SET entries = excluded.entries, total = excluded.total;

  -- Their months again, from their days.
  WITH touched AS (
    SELECT DISTINCT a AS account_id, date_trunc('month', d)::date AS month FROM unnest(p_accounts, p_days) AS t(a, d)
  ),
  totals AS (
    SELECT t.account_id, t.month, coalesce(sum(x.entries), 0)::integer AS n, coalesce(sum(x.total), 0) AS total
    FROM touched t LEFT JOIN ledger_days x ON x.account_id = t.account_id AND x.day >= t.month AND x.day < (t.month + interval '1 month')::date
    GROUP BY t.account_id, t.month
  ),
  emptied AS (
    DELETE FROM ledger_months m USING totals x WHERE m.account_id = x.account_id AND m.month = x.month AND x.n = 0
  )
  INSERT INTO ledger_months (account_id, month, entries, total)
  SELECT account_id, month, n, total FROM totals WHERE n > 0 AND EXISTS (SELECT 1 FROM accounts WHERE id = totals.account_id)
  ON CONFLICT (account_id, month) DO UPDATE SET entries = excluded.entries, total = excluded.total;

  -- The balance each account ends with must fit a money column (numeric(28, 10)).
  PERFORM sum(total)::numeric(28, 10) FROM ledger_months WHERE account_id = ANY (p_accounts) GROUP BY account_id;
END;
$$;
