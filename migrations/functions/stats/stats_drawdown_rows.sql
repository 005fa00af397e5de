-- stats_drawdown_rows(users, currencies, froms, tos): the drawdown summary (stats_rows' dd_high, dd_low,
-- dd_drop, with the net) of each UTC day in [from, to), over the fill shares of all the user's accounts in
-- that currency merged in time order (executed_at, fill, position): what a figure over several accounts
-- chains. The maintained rows (stats_drawdown_days) are these over whole UTC days.
CREATE OR REPLACE FUNCTION stats_drawdown_rows(p_users uuid[], p_currencies text[], p_from timestamptz[], p_to timestamptz[])
RETURNS TABLE (user_id uuid, currency text, day date, net numeric, high numeric, low numeric, drop numeric)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  IF coalesce(cardinality(p_from), 0) = 0 THEN
    RETURN;  -- no range: nothing to plan
  END IF;
  RETURN QUERY
  WITH r AS (SELECT * FROM unnest(p_users, p_currencies, p_from, p_to) AS r(user_id, currency, lo, hi)),
  run AS (
    SELECT r.user_id, r.currency, (pf.executed_at AT TIME ZONE 'UTC')::date AS day, pf.executed_at, pf.fill_id, pf.position_id,
      pf.realized - pf.fees AS amount
    FROM r JOIN accounts a ON a.user_id = r.user_id AND a.currency = r.currency
    CROSS JOIN LATERAL (
      SELECT * FROM position_fills x WHERE x.account_id = a.id AND x.executed_at >= r.lo AND x.executed_at < r.hi
      OFFSET 0  -- planned per range (a flattened join compared every share with every range)
    ) pf
  ),
  c AS (
    SELECT run.*, sum(run.amount) OVER w AS c
    FROM run WINDOW w AS (PARTITION BY run.user_id, run.currency, run.day ORDER BY run.executed_at, run.fill_id, run.position_id ROWS UNBOUNDED PRECEDING)
  )
  SELECT x.user_id, x.currency, x.day, sum(x.amount), max(x.c), min(x.c), max(x.peak - x.c) FROM (
    SELECT c.*, max(c.c) OVER (PARTITION BY c.user_id, c.currency, c.day ORDER BY c.executed_at, c.fill_id, c.position_id ROWS UNBOUNDED PRECEDING) AS peak
    FROM c
  ) x GROUP BY 1, 2, 3;
END;
$$;
