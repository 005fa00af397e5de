-- credit_hold_place(hold, user, wanted, minimum, expires_at): sets credits aside for one advisor turn.
-- Refused (status 'insufficient', nothing written) when the wallet's available credits (balance - reserved)
-- are below `minimum`; otherwise holds least(wanted, available). Idempotent by hold id: placing a hold that
-- exists answers it as it stands. Returns (status, amount held, available after).
-- Guarantees: the sum of a wallet's holds never exceeds its balance, whatever the concurrency.
-- Atomic: one statement for the caller. Locks the wallet row first.
CREATE OR REPLACE FUNCTION credit_hold_place(p_hold uuid, p_user uuid, p_wanted bigint, p_min bigint, p_expires timestamptz)
RETURNS TABLE (status text, amount bigint, available bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  w wallets;
  h credit_holds;
  take bigint;
BEGIN
  w := wallet_lock(p_user);
  SELECT * INTO h FROM credit_holds WHERE id = p_hold;
  IF h.id IS NOT NULL THEN
    IF h.user_id <> p_user THEN
      RAISE EXCEPTION 'hold % belongs to another user', p_hold USING ERRCODE = 'P0001';
    END IF;
    RETURN QUERY SELECT h.status, h.amount, w.balance - w.reserved;
    RETURN;
  END IF;
  IF w.balance - w.reserved < p_min THEN
    RETURN QUERY SELECT 'insufficient'::text, 0::bigint, w.balance - w.reserved;
    RETURN;
  END IF;
  take := least(greatest(p_wanted, 0), w.balance - w.reserved);
  INSERT INTO credit_holds (id, user_id, amount, expires_at) VALUES (p_hold, p_user, take, p_expires);
  PERFORM wallet_apply(p_user, 'hold', 0, take, p_hold, NULL, NULL);
  RETURN QUERY SELECT 'held'::text, take, w.balance - w.reserved - take;
END;
$$;
