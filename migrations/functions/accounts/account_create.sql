-- account_create(user, name, currency, starting, timezone, brokerage, cap, opening_at): creates an account
-- and, for a non-zero starting balance, its opening entry, together. The opening entry is dated opening_at
-- (the user's "balance as of"), or the account's creation when NULL.
-- Guarantees: the cap (NULL: none) holds under racing creates (the user row is locked first); a brokerage
-- of another user is refused (FORBIDDEN_BROKERAGE) and over the cap TIER_LIMIT_ACCOUNTS, both before any write.
-- Atomic: one statement for the caller.

CREATE OR REPLACE FUNCTION account_create(
  p_user uuid, p_name text, p_currency text, p_starting numeric, p_timezone text, p_brokerage uuid, p_cap integer,
  p_opening_at timestamptz DEFAULT NULL
) RETURNS SETOF accounts
LANGUAGE plpgsql AS $$
DECLARE
  created accounts;
BEGIN
  PERFORM 1 FROM users WHERE id = p_user FOR UPDATE;
  IF p_cap IS NOT NULL AND (SELECT count(*) FROM accounts WHERE user_id = p_user) >= p_cap THEN
    RAISE EXCEPTION 'TIER_LIMIT_ACCOUNTS' USING ERRCODE = 'P0001';
  END IF;
  IF p_brokerage IS NOT NULL AND NOT EXISTS (SELECT 1 FROM brokerages WHERE id = p_brokerage AND user_id = p_user) THEN
    RAISE EXCEPTION 'FORBIDDEN_BROKERAGE' USING ERRCODE = 'P0001';
  END IF;
  INSERT INTO accounts (user_id, name, currency, starting_balance, timezone, brokerage_id)
  VALUES (p_user, p_name, p_currency, p_starting, p_timezone, p_brokerage)
  RETURNING * INTO created;
  IF p_starting <> 0 THEN
    INSERT INTO ledger_entries (account_id, type, amount, occurred_at, day_rank, day_balance)
    VALUES (created.id, 'opening', p_starting, coalesce(p_opening_at, created.created_at), 1, p_starting);
  END IF;
  RETURN NEXT created;
END;
$$;
