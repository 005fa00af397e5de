-- strategy_ungroup(user, strategy): splits a strategy of the user back into one `manual` strategy per leg (a single
-- each, which no settle regroups); what was written on it goes onto the one of its first leg. Returns how many it
-- made; no row when the strategy is not the user's. Locks the user's row (as strategies_settle).
CREATE OR REPLACE FUNCTION strategy_ungroup(p_user uuid, p_strategy uuid) RETURNS SETOF integer
LANGUAGE plpgsql AS $$
DECLARE
  old strategies;
  leg record;
  made uuid;
  first boolean := true;
  n integer := 0;
BEGIN
  PERFORM 1 FROM users WHERE id = p_user FOR UPDATE;
  SELECT s.* INTO old FROM strategies s JOIN accounts a ON a.id = s.account_id WHERE s.id = p_strategy AND a.user_id = p_user;
  IF old.id IS NULL THEN
    RETURN;
  END IF;
  FOR leg IN
    SELECT l.*, p.opened_at FROM strategy_legs l LEFT JOIN positions p ON p.open_fill_id = l.fill_id
    WHERE l.strategy_id = old.id ORDER BY p.opened_at NULLS LAST, l.executed_at, l.fill_id
  LOOP
    INSERT INTO strategies (account_id, underlying, source, opened_at, notes, tags, setup, rating, planned_risk)
    VALUES (old.account_id, old.underlying, 'manual', leg.opened_at,
      CASE WHEN first THEN old.notes END, CASE WHEN first THEN old.tags ELSE '{}' END,
      CASE WHEN first THEN old.setup END, CASE WHEN first THEN old.rating END, CASE WHEN first THEN old.planned_risk END)
    RETURNING id INTO made;
    UPDATE strategy_legs SET strategy_id = made WHERE fill_id = leg.fill_id;
    first := false;
    n := n + 1;
  END LOOP;
  -- A strategy without a leg (its fills gone) keeps what was written on it.
  IF n > 0 THEN
    DELETE FROM strategies WHERE id = old.id;
  END IF;
  RETURN NEXT n;
END;
$$;
