-- account_date_opening(user, account, at): dates an account's opening entry (its starting balance) "as of"
-- a moment the user chooses, which must come before every other entry of the ledger (the opening entry stays
-- the oldest), then renumbers the ledger. Returns the new time; raises NO_OPENING_ENTRY (no starting
-- balance) or OPENING_AFTER_HISTORY; returns no row when the account is not the user's.
-- Atomic: one statement for the caller. Locks the account row first.
CREATE OR REPLACE FUNCTION account_date_opening(p_user uuid, p_account uuid, p_at timestamptz) RETURNS SETOF timestamptz
LANGUAGE plpgsql AS $$
DECLARE
  opening_id uuid;
  old_at timestamptz;
  first_at timestamptz;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account AND user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT id, occurred_at INTO opening_id, old_at FROM ledger_entries WHERE account_id = p_account AND type = 'opening';
  IF opening_id IS NULL THEN
    RAISE EXCEPTION 'NO_OPENING_ENTRY' USING ERRCODE = 'P0001';
  END IF;
  SELECT min(occurred_at) INTO first_at FROM ledger_entries WHERE account_id = p_account AND type <> 'opening';
  IF first_at IS NOT NULL AND p_at >= first_at THEN
    RAISE EXCEPTION 'OPENING_AFTER_HISTORY' USING ERRCODE = 'P0001', DETAIL = to_char(first_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  END IF;
  UPDATE ledger_entries SET occurred_at = p_at WHERE id = opening_id;
  PERFORM ledger_renumber(p_account, least(old_at, p_at), '00000000-0000-0000-0000-000000000000'::uuid);
  RETURN NEXT p_at;
END;
$$;
