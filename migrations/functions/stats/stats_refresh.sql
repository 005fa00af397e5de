-- stats_refresh(accounts, days): the given trading days of the given accounts (pairs by position; days in
-- each account's zone) made right again from what they read (stats_rows): their rows in stats_groups, their
-- months' rows (the sums of the days), and the UTC days they overlap in stats_drawdown_days for the account's
-- user and currency. Accounts that no longer exist are skipped (their rows went with them; a deleted
-- account's user totals are made right by stats_account_gone).
-- Called by stats_settle (a read), and for the post-migration's backfill. Raises the users' versions
-- (stats_version_bump).
-- Concurrency: one transaction at a time per user (a transaction-scoped advisory lock taken before
-- anything is read), so each refresh reads everything committed before it, and two refreshes of one user's
-- days cannot leave a row computed from a state without the other's change.
-- Cost: what those days hold, whatever their depth in the history.
CREATE OR REPLACE FUNCTION stats_refresh(p_accounts uuid[], p_days date[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  dims constant text[] := ARRAY['', 'symbol', 'direction', 'weekday', 'hour', 'setup', 'tag'];
  accts uuid[];
  ds date[];
  los timestamptz[];
  his timestamptz[];
  us uuid[];
  cs text[];
  uds date[];
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('stats ' || u.user_id::text, 0))
  FROM (SELECT DISTINCT a.user_id FROM accounts a WHERE a.id = ANY (p_accounts) ORDER BY 1) u;

  -- Each day with its bounds (from its first instant to the next day's).
  SELECT array_agg(t.a), array_agg(t.d), array_agg(t.d::timestamp AT TIME ZONE a.timezone), array_agg((t.d + 1)::timestamp AT TIME ZONE a.timezone)
  INTO accts, ds, los, his
  FROM (SELECT DISTINCT a, d FROM unnest(p_accounts, p_days) AS t(a, d)) t JOIN accounts a ON a.id = t.a;
  IF accts IS NULL THEN
    RETURN;
  END IF;

  -- The days.
  DELETE FROM stats_groups g
  WHERE (g.account_id, g.grain, g.dim, g.day) IN (SELECT t.a, 'day', m.dim, t.d FROM unnest(accts, ds) AS t(a, d), unnest(dims) AS m(dim));
  INSERT INTO stats_groups (account_id, grain, dim, day, key, one_r, net, gross, fees, moved, trades, wins, losses,
    trades_net, wins_net, losses_net, largest, smallest, day_trades, day_r, day_with_risk, dd_high, dd_low, dd_drop)
  SELECT s.account_id, 'day', s.dim, s.day, s.key, s.one_r, s.net, s.gross, s.fees, s.moved, s.trades, s.wins, s.losses,
    s.trades_net, s.wins_net, s.losses_net, s.largest, s.smallest,
    s.day_trades, s.day_r, s.day_with_risk, s.dd_high, s.dd_low, s.dd_drop
  FROM stats_rows(accts, los, his, dims) s;

  -- Their months, from their days.
  DELETE FROM stats_groups g
  WHERE (g.account_id, g.grain, g.dim, g.day) IN (
    SELECT DISTINCT t.a, 'month', m.dim, date_trunc('month', t.d)::date FROM unnest(accts, ds) AS t(a, d), unnest(dims) AS m(dim)
  );
  WITH m AS (SELECT DISTINCT a AS account_id, date_trunc('month', d)::date AS month FROM unnest(accts, ds) AS t(a, d))
  INSERT INTO stats_groups (account_id, grain, dim, day, key, one_r, net, gross, fees, moved, trades, wins, losses,
    trades_net, wins_net, losses_net, largest, smallest)
  SELECT g.account_id, 'month', g.dim, m.month, g.key, g.one_r, sum(g.net), sum(g.gross), sum(g.fees), sum(g.moved), sum(g.trades),
    sum(g.wins), sum(g.losses), sum(g.trades_net), sum(g.wins_net), sum(g.losses_net), max(g.largest), min(g.smallest)
  FROM m CROSS JOIN unnest(dims) AS k(dim) CROSS JOIN LATERAL (
    SELECT * FROM stats_groups x WHERE x.account_id = m.account_id AND x.grain = 'day' AND x.dim = k.dim
      AND x.day >= m.month AND x.day < (m.month + interval '1 month')::date OFFSET 0
  ) g
  GROUP BY g.account_id, g.dim, m.month, g.key, g.one_r;

  -- Each month's drawdown summary, its days' chained (stats_rows): its highest and lowest running sum and
  -- its deepest fall below a running high, from the month's start.
  WITH m AS (SELECT DISTINCT a AS account_id, date_trunc('month', d)::date AS month FROM unnest(accts, ds) AS t(a, d)),
  d1 AS (
    SELECT g.account_id, m.month, g.day, g.dd_high, g.dd_low, g.dd_drop,
      coalesce(sum(g.net) OVER (PARTITION BY g.account_id, m.month ORDER BY g.day ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS e
    FROM m CROSS JOIN LATERAL (
      SELECT * FROM stats_groups x WHERE x.account_id = m.account_id AND x.grain = 'day' AND x.dim = '' AND x.day >= m.month
        AND x.day < (m.month + interval '1 month')::date AND x.dd_high IS NOT NULL OFFSET 0
    ) g
  ),
  d2 AS (
    SELECT d1.*, max(d1.e + d1.dd_high) OVER (PARTITION BY d1.account_id, d1.month ORDER BY d1.day ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS p
    FROM d1
  ),
  x AS (
    SELECT account_id, month, max(e + dd_high) AS high, min(e + dd_low) AS low, max(greatest(dd_drop, p - e - dd_low)) AS drop
    FROM d2 GROUP BY 1, 2
  )
  UPDATE stats_groups s SET dd_high = x.high, dd_low = x.low, dd_drop = x.drop FROM x
  WHERE s.account_id = x.account_id AND s.grain = 'month' AND s.dim = '' AND s.day = x.month AND s.key = '' AND s.one_r IS NULL;

  -- The user's days over all their accounts in the currency (UTC days; a trading day overlaps one or two).
  SELECT array_agg(x.user_id), array_agg(x.currency), array_agg(x.d) INTO us, cs, uds FROM (
    SELECT DISTINCT a.user_id, a.currency, v.d FROM unnest(accts, los, his) AS t(a, lo, hi) JOIN accounts a ON a.id = t.a
    CROSS JOIN LATERAL (VALUES ((t.lo AT TIME ZONE 'UTC')::date), (((t.hi - interval '1 microsecond') AT TIME ZONE 'UTC')::date)) AS v(d)
  ) x;
  DELETE FROM stats_drawdown_days x WHERE (x.user_id, x.currency, x.day) IN (SELECT * FROM unnest(us, cs, uds));
  INSERT INTO stats_drawdown_days (user_id, currency, day, net, high, low, drop)
  SELECT s.* FROM stats_drawdown_rows(us, cs,
    ARRAY(SELECT d::timestamp AT TIME ZONE 'UTC' FROM unnest(uds) WITH ORDINALITY AS t(d, i) ORDER BY i),
    ARRAY(SELECT (d + 1)::timestamp AT TIME ZONE 'UTC' FROM unnest(uds) WITH ORDINALITY AS t(d, i) ORDER BY i)) s;
  PERFORM stats_version_bump(us);
END;
$$;
