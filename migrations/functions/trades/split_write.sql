-- split_add(user, symbol, effective_at, new_shares, old_shares) / split_delete(user, split): the trader records a stock split of
-- a symbol (or removes one); every account of theirs holding fills of it has the symbol's positions rebuilt
-- in post-split shares (positions_rebuild reads split_factor) and its journals follow (journals_follow).
-- The ledger is untouched: a split moves no cash. split_add returns the split (a split of the symbol at
-- that instant already recorded: unique violation); split_delete its symbol, or NULL when it is not theirs.
-- A stop or target written on a trade opened before the split is in the prices its page showed then: it is
-- converted with the split (price x old / new, 10 decimals) and back when the split is removed
-- (split_convert_plans), so it stays on the side of the entry it was on; a planned risk is money and stays.
-- Locks the user's accounts holding the symbol, in id order, as every writer of fills does one at a time.
-- Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION split_rebuild(p_user uuid, p_symbol text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  acct uuid;
BEGIN
  FOR acct IN
    SELECT a.id FROM accounts a WHERE a.user_id = p_user AND EXISTS (SELECT 1 FROM fills f WHERE f.account_id = a.id AND f.symbol = p_symbol)
    ORDER BY a.id
  LOOP
    PERFORM 1 FROM accounts WHERE id = acct FOR UPDATE;
    PERFORM positions_rebuild(acct, p_symbol);
    PERFORM journals_follow(acct, ARRAY[p_symbol]);
  END LOOP;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION split_convert_plans(p_user uuid, p_symbol text, p_at timestamptz, p_factor numeric[]) RETURNS void
LANGUAGE sql AS $$
  UPDATE trade_journals j
  SET stop_price = split_price(j.stop_price, p_factor), target_price = split_price(j.target_price, p_factor)
  FROM positions p JOIN accounts a ON a.id = p.account_id
  WHERE j.position_id = p.id AND a.user_id = p_user AND p.symbol = p_symbol AND p.opened_at < p_at
    AND (j.stop_price IS NOT NULL OR j.target_price IS NOT NULL);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION split_add(p_user uuid, p_symbol text, p_effective_at timestamptz, p_new numeric, p_old numeric) RETURNS splits
LANGUAGE plpgsql AS $$
DECLARE
  added splits;
BEGIN
  PERFORM 1 FROM accounts a WHERE a.user_id = p_user AND EXISTS (SELECT 1 FROM fills f WHERE f.account_id = a.id AND f.symbol = p_symbol)
    ORDER BY a.id FOR UPDATE;
  INSERT INTO splits (user_id, symbol, effective_at, new_shares, old_shares) VALUES (p_user, p_symbol, p_effective_at, p_new, p_old) RETURNING * INTO added;
  PERFORM split_convert_plans(p_user, p_symbol, p_effective_at, ARRAY[p_new, p_old]);
  PERFORM split_rebuild(p_user, p_symbol);
  RETURN added;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION split_delete(p_user uuid, p_split uuid) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  gone splits;
BEGIN
  DELETE FROM splits WHERE id = p_split AND user_id = p_user RETURNING * INTO gone;
  IF gone.id IS NOT NULL THEN
    PERFORM 1 FROM accounts a WHERE a.user_id = p_user AND EXISTS (SELECT 1 FROM fills f WHERE f.account_id = a.id AND f.symbol = gone.symbol)
      ORDER BY a.id FOR UPDATE;
    PERFORM split_convert_plans(p_user, gone.symbol, gone.effective_at, ARRAY[gone.old_shares, gone.new_shares]);
    PERFORM split_rebuild(p_user, gone.symbol);
  END IF;
  RETURN gone.symbol;
END;
$$;
