-- ledger_renumber(account, from_at, from_id): the rank (1 = oldest, in (occurred_at, id) order) and the
-- running balance after each entry of an account, recomputed from a sort key onwards.
-- Guarantees: after it, every entry from the key on has rank = its position and balance_after = the sum of
-- the amounts up to and including it. Rows already right are not written (appending touches one row).
-- The opening entry stays the oldest (ledger_keep_opening_first): when the change reaches back before it,
-- it is moved first and the renumbering starts from its new place.
-- Locks: none of its own; every caller holds the account row FOR UPDATE, so no two renumber one ledger.

CREATE OR REPLACE FUNCTION ledger_renumber(p_account uuid, p_from_at timestamptz, p_from_id uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  base_rank bigint := 0;
  base_balance numeric := 0;
  moved_to timestamptz;
BEGIN
  moved_to := ledger_keep_opening_first(p_account, p_from_at, p_from_id);
  IF moved_to IS NOT NULL THEN
    p_from_at := moved_to;
    p_from_id := '00000000-0000-0000-0000-000000000000'::uuid;
  END IF;
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
