-- trade_journal_ensure(position): the journal of a trade, made (empty, remembering the trade's fills) when it
-- has none. Returns its id. Locks: none of its own; callers hold the account row (FOR KEY SHARE at least,
-- which keeps rebuilds out); a racing first write of the same trade meets the unique position_id and reads
-- the winner's row.
CREATE OR REPLACE FUNCTION trade_journal_ensure(p_position uuid) RETURNS uuid
LANGUAGE plpgsql AS $$
DECLARE
  jid uuid;
BEGIN
  SELECT id INTO jid FROM trade_journals WHERE position_id = p_position;
  IF jid IS NOT NULL THEN
    RETURN jid;
  END IF;
  INSERT INTO trade_journals (account_id, position_id, last_position_id, symbol, direction, opened_at, closed_at, net_pnl, fill_count, entry_price)
  SELECT p.account_id, p.id, p.id, p.symbol, p.direction, p.opened_at, p.closed_at, p.net_pnl,
    (SELECT count(*) FROM position_fills pf WHERE pf.position_id = p.id), position_entry_price(p.id)
  FROM positions p WHERE p.id = p_position
  ON CONFLICT (position_id) DO NOTHING
  RETURNING id INTO jid;
  IF jid IS NULL THEN
    SELECT id INTO jid FROM trade_journals WHERE position_id = p_position;
    RETURN jid;
  END IF;
  INSERT INTO journal_fills (journal_id, fill_id, symbol, side, quantity, price, executed_at, execution_id)
  SELECT jid, f.id, f.symbol, f.side, f.quantity, f.price, date_trunc('second', f.executed_at), f.execution_id
  FROM position_fills pf JOIN fills f ON f.id = pf.fill_id WHERE pf.position_id = p_position;
  RETURN jid;
END;
$$;
