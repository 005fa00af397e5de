-- position_entry_price(position): a trade's entry, the average price of its opening fills: those before its
-- first reducing fill, in the replay's order (DESIGN.md section 10, "Risk and R"), rounded to 10 decimals.
-- NULL for a position without fill shares. Prices before a stock split are in post-split terms, as the shares.
CREATE OR REPLACE FUNCTION position_entry_price(p_position uuid) RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT round(sum(l.quantity * l.price) / nullif(sum(l.quantity), 0), 10)
  FROM (
    SELECT pf.quantity,
      CASE WHEN account_has_splits(f.account_id, f.symbol) THEN split_price(f.price, split_factor(f.account_id, f.symbol, f.executed_at)) ELSE f.price END AS price,
      bool_and(pf.role IN ('open', 'add')) OVER (ORDER BY pf.executed_at, pf.fill_id ROWS UNBOUNDED PRECEDING) AS opening
    FROM position_fills pf JOIN fills f ON f.id = pf.fill_id
    WHERE pf.position_id = p_position
  ) l
  WHERE l.opening;
$$;
