-- trade_one_r(planned risk, entry, stop, largest size, multiplier, account's default risk): a trade's 1R in
-- money (DESIGN.md section 10, "Risk and R"; lib/risk.ts): the planned risk when set, else
-- |entry - stop| x the largest size the trade held x the multiplier, else the account's default risk, else
-- null. The one definition, read by the trades, the statistics (and their maintained rows) and the advisor;
-- a plain SQL expression the planner inlines.
CREATE OR REPLACE FUNCTION trade_one_r(p_planned_risk numeric, p_entry numeric, p_stop numeric, p_max_quantity numeric,
  p_multiplier numeric, p_default_risk numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(p_planned_risk, abs(p_entry - p_stop) * p_max_quantity * p_multiplier, p_default_risk)
$$;
