-- Ledger and account functions. Each is one statement for the caller (so it is atomic over every
-- transport, HTTP included) and locks the account (or user) row first; in READ COMMITTED every statement
-- inside a plpgsql function takes a fresh snapshot, so work done after the lock sees every change
-- committed before it.

-- Renumbers entries of an account from a sort key onwards: rank (1 = oldest, in (occurred_at, id)
-- order) and the running balance after each entry. Appending touches one row; a backdated entry touches
-- the entries after it.
CREATE OR REPLACE FUNCTION ledger_renumber(p_account uuid, p_from_at timestamptz, p_from_id uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  base_rank bigint := 0;
  base_balance numeric := 0;
BEGIN
  SELECT rank, balance_after INTO base_rank, base_balance
  FROM ledger_entries
  WHERE account_id = p_account AND (occurred_at, id) < (p_from_at, p_from_id)
  ORDER BY occurred_at DESC, id DESC
  LIMIT 1;
  base_rank := coalesce(base_rank, 0);
  base_balance := coalesce(base_balance, 0);

  UPDATE ledger_entries e
  SET rank = base_rank + s.rn, balance_after = base_balance + s.running
  FROM (
    SELECT id,
           row_number() OVER w AS rn,
           sum(amount) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running
    FROM ledger_entries
    WHERE account_id = p_account AND (occurred_at, id) >= (p_from_at, p_from_id)
    WINDOW w AS (ORDER BY occurred_at, id)
  ) s
  WHERE e.id = s.id AND (e.rank <> base_rank + s.rn OR e.balance_after <> base_balance + s.running);
END;
$$;
--> statement-breakpoint

-- Adds an entry to an account of the user. Returns the entry, or nothing when the account is not theirs.
CREATE OR REPLACE FUNCTION ledger_add(
  p_user uuid, p_account uuid, p_type text, p_amount numeric, p_occurred_at timestamptz, p_note text, p_fill_id uuid
) RETURNS SETOF ledger_entries
LANGUAGE plpgsql AS $$
DECLARE
  entry ledger_entries;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account AND user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO ledger_entries (account_id, type, amount, occurred_at, note, fill_id)
  VALUES (p_account, p_type, p_amount, p_occurred_at, p_note, p_fill_id)
  RETURNING * INTO entry;
  PERFORM ledger_renumber(p_account, entry.occurred_at, entry.id);
  RETURN QUERY SELECT * FROM ledger_entries WHERE id = entry.id;
END;
$$;
--> statement-breakpoint

-- Deletes a manual entry (deposit, withdrawal or adjustment) of an account of the user. Returns the
-- deleted entry's id, or nothing when there is no such manual entry for them.
CREATE OR REPLACE FUNCTION ledger_delete_manual(p_user uuid, p_account uuid, p_entry uuid) RETURNS SETOF uuid
LANGUAGE plpgsql AS $$
DECLARE
  gone ledger_entries;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account AND user_id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  DELETE FROM ledger_entries
  WHERE id = p_entry AND account_id = p_account AND type IN ('deposit', 'withdrawal', 'adjustment')
  RETURNING * INTO gone;
  IF gone.id IS NULL THEN
    RETURN;
  END IF;
  PERFORM ledger_renumber(p_account, gone.occurred_at, gone.id);
  RETURN NEXT gone.id;
END;
$$;
--> statement-breakpoint

-- Creates an account and its opening entry together. p_cap is the number of accounts the user may have
-- (NULL: no cap); the user row is locked so two racing creates cannot both pass the cap.
CREATE OR REPLACE FUNCTION account_create(
  p_user uuid, p_name text, p_currency text, p_starting numeric, p_timezone text, p_brokerage uuid, p_cap integer
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
    INSERT INTO ledger_entries (account_id, type, amount, occurred_at, rank, balance_after)
    VALUES (created.id, 'opening', p_starting, created.created_at, 1, p_starting);
  END IF;
  RETURN NEXT created;
END;
$$;
