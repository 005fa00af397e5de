-- wallet_lock(user): the user's wallet, created if missing, locked FOR UPDATE for the rest of the
-- transaction. Whatever reads a balance to decide an amount calls this first, so two such decisions on one
-- wallet never interleave (concurrent holds never over-commit it).
CREATE OR REPLACE FUNCTION wallet_lock(p_user uuid) RETURNS wallets
LANGUAGE plpgsql AS $$
DECLARE
  w wallets;
BEGIN
  INSERT INTO wallets (user_id) VALUES (p_user) ON CONFLICT (user_id) DO NOTHING;
  SELECT * INTO w FROM wallets WHERE user_id = p_user FOR UPDATE;
  RETURN w;
END;
$$;
