-- wallet_apply(user, kind, amount, reserved_change, hold, reference, note): changes a user's wallet by
-- `amount` (balance) and `reserved_change` (reserved credits) and appends the movement that says so, with
-- the values after it. The one writer of wallets and wallet_movements: every credit movement goes through it.
-- Guarantees: balance >= 0 and 0 <= reserved <= balance (the table's checks refuse anything else, so a
-- caller's mistake fails the whole statement instead of going negative). Creates the wallet on first use.
-- Locks: the wallet row (callers that decide amounts from the wallet lock it first, and this re-lock is free).
CREATE OR REPLACE FUNCTION wallet_apply(
  p_user uuid, p_kind text, p_amount bigint, p_reserved bigint, p_hold uuid, p_reference text, p_note text
) RETURNS wallet_movements
LANGUAGE plpgsql AS $$
DECLARE
  w wallets;
  m wallet_movements;
BEGIN
  INSERT INTO wallets (user_id) VALUES (p_user) ON CONFLICT (user_id) DO NOTHING;
  UPDATE wallets SET balance = balance + p_amount, reserved = reserved + p_reserved, updated_at = now()
  WHERE user_id = p_user
  RETURNING * INTO w;
  INSERT INTO wallet_movements (user_id, kind, amount, reserved_change, balance_after, reserved_after, hold_id, reference, note)
  VALUES (p_user, p_kind, p_amount, p_reserved, w.balance, w.reserved, p_hold, p_reference, p_note)
  RETURNING * INTO m;
  RETURN m;
END;
$$;
