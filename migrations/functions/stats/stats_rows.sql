-- stats_rows(accounts, froms, tos, dims): what every statistic reads, computed from the fill shares and the
-- trades of each account in [from, to) (triples by position): per account, trading day (the account's zone),
-- dimension and key (stats_keys) and 1R of the trades closed (trade_one_r; null for none, and for the row
-- that carries what the shares realised and paid):
-- - net, gross, fees: what the fill shares dated in the range realised and paid; moved: how many of them
--   realised or paid anything;
-- - trades, wins, losses, trades_net, wins_net, losses_net, largest, smallest: the trades closed in the range;
-- - day_trades, day_r, day_with_risk (on the totals' row without a 1R): the day's closed trades over every
--   1R, the sum over its 1Rs of their net / 1R (unrounded) and how many had a 1R, so a day is one row;
-- - dd_high, dd_low, dd_drop (on the totals' row): the day's drawdown summary, its shares' realised - fees
--   summed in time order (executed_at, fill, position): the highest and lowest running sum and the deepest
--   fall of the running sum below its running high. Days chain: with E the sum and P the high (at least 0)
--   of everything before, a day's deepest fall below the high is greatest(dd_drop, P - E - dd_low), and the
--   high after it greatest(P, E + dd_high).
-- The maintained rows (stats_groups) are these over whole days; the statistics add these over the partial
-- days at the edges of a range. PL/pgSQL, not an inlined SQL function: its statement is planned once per
-- connection and kept, instead of with every statistic that reads it (planning it took longer than running it).
CREATE OR REPLACE FUNCTION stats_rows(p_accounts uuid[], p_from timestamptz[], p_to timestamptz[], p_dims text[])
RETURNS TABLE (account_id uuid, day date, dim text, key text, one_r numeric, net numeric, gross numeric, fees numeric,
  moved integer, trades integer, wins integer, losses integer, trades_net numeric, wins_net numeric, losses_net numeric,
  largest numeric, smallest numeric, day_trades integer, day_r numeric, day_with_risk integer, dd_high numeric, dd_low numeric,
  dd_drop numeric)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  IF coalesce(cardinality(p_from), 0) = 0 THEN
    RETURN;  -- no range: nothing to plan
  END IF;
  RETURN QUERY
  WITH r AS (
    SELECT r.account_id, r.lo, r.hi, a.timezone, a.default_risk
    FROM unnest(p_accounts, p_from, p_to) AS r(account_id, lo, hi) JOIN accounts a ON a.id = r.account_id
  ),
  sh AS (
    SELECT pf.account_id, (pf.executed_at AT TIME ZONE r.timezone)::date AS day, pf.executed_at, pf.fill_id, pf.position_id,
      pf.realized, pf.fees, r.timezone
    FROM r CROSS JOIN LATERAL (
      -- Per range, by the index on (account_id, executed_at): never a join that compares every range with every share.
      SELECT * FROM position_fills x WHERE x.account_id = r.account_id AND x.executed_at >= r.lo AND x.executed_at < r.hi
      OFFSET 0  -- planned per range (a flattened join compared every share with every range)
    ) pf
  ),
  -- Each trade's shares of a day summed first (an opening and a closing share make one row), then spread over
  -- the dimensions of its trade. The trades and their journals are looked up among the accounts' own (`=
  -- ANY (p_accounts)`): a whole account's refresh reads them by their account instead of every trader's.
  pd AS (
    SELECT sh.account_id, sh.day, sh.position_id, sh.timezone, sum(sh.realized - sh.fees) AS net, sum(sh.realized) AS gross,
      sum(sh.fees) AS fees, count(*) FILTER (WHERE sh.realized <> 0 OR sh.fees <> 0)::integer AS moved
    FROM sh GROUP BY 1, 2, 3, 4
  ),
  ev AS (
    SELECT pd.account_id, pd.day, k.dim, k.key, sum(pd.net) AS net, sum(pd.gross) AS gross, sum(pd.fees) AS fees,
      sum(pd.moved)::integer AS moved
    FROM pd JOIN positions p ON p.id = pd.position_id AND p.account_id = ANY (p_accounts)
    LEFT JOIN trade_journals j ON j.position_id = p.id AND j.account_id = ANY (p_accounts)
    CROSS JOIN LATERAL stats_keys(p_dims, p.symbol, p.direction, p.opened_at AT TIME ZONE pd.timezone, j.setup, j.tags) k
    GROUP BY 1, 2, 3, 4
  ),
  -- The trades closed in the ranges, gathered before their journals are joined: joined inside the per-range
  -- loop, every journal was read once per range (1,390 times for a 100,000-trade account's refresh).
  cp AS MATERIALIZED (
    SELECT p.id, p.account_id, p.symbol, p.direction, p.opened_at, p.closed_at, p.max_quantity, p.multiplier, p.net_pnl,
      r.timezone, r.default_risk
    FROM r CROSS JOIN LATERAL (
      SELECT * FROM positions x WHERE x.account_id = r.account_id AND x.closed_at >= r.lo AND x.closed_at < r.hi OFFSET 0
    ) p
  ),
  cl AS (
    SELECT p.account_id, (p.closed_at AT TIME ZONE p.timezone)::date AS day, k.dim, k.key,
      trade_one_r(j.planned_risk, j.entry_price, j.stop_price, p.max_quantity, p.multiplier, p.default_risk) AS one_r, p.net_pnl
    FROM cp p
    -- Each trade's journal by its index: a day's refresh reads its few trades' journals, not the account's.
    LEFT JOIN LATERAL (SELECT * FROM trade_journals x WHERE x.position_id = p.id OFFSET 0) j ON true
    CROSS JOIN LATERAL stats_keys(p_dims, p.symbol, p.direction, p.opened_at AT TIME ZONE p.timezone, j.setup, j.tags) k
  ),
  ct AS (
    SELECT cl.account_id, cl.day, cl.dim, cl.key, cl.one_r, count(*)::integer AS trades,
      count(*) FILTER (WHERE cl.net_pnl > 0)::integer AS wins, count(*) FILTER (WHERE cl.net_pnl < 0)::integer AS losses,
      sum(cl.net_pnl) AS trades_net, sum(cl.net_pnl) FILTER (WHERE cl.net_pnl > 0) AS wins_net,
      sum(cl.net_pnl) FILTER (WHERE cl.net_pnl < 0) AS losses_net, max(cl.net_pnl) AS largest, min(cl.net_pnl) AS smallest
    FROM cl GROUP BY 1, 2, 3, 4, 5
  ),
  run AS (
    SELECT sh.account_id, sh.day, sh.executed_at, sh.fill_id, sh.position_id,
      sum(sh.realized - sh.fees) OVER (PARTITION BY sh.account_id, sh.day ORDER BY sh.executed_at, sh.fill_id, sh.position_id ROWS UNBOUNDED PRECEDING) AS c
    FROM sh WHERE '' = ANY (p_dims)
  ),
  dd AS (
    SELECT x.account_id, x.day, max(x.c) AS high, min(x.c) AS low, max(x.peak - x.c) AS drop FROM (
      SELECT run.*, max(run.c) OVER (PARTITION BY run.account_id, run.day ORDER BY run.executed_at, run.fill_id, run.position_id ROWS UNBOUNDED PRECEDING) AS peak
      FROM run
    ) x GROUP BY 1, 2
  ),
  u AS (
    SELECT u.account_id, u.day, u.dim, u.key, u.one_r, sum(u.net) AS net, sum(u.gross) AS gross, sum(u.fees) AS fees,
      sum(u.moved)::integer AS moved, sum(u.trades)::integer AS trades, sum(u.wins)::integer AS wins, sum(u.losses)::integer AS losses,
      sum(u.trades_net) AS trades_net, sum(u.wins_net) AS wins_net, sum(u.losses_net) AS losses_net,
      max(u.largest) AS largest, min(u.smallest) AS smallest
    FROM (
      SELECT ev.account_id, ev.day, ev.dim, ev.key, NULL::numeric AS one_r, ev.net, ev.gross, ev.fees, ev.moved,
        0 AS trades, 0 AS wins, 0 AS losses, 0::numeric AS trades_net, NULL::numeric AS wins_net, NULL::numeric AS losses_net,
        NULL::numeric AS largest, NULL::numeric AS smallest
      FROM ev
      UNION ALL
      SELECT ct.account_id, ct.day, ct.dim, ct.key, ct.one_r, 0, 0, 0, 0, ct.trades, ct.wins, ct.losses, ct.trades_net,
        ct.wins_net, ct.losses_net, ct.largest, ct.smallest
      FROM ct
    ) u
    GROUP BY 1, 2, 3, 4, 5
  ),
  dt AS (
    SELECT ct.account_id, ct.day, sum(ct.trades)::integer AS trades, sum(ct.trades_net / ct.one_r) AS r,
      coalesce(sum(ct.trades) FILTER (WHERE ct.one_r IS NOT NULL), 0)::integer AS with_risk
    FROM ct WHERE ct.dim = '' GROUP BY 1, 2
  )
  SELECT u.*, CASE WHEN u.dim = '' AND u.one_r IS NULL THEN coalesce(dt.trades, 0) END, dt.r,
    CASE WHEN u.dim = '' AND u.one_r IS NULL THEN coalesce(dt.with_risk, 0) END, dd.high, dd.low, dd.drop
  FROM u LEFT JOIN dd ON u.dim = '' AND u.one_r IS NULL AND dd.account_id = u.account_id AND dd.day = u.day
  LEFT JOIN dt ON u.dim = '' AND u.one_r IS NULL AND dt.account_id = u.account_id AND dt.day = u.day;
END;
$$;
