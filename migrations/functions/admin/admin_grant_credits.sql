-- admin_grant_credits(actor, target, amount, reason): an administrator grants (amount > 0) or takes back
-- (amount < 0) credits, as a wallet movement of kind admin_grant (reference: the reason), and writes the
-- audit entry in this same statement.
-- Guarantees: a debit never takes the balance below the credits held for turns in progress, nor below zero
-- (INSUFFICIENT_CREDITS, nothing written); the actor must be an admin (FORBIDDEN).
-- Returns the movement; no row when the target does not exist. Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION admin_grant_credits(
  p_actor uuid, p_target uuid, p_amount bigint, p_reason text
) RETURNS SETOF wallet_movements
LANGUAGE plpgsql AS $$
DECLARE
  actor_email text;
  target_email text;
  w wallets;
  m wallet_movements;
BEGIN
  actor_email := admin_actor(p_actor);
  SELECT email INTO target_email FROM users WHERE id = p_target;
  IF target_email IS NULL THEN
    RETURN;
  END IF;
  w := wallet_lock(p_target);
  IF w.balance - w.reserved + p_amount < 0 THEN
    RAISE EXCEPTION 'INSUFFICIENT_CREDITS' USING ERRCODE = 'P0001', DETAIL = (w.balance - w.reserved)::text;
  END IF;
  m := wallet_apply(p_target, 'admin_grant', p_amount, 0, NULL, p_reason, 'admin: ' || actor_email);
  INSERT INTO admin_audit (actor_id, actor_email, action, target_user_id, target_email, reason, details, at)
  VALUES (p_actor, actor_email, 'credit_grant', p_target, target_email, p_reason,
          jsonb_build_object('amount', p_amount, 'balanceAfter', m.balance_after, 'movementId', m.id), clock_timestamp());
  RETURN NEXT m;
END;
$$;
