-- ledger_keep_opening_first(account, from_at, from_id): keeps an account's opening entry (its starting
-- balance) the oldest entry of its ledger. Called before renumbering from a changed point: when older
-- history has arrived (an entry sorting before the opening one), the opening entry moves to the start of
-- that entry's day in the account's time zone (or just before it, when the entry is at midnight), and the
-- new time is returned so the caller renumbers from there. NULL when nothing moved (the usual case: one
-- index probe when the change is after the opening entry).
-- Locks: none of its own; callers hold the account row.
CREATE OR REPLACE FUNCTION ledger_keep_opening_first(p_account uuid, p_from_at timestamptz, p_from_id uuid) RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE
  opening ledger_entries;
  first_at timestamptz;
  first_id uuid;
  zone text;
  moved timestamptz;
BEGIN
  SELECT * INTO opening FROM ledger_entries WHERE account_id = p_account AND type = 'opening';
  IF opening.id IS NULL OR (p_from_at, p_from_id) > (opening.occurred_at, opening.id) THEN
    RETURN NULL;
  END IF;
  SELECT occurred_at, id INTO first_at, first_id FROM ledger_entries
  WHERE account_id = p_account AND type <> 'opening' ORDER BY occurred_at, id LIMIT 1;
  IF first_id IS NULL OR (first_at, first_id) > (opening.occurred_at, opening.id) THEN
    RETURN NULL;
  END IF;
  SELECT timezone INTO zone FROM accounts WHERE id = p_account;
  moved := date_trunc('day', first_at AT TIME ZONE zone) AT TIME ZONE zone;
  IF moved >= first_at THEN
    moved := first_at - interval '1 microsecond';
  END IF;
  UPDATE ledger_entries SET occurred_at = moved WHERE id = opening.id;
  RETURN moved;
END;
$$;
