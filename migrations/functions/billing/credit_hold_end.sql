-- credit_hold_end(hold, charge, status): ends a hold. 'settled' charges least(charge, held) and releases the
-- rest; 'released' and 'expired' charge nothing and release it all. A hold that has already ended is left
-- as it is (idempotent by hold id: a second settle, or a settle after the expiry job, changes nothing).
-- Returns (status, charged, released) as the hold now stands.
-- Guarantees: a hold is charged at most once and never above what it held; the wallet never goes negative.
-- Atomic: one statement for the caller. Locks the hold row, then the wallet.
CREATE OR REPLACE FUNCTION credit_hold_end(p_hold uuid, p_charge bigint, p_status text)
RETURNS TABLE (status text, charged bigint, released bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  h credit_holds;
  cost bigint;
BEGIN
  SELECT * INTO h FROM credit_holds WHERE id = p_hold FOR UPDATE;
  IF h.id IS NULL THEN
    RETURN;
  END IF;
  IF h.status <> 'held' THEN
    RETURN QUERY SELECT h.status, h.charged, 0::bigint;
    RETURN;
  END IF;
  cost := CASE WHEN p_status = 'settled' THEN least(greatest(p_charge, 0), h.amount) ELSE 0 END;
  PERFORM wallet_lock(h.user_id);
  IF cost > 0 THEN
    PERFORM wallet_apply(h.user_id, 'charge', -cost, -cost, p_hold, NULL, NULL);
  END IF;
  IF h.amount - cost > 0 THEN
    PERFORM wallet_apply(h.user_id, 'release', 0, -(h.amount - cost), p_hold, NULL, CASE WHEN p_status = 'expired' THEN 'expired' END);
  END IF;
  UPDATE credit_holds SET status = p_status, charged = cost, ended_at = now() WHERE id = p_hold;
  RETURN QUERY SELECT p_status, cost, h.amount - cost;
END;
$$;
