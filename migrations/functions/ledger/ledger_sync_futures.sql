-- ledger_sync_futures(account, symbol, from_at): sets the ledger entry of every futures fill of one symbol
-- of an account, executed at or after from_at, to fill_cash of the fill and the gross P&L its shares
-- realised. Called by the position rebuilds after they rewrite the shares: a futures fill's cash depends on
-- the position it meets, so changing an earlier fill can change the cash of later ones (never of earlier
-- ones, so a caller renumbering the ledger from its earliest changed fill covers every change).
-- Rows already right are not written. Locks: none of its own; callers hold the account row.
CREATE OR REPLACE FUNCTION ledger_sync_futures(p_account uuid, p_symbol text, p_from_at timestamptz) RETURNS void
LANGUAGE sql AS $$
  UPDATE ledger_entries e SET amount = x.amount
  FROM (
    SELECT f.id, fill_cash(f.asset_class, f.side, f.quantity, f.price, f.multiplier, f.fees, coalesce(r.realized, 0)) AS amount
    FROM fills f
    LEFT JOIN (
      SELECT pf.fill_id, sum(pf.realized) AS realized
      FROM position_fills pf JOIN positions p ON p.id = pf.position_id
      WHERE p.account_id = p_account AND p.symbol = p_symbol AND pf.executed_at >= p_from_at
      GROUP BY pf.fill_id
    ) r ON r.fill_id = f.id
    WHERE f.account_id = p_account AND f.symbol = p_symbol AND f.asset_class = 'future' AND f.executed_at >= p_from_at
  ) x
  -- By the fill alone (ledger_entries_fill_idx; the fills are the account's): with the account too, the
  -- planner read the account's whole ledger once per fill on a table whose statistics lagged.
  WHERE e.fill_id = x.id AND e.amount <> x.amount
$$;
