-- strategies_settle(user): groups the user's option trades into strategies (DESIGN.md section 11, docs/options.md),
-- when their positions changed since it last did (strategy_marks: a count of the option and stock positions and
-- their last write). In order:
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
-- Returns the number of legs it added. Locks the user's row: one settle at a time per user.
CREATE OR REPLACE FUNCTION strategies_settle(p_user uuid) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  mark text;
  pos record;
  target uuid;
  added integer := 0;
BEGIN
  PERFORM 1 FROM users WHERE id = p_user FOR UPDATE;
  SELECT count(*)::text || '/' || coalesce(max(p.updated_at)::text, '-') INTO mark
  FROM positions p JOIN accounts a ON a.id = p.account_id
  WHERE a.user_id = p_user AND p.asset_class IN ('option', 'stock');
  IF EXISTS (SELECT 1 FROM strategy_marks WHERE user_id = p_user AND positions_mark = mark) THEN
    RETURN 0;
  END IF;

  -- 1a. The fill is there but opens no trade now (a fill before it was added): the trade holding it.
  WITH moved AS (
    SELECT DISTINCT ON (p.open_fill_id) l.fill_id AS old, p.open_fill_id AS new
    FROM strategy_legs l JOIN strategies s ON s.id = l.strategy_id JOIN accounts a ON a.id = s.account_id
    JOIN position_fills pf ON pf.fill_id = l.fill_id JOIN positions p ON p.id = pf.position_id
    WHERE a.user_id = p_user
      AND NOT EXISTS (SELECT 1 FROM positions q WHERE q.open_fill_id = l.fill_id)
      AND NOT EXISTS (SELECT 1 FROM strategy_legs o WHERE o.fill_id = p.open_fill_id)
    ORDER BY p.open_fill_id, l.executed_at
  )
  UPDATE strategy_legs l SET fill_id = f.id, symbol = f.symbol, side = f.side, quantity = f.quantity, price = f.price,
    executed_at = f.executed_at, execution_id = f.execution_id
  FROM moved m JOIN fills f ON f.id = m.new
  WHERE l.fill_id = m.old;

  -- 1b. The fill is gone: the same execution, come back, that opens a trade in no strategy.
  WITH lost AS (
    SELECT l.*, s.account_id FROM strategy_legs l JOIN strategies s ON s.id = l.strategy_id JOIN accounts a ON a.id = s.account_id
    WHERE a.user_id = p_user AND NOT EXISTS (SELECT 1 FROM fills f WHERE f.id = l.fill_id)
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

  -- 2. Trades in no strategy, options first and in time order, so each finds the strategy opened just before it.
  -- A stock trade is looked at only when an option of its underlying opened within the minute.
  FOR pos IN
    SELECT p.account_id, p.open_fill_id, p.asset_class, p.opened_at,
      CASE WHEN p.asset_class = 'option' THEN rtrim(left(p.symbol, 6)) ELSE p.symbol END AS underlying, f.order_id
    FROM positions p JOIN accounts a ON a.id = p.account_id JOIN fills f ON f.id = p.open_fill_id
    WHERE a.user_id = p_user AND p.asset_class IN ('option', 'stock')
      AND NOT EXISTS (SELECT 1 FROM strategy_legs l WHERE l.fill_id = p.open_fill_id)
      AND (p.asset_class = 'option' OR EXISTS (
        SELECT 1 FROM positions o WHERE o.account_id = p.account_id AND o.asset_class = 'option'
          AND rtrim(left(o.symbol, 6)) = p.symbol AND o.opened_at BETWEEN p.opened_at - interval '60 seconds' AND p.opened_at + interval '60 seconds')
        OR (f.order_id IS NOT NULL AND EXISTS (
          SELECT 1 FROM fills o WHERE o.account_id = p.account_id AND o.order_id = f.order_id AND o.asset_class = 'option')))
    ORDER BY p.asset_class = 'stock', p.account_id, 5, p.opened_at, p.open_fill_id
  LOOP
    target := NULL;
    IF pos.order_id IS NOT NULL THEN
      SELECT s.id INTO target FROM fills o JOIN strategy_legs l ON l.fill_id = o.id JOIN strategies s ON s.id = l.strategy_id
      WHERE o.account_id = pos.account_id AND o.order_id = pos.order_id AND s.underlying = pos.underlying AND s.source = 'auto'
      ORDER BY s.opened_at, s.id
      LIMIT 1;
    END IF;
    IF pos.order_id IS NULL THEN
      SELECT s.id INTO target FROM strategies s
      WHERE s.account_id = pos.account_id AND s.underlying = pos.underlying AND s.source = 'auto'
        AND s.opened_at BETWEEN pos.opened_at - interval '60 seconds' AND pos.opened_at + interval '60 seconds'
      ORDER BY abs(extract(epoch FROM s.opened_at - pos.opened_at)), s.opened_at, s.id
      LIMIT 1;
    END IF;
    IF target IS NULL THEN
      IF pos.asset_class = 'stock' THEN
        CONTINUE;
      END IF;
      INSERT INTO strategies (account_id, underlying, source, opened_at) VALUES (pos.account_id, pos.underlying, 'auto', pos.opened_at)
      RETURNING id INTO target;
    ELSIF pos.opened_at < (SELECT opened_at FROM strategies WHERE id = target) THEN
      UPDATE strategies SET opened_at = pos.opened_at WHERE id = target;
    END IF;
    INSERT INTO strategy_legs (strategy_id, fill_id, symbol, side, quantity, price, executed_at, execution_id)
    SELECT target, f.id, f.symbol, f.side, f.quantity, f.price, f.executed_at, f.execution_id FROM fills f WHERE f.id = pos.open_fill_id;
    added := added + 1;
  END LOOP;

  -- 3. Each strategy's times, from its live legs.
  UPDATE strategies s SET opened_at = t.opened_at, closed_at = t.closed_at
  FROM (
    SELECT s2.id, min(p.opened_at) AS opened_at,
      CASE WHEN count(p.id) > 0 AND bool_and(p.closed_at IS NOT NULL) THEN max(p.closed_at) END AS closed_at
    FROM strategies s2 JOIN accounts a ON a.id = s2.account_id
    LEFT JOIN strategy_legs l ON l.strategy_id = s2.id LEFT JOIN positions p ON p.open_fill_id = l.fill_id
    WHERE a.user_id = p_user
    GROUP BY s2.id
  ) t
  WHERE s.id = t.id AND (s.opened_at IS DISTINCT FROM t.opened_at OR s.closed_at IS DISTINCT FROM t.closed_at) AND t.opened_at IS NOT NULL;

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
    WHERE acc.user_id = p_user AND al.strategy_id <> bl.strategy_id
  ), candidates AS (
    SELECT DISTINCT ON (b.id) b.id AS b_id, a.id AS a_id
    FROM strategies b JOIN accounts acc ON acc.id = b.account_id
    JOIN strategies a ON a.account_id = b.account_id AND a.underlying = b.underlying AND a.id <> b.id
      AND a.closed_at IS NOT NULL AND a.opened_at < b.opened_at
      AND (b.opened_at BETWEEN a.closed_at - interval '60 seconds' AND a.closed_at + interval '60 seconds'
        OR (a.id, b.id) IN (SELECT a_id, b_id FROM by_order))
    WHERE acc.user_id = p_user AND b.roll_of_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM strategies r WHERE r.roll_of_id = a.id)
    ORDER BY b.id, abs(extract(epoch FROM b.opened_at - a.closed_at)), a.id
  ), one_each AS (
    SELECT DISTINCT ON (a_id) b_id, a_id FROM candidates ORDER BY a_id, b_id
  )
  UPDATE strategies s SET roll_of_id = o.a_id FROM one_each o WHERE s.id = o.b_id;

  -- 5. What nothing would bring back.
  DELETE FROM strategy_legs l USING strategies s, accounts a
  WHERE s.id = l.strategy_id AND a.id = s.account_id AND a.user_id = p_user
    AND NOT EXISTS (SELECT 1 FROM fills f WHERE f.id = l.fill_id)
    AND s.notes IS NULL AND cardinality(s.tags) = 0 AND s.setup IS NULL AND s.rating IS NULL AND s.planned_risk IS NULL;
  DELETE FROM strategies s USING accounts a
  WHERE a.id = s.account_id AND a.user_id = p_user
    AND NOT EXISTS (SELECT 1 FROM strategy_legs l WHERE l.strategy_id = s.id)
    AND s.notes IS NULL AND cardinality(s.tags) = 0 AND s.setup IS NULL AND s.rating IS NULL AND s.planned_risk IS NULL;

  INSERT INTO strategy_marks (user_id, positions_mark, settled_at) VALUES (p_user, mark, now())
  ON CONFLICT (user_id) DO UPDATE SET positions_mark = excluded.positions_mark, settled_at = excluded.settled_at;
  RETURN added;
END;
$$;
