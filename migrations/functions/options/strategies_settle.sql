-- strategies_settle(user): groups the user's option trades into strategies (DESIGN.md section 11, docs/options.md),
-- in the accounts whose trades changed since it last did (strategy_pending, noted by strategies_follow: the notes of
-- committed transactions are taken; one of a transaction still open waits for the next settle). Nothing noted,
-- nothing to do. In those accounts, in order:
-- 1. a leg whose fill no longer opens a trade goes to the trade that now holds that fill; a leg whose fill is gone
--    (deleted, undone) to the same execution when it comes back (by execution id, else symbol, time to the second,
--    side, quantity and price: the duplicate rule, as journals find their fills); else it waits, kept;
-- 2. each option trade in no strategy joins an `auto` strategy of its account and underlying: when its opening fill
--    names its broker order (fills.order_id), the one holding a leg of that order (two orders are two strategies,
--    however close in time); else one that opened within 60 seconds of it; else it starts one (a `single` until
--    another leg joins it). A stock trade joins only such a strategy (a covered call, a protective put, a collar),
--    never starts one. A `manual` strategy is never joined;
-- 3. each strategy's opening and closing times are kept (opened_at: its first leg's; closed_at: its last leg's close,
--    null while a leg is open or none is live);
-- 4. a strategy opened within 60 seconds of another's close, or by the order that closed it, on the same account and
--    underlying, is that one's roll (roll_of_id), unless that one was rolled already;
-- 5. what nothing would bring back goes: legs whose fill is gone on a strategy with nothing written on it, and
--    strategies left without a leg and with nothing written.
-- Returns the number of legs it added. Locks the user's row when there is work: one settle at a time per user.
CREATE OR REPLACE FUNCTION strategies_settle(p_user uuid) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  accts uuid[];
  pos record;
  target uuid;
  added integer := 0;
  n integer;
  -- 2b's pass: the strategy it started last, and what it makes, written together at the end.
  cur_id uuid;
  cur_account uuid;
  cur_underlying text;
  cur_start timestamptz;
  new_ids uuid[] := '{}';
  new_accounts uuid[] := '{}';
  new_underlyings text[] := '{}';
  new_opened timestamptz[] := '{}';
  leg_strategies uuid[] := '{}';
  leg_fills uuid[] := '{}';
