-- fill_cash(asset_class, side, quantity, price, multiplier, fees, realized): the cash effect of one fill on
-- its account's ledger (DESIGN.md section 9, "Money rules"). Fees always reduce cash.
-- - stock and option: the notional changes hands, buys spend and sells receive price x quantity x multiplier
--   (an option's premium per share x contracts x its multiplier);
-- - future: no notional changes hands; cash moves by the fees and, when the fill reduces or closes a
--   position, by the gross P&L it realises (`realized`, from the fill's shares: positions_rebuild).
-- Pure (immutable); the one definition every writer of fill entries uses.
CREATE OR REPLACE FUNCTION fill_cash(
  p_asset_class text, p_side text, p_quantity numeric, p_price numeric, p_multiplier numeric, p_fees numeric, p_realized numeric
) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_asset_class = 'future' THEN p_realized
              ELSE (CASE WHEN p_side = 'sell' THEN 1 ELSE -1 END) * p_quantity * p_price * p_multiplier END
         - p_fees
$$;
