-- strategy_group(user, trades, underlying): the trader groups these trades (positions of one account) into one
-- `manual` strategy (DESIGN.md section 11). Each leaves the strategy it was in; what was written on a strategy left
-- without a leg is carried onto the new one (notes appended, tags joined, the first setup, rating and planned risk
-- kept), so nothing written is lost, and that strategy goes. The caller has checked one account and one underlying.
-- Returns the new strategy's id; no row when a trade is not the user's. Locks the user's row (as strategies_settle).
CREATE OR REPLACE FUNCTION strategy_group(p_user uuid, p_trades uuid[], p_underlying text) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  acct uuid;
  made uuid;
  n integer;
  olds uuid[];
BEGIN
  PERFORM 1 FROM users WHERE id = p_user FOR UPDATE;
  SELECT min(p.account_id::text)::uuid, count(*) INTO acct, n FROM positions p JOIN accounts a ON a.id = p.account_id
  WHERE a.user_id = p_user AND p.id = ANY (p_trades);
  IF n IS DISTINCT FROM cardinality(p_trades) THEN
    RETURN;
  END IF;
  SELECT coalesce(array_agg(DISTINCT l.strategy_id), '{}') INTO olds
  FROM strategy_legs l JOIN positions p ON p.open_fill_id = l.fill_id WHERE p.id = ANY (p_trades);
  DELETE FROM strategy_legs l USING positions p WHERE p.id = ANY (p_trades) AND l.fill_id = p.open_fill_id;
  INSERT INTO strategies (account_id, underlying, source, opened_at, notes, tags, setup, rating, planned_risk)
  SELECT acct, p_underlying, 'manual', (SELECT min(p.opened_at) FROM positions p WHERE p.id = ANY (p_trades)),
    string_agg(e.notes, E'\n\n' ORDER BY e.opened_at, e.id),
    coalesce((SELECT array_agg(DISTINCT t ORDER BY t) FROM strategies x, unnest(x.tags) t
      WHERE x.id = ANY (olds) AND NOT EXISTS (SELECT 1 FROM strategy_legs l WHERE l.strategy_id = x.id)), '{}'),
    (array_agg(e.setup ORDER BY e.opened_at, e.id) FILTER (WHERE e.setup IS NOT NULL))[1],
    (array_agg(e.rating ORDER BY e.opened_at, e.id) FILTER (WHERE e.rating IS NOT NULL))[1],
    (array_agg(e.planned_risk ORDER BY e.opened_at, e.id) FILTER (WHERE e.planned_risk IS NOT NULL))[1]
  FROM (SELECT 1) one
  LEFT JOIN strategies e ON e.id = ANY (olds) AND NOT EXISTS (SELECT 1 FROM strategy_legs l WHERE l.strategy_id = e.id)
  RETURNING id INTO made;
  DELETE FROM strategies e WHERE e.id = ANY (olds) AND NOT EXISTS (SELECT 1 FROM strategy_legs l WHERE l.strategy_id = e.id);
  INSERT INTO strategy_legs (strategy_id, fill_id, symbol, side, quantity, price, executed_at, execution_id)
  SELECT made, f.id, f.symbol, f.side, f.quantity, f.price, f.executed_at, f.execution_id
  FROM positions p JOIN fills f ON f.id = p.open_fill_id WHERE p.id = ANY (p_trades);
  RETURN NEXT made;
END;
$$;