BEGIN
  -- Nothing noted: nothing to do, and no lock taken (the common read).
  IF NOT EXISTS (SELECT 1 FROM strategy_pending s JOIN accounts a ON a.id = s.account_id WHERE a.user_id = p_user) THEN
    RETURN 0;
  END IF;
  PERFORM 1 FROM users WHERE id = p_user FOR UPDATE;
  WITH taken AS (
    DELETE FROM strategy_pending s USING accounts a WHERE a.id = s.account_id AND a.user_id = p_user RETURNING s.account_id
  )
  SELECT array_agg(DISTINCT account_id) INTO accts FROM taken;
  IF accts IS NULL THEN
    RETURN 0;
  END IF;

  -- 1a. The fill is there but opens no trade now (a fill before it was added): the trade holding it.
  WITH moved AS (
    SELECT DISTINCT ON (p.open_fill_id) l.fill_id AS old, p.open_fill_id AS new
    FROM strategy_legs l JOIN strategies s ON s.id = l.strategy_id JOIN accounts a ON a.id = s.account_id
    JOIN position_fills pf ON pf.fill_id = l.fill_id JOIN positions p ON p.id = pf.position_id
    WHERE a.id = ANY (accts)
      AND NOT EXISTS (SELECT 1 FROM positions q WHERE q.open_fill_id = l.fill_id)
      AND NOT EXISTS (SELECT 1 FROM strategy_legs o WHERE o.fill_id = p.open_fill_id)
    ORDER BY p.open_fill_id, l.executed_at
  )
  UPDATE strategy_legs l SET fill_id = f.id, symbol = f.symbol, side = f.side, quantity = f.quantity, price = f.price,
    executed_at = f.executed_at, execution_id = f.execution_id
  FROM moved m JOIN fills f ON f.id = m.new
  WHERE l.fill_id = m.old;

  -- 1b. The fill is gone: the same execution, come back, that opens a trade in no strategy.
  -- (The lost legs first and on their own: a fresh table's statistics must not lead the plan through every fill.)
  WITH lost AS MATERIALIZED (
    SELECT l.*, s.account_id FROM strategy_legs l JOIN strategies s ON s.id = l.strategy_id JOIN accounts a ON a.id = s.account_id
    WHERE a.id = ANY (accts) AND NOT EXISTS (SELECT 1 FROM fills f WHERE f.id = l.fill_id)
  ), found AS (
    SELECT DISTINCT ON (p.open_fill_id) lo.fill_id AS old, p.open_fill_id AS new
    FROM lost lo
    JOIN fills f ON f.account_id = lo.account_id AND f.symbol = lo.symbol AND f.side = lo.side AND f.quantity = lo.quantity
      AND f.price = lo.price AND date_trunc('second', f.executed_at) = date_trunc('second', lo.executed_at)
      AND (f.execution_id IS NULL OR lo.execution_id IS NULL OR f.execution_id = lo.execution_id)
    JOIN position_fills pf ON pf.fill_id = f.id JOIN positions p ON p.id = pf.position_id
    WHERE NOT EXISTS (SELECT 1 FROM strategy_legs o WHERE o.fill_id = p.open_fill_id)
    ORDER BY p.open_fill_id, lo.executed_at
  )
  UPDATE strategy_legs l SET fill_id = f.id, symbol = f.symbol, side = f.side, quantity = f.quantity, price = f.price,
    executed_at = f.executed_at, execution_id = f.execution_id
  FROM found m JOIN fills f ON f.id = m.new
  WHERE l.fill_id = m.old;

  -- 2a. Trades whose opening fill names its order: the legs of one order of one underlying, in one statement. Each
  -- order's legs join the `auto` strategy holding a leg of it already, else make one (when one of them is an option:
  -- shares alone are no strategy).
  -- (Each order's fills are carried as an array and unnested at the end: no join between two lists of thousands.)
  WITH orders AS (
    SELECT p.account_id, CASE WHEN p.asset_class = 'option' THEN rtrim(left(p.symbol, 6)) ELSE p.symbol END AS underlying, f.order_id,
      min(p.opened_at) AS opened_at, bool_or(p.asset_class = 'option') AS has_option, array_agg(p.open_fill_id) AS fill_ids
    FROM positions p JOIN accounts a ON a.id = p.account_id JOIN fills f ON f.id = p.open_fill_id
    WHERE a.id = ANY (accts) AND p.asset_class IN ('option', 'stock') AND f.order_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM strategy_legs l WHERE l.fill_id = p.open_fill_id)
    GROUP BY 1, 2, 3
  ), targeted AS MATERIALIZED (
    SELECT o.*, coalesce(e.id, gen_random_uuid()) AS id, e.id IS NULL AS fresh
    FROM orders o
    LEFT JOIN LATERAL (
      SELECT s.id FROM fills x JOIN strategy_legs l ON l.fill_id = x.id JOIN strategies s ON s.id = l.strategy_id
      WHERE x.account_id = o.account_id AND x.order_id = o.order_id AND s.underlying = o.underlying AND s.source = 'auto'
      ORDER BY s.opened_at, s.id
      LIMIT 1
    ) e ON true
    WHERE e.id IS NOT NULL OR o.has_option
  ), made AS (
    INSERT INTO strategies (id, account_id, underlying, source, opened_at) SELECT id, account_id, underlying, 'auto', opened_at FROM targeted WHERE fresh
  )
  INSERT INTO strategy_legs (strategy_id, fill_id, symbol, side, quantity, price, executed_at, execution_id)
  SELECT t.id, f.id, f.symbol, f.side, f.quantity, f.price, f.executed_at, f.execution_id
  FROM targeted t CROSS JOIN LATERAL unnest(t.fill_ids) AS u(fill_id) JOIN fills f ON f.id = u.fill_id;
  GET DIAGNOSTICS n = ROW_COUNT;
  added := added + n;

  -- 2b. Option trades without an order, in one pass in time order per account and underlying: each joins the `auto`
  -- strategy of an earlier settle that opened within 60 seconds of it (the nearest), else the one this pass started
  -- last when it opened within 60 seconds of its first leg, else starts one. Written together at the end.
  FOR pos IN
    SELECT p.account_id, p.open_fill_id, p.opened_at, rtrim(left(p.symbol, 6)) AS underlying,
      (SELECT s.id FROM strategies s
       WHERE s.account_id = p.account_id AND s.underlying = rtrim(left(p.symbol, 6)) AND s.source = 'auto'
         AND s.opened_at BETWEEN p.opened_at - interval '60 seconds' AND p.opened_at + interval '60 seconds'
       ORDER BY abs(extract(epoch FROM s.opened_at - p.opened_at)), s.opened_at, s.id
       LIMIT 1) AS near
    FROM positions p JOIN accounts a ON a.id = p.account_id JOIN fills f ON f.id = p.open_fill_id
    WHERE a.id = ANY (accts) AND p.asset_class = 'option' AND f.order_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM strategy_legs l WHERE l.fill_id = p.open_fill_id)
    ORDER BY p.account_id, 4, p.opened_at, p.open_fill_id
  LOOP
    IF pos.near IS NOT NULL THEN
      target := pos.near;
    ELSIF cur_id IS NOT NULL AND cur_account = pos.account_id AND cur_underlying = pos.underlying AND pos.opened_at <= cur_start + interval '60 seconds' THEN
      target := cur_id;
    ELSE
      cur_id := gen_random_uuid();
      cur_account := pos.account_id;
      cur_underlying := pos.underlying;
      cur_start := pos.opened_at;
      new_ids := new_ids || cur_id;
      new_accounts := new_accounts || cur_account;
      new_underlyings := new_underlyings || cur_underlying;
      new_opened := new_opened || cur_start;
      target := cur_id;
    END IF;
    leg_strategies := leg_strategies || target;
    leg_fills := leg_fills || pos.open_fill_id;
  END LOOP;
  INSERT INTO strategies (id, account_id, underlying, source, opened_at)
  SELECT x.id, x.account_id, x.underlying, 'auto', x.opened_at FROM unnest(new_ids, new_accounts, new_underlyings, new_opened) AS x(id, account_id, underlying, opened_at);
  INSERT INTO strategy_legs (strategy_id, fill_id, symbol, side, quantity, price, executed_at, execution_id)
  SELECT x.strategy_id, f.id, f.symbol, f.side, f.quantity, f.price, f.executed_at, f.execution_id
  FROM unnest(leg_strategies, leg_fills) AS x(strategy_id, fill_id) JOIN fills f ON f.id = x.fill_id;
  GET DIAGNOSTICS n = ROW_COUNT;
  added := added + n;

  -- 2c. Stock trades without an order that opened within a minute of an option of their underlying: each joins the
  -- nearest `auto` strategy of that underlying opened within 60 seconds (a covered call...), never starts one.
  FOR pos IN
    SELECT p.open_fill_id,
      (SELECT s.id FROM strategies s
       WHERE s.account_id = p.account_id AND s.underlying = p.symbol AND s.source = 'auto'
         AND s.opened_at BETWEEN p.opened_at - interval '60 seconds' AND p.opened_at + interval '60 seconds'
       ORDER BY abs(extract(epoch FROM s.opened_at - p.opened_at)), s.opened_at, s.id
       LIMIT 1) AS near
    FROM positions p JOIN accounts a ON a.id = p.account_id JOIN fills f ON f.id = p.open_fill_id
    WHERE a.id = ANY (accts) AND p.asset_class = 'stock' AND f.order_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM strategy_legs l WHERE l.fill_id = p.open_fill_id)
      AND EXISTS (
        SELECT 1 FROM positions o WHERE o.account_id = p.account_id AND o.asset_class = 'option'
          AND rtrim(left(o.symbol, 6)) = p.symbol AND o.opened_at BETWEEN p.opened_at - interval '60 seconds' AND p.opened_at + interval '60 seconds')
    ORDER BY p.account_id, p.opened_at, p.open_fill_id
  LOOP
    CONTINUE WHEN pos.near IS NULL;
    INSERT INTO strategy_legs (strategy_id, fill_id, symbol, side, quantity, price, executed_at, execution_id)
    SELECT pos.near, f.id, f.symbol, f.side, f.quantity, f.price, f.executed_at, f.execution_id FROM fills f WHERE f.id = pos.open_fill_id;
    added := added + 1;
  END LOOP;

  -- 3. Each strategy's times, from its live legs.
  UPDATE strategies s SET opened_at = t.opened_at, closed_at = t.closed_at
  FROM (
    SELECT s2.id, min(p.opened_at) AS opened_at,
      CASE WHEN count(p.id) > 0 AND bool_and(p.closed_at IS NOT NULL) THEN max(p.closed_at) END AS closed_at
    FROM strategies s2 JOIN accounts a ON a.id = s2.account_id
    LEFT JOIN strategy_legs l ON l.strategy_id = s2.id LEFT JOIN positions p ON p.open_fill_id = l.fill_id
    WHERE a.id = ANY (accts)
    GROUP BY s2.id
  ) t
  WHERE s.id = t.id AND (s.opened_at IS DISTINCT FROM t.opened_at OR s.closed_at IS DISTINCT FROM t.closed_at) AND t.opened_at IS NOT NULL;

  -- A settle that grouped a file's worth of trades (the first read after a large import) analyzes what it wrote, so
  -- the statements below plan on the tables as they are now, not as they were before it.
  IF added >= 1000 THEN
    ANALYZE strategies;
    ANALYZE strategy_legs;
  END IF;

  -- 4. Rolls: opened within a minute of another's close, or by an order that closed one of its legs (a fill of that
  -- order in a leg's trade, not its opening one), same account and underlying, that one not rolled yet. The order's
  -- pairs are found from the fills (an index on account and order), not by trying every pair of strategies.
  WITH by_order AS (
    SELECT DISTINCT bl.strategy_id AS b_id, al.strategy_id AS a_id
    FROM accounts acc JOIN fills bf ON bf.account_id = acc.id AND bf.order_id IS NOT NULL
    JOIN strategy_legs bl ON bl.fill_id = bf.id
    JOIN fills af ON af.account_id = bf.account_id AND af.order_id = bf.order_id AND af.id <> bf.id
    JOIN position_fills apf ON apf.fill_id = af.id JOIN positions ap ON ap.id = apf.position_id AND ap.open_fill_id <> af.id
    JOIN strategy_legs al ON al.fill_id = ap.open_fill_id
    WHERE acc.id = ANY (accts) AND al.strategy_id <> bl.strategy_id
  ), candidates AS (
    SELECT DISTINCT ON (b_id) b_id, a_id FROM (
      -- By time: for each strategy not yet a roll, those of its underlying that closed within a minute of its opening
      -- (an index range on closed_at).
      -- (A lateral probe per strategy, in closed_at order: never a join of every pair of one underlying.)
      SELECT b.id AS b_id, a.id AS a_id, abs(extract(epoch FROM b.opened_at - a.closed_at)) AS gap
      FROM strategies b JOIN accounts acc ON acc.id = b.account_id
      CROSS JOIN LATERAL (
        SELECT x.id, x.closed_at FROM strategies x
        WHERE x.account_id = b.account_id AND x.underlying = b.underlying
          AND x.closed_at BETWEEN b.opened_at - interval '60 seconds' AND b.opened_at + interval '60 seconds'
          AND x.id <> b.id AND x.opened_at < b.opened_at
        ORDER BY x.closed_at
        LIMIT 20
      ) a
      WHERE acc.id = ANY (accts) AND b.roll_of_id IS NULL
      UNION ALL
      -- By order: an order that closed a leg of one opened the other.
      SELECT b.id, a.id, abs(extract(epoch FROM b.opened_at - a.closed_at))
      FROM by_order o JOIN strategies a ON a.id = o.a_id JOIN strategies b ON b.id = o.b_id
      WHERE a.account_id = b.account_id AND a.underlying = b.underlying AND a.closed_at IS NOT NULL AND a.opened_at < b.opened_at AND b.roll_of_id IS NULL
    ) c
    WHERE NOT EXISTS (SELECT 1 FROM strategies r WHERE r.roll_of_id = c.a_id)
    ORDER BY b_id, gap, a_id
  ), one_each AS (
    SELECT DISTINCT ON (a_id) b_id, a_id FROM candidates ORDER BY a_id, b_id
  )
  UPDATE strategies s SET roll_of_id = o.a_id FROM one_each o WHERE s.id = o.b_id;

  -- 5. What nothing would bring back.
  DELETE FROM strategy_legs l USING strategies s, accounts a
  WHERE s.id = l.strategy_id AND a.id = s.account_id AND a.id = ANY (accts)
    AND NOT EXISTS (SELECT 1 FROM fills f WHERE f.id = l.fill_id)
    AND s.notes IS NULL AND cardinality(s.tags) = 0 AND s.setup IS NULL AND s.rating IS NULL AND s.planned_risk IS NULL AND s.playbook_id IS NULL;
  DELETE FROM strategies s USING accounts a
  WHERE a.id = s.account_id AND a.id = ANY (accts)
    AND NOT EXISTS (SELECT 1 FROM strategy_legs l WHERE l.strategy_id = s.id)
    AND s.notes IS NULL AND cardinality(s.tags) = 0 AND s.setup IS NULL AND s.rating IS NULL AND s.planned_risk IS NULL AND s.playbook_id IS NULL;

  RETURN added;
END;
$$;
