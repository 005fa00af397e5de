-- split_factor(account, symbol, at): what one share of a fill executed at `at` is in today's shares, as the pair
-- {new, old}: the products of the new_shares and of the old_shares of the account's user's splits of the
-- symbol effective after it ({1, 1} without any). The position rebuilds read a fill's quantity as
-- quantity x new / old and its price as price x old / new, each rounded to 10 decimals, so fills on both sides
-- of a split meet in the same shares (a 1-for-3 split stays exact: 300 shares are 100); cash is never read so.
CREATE OR REPLACE FUNCTION split_factor(p_account uuid, p_symbol text, p_at timestamptz) RETURNS numeric[]
LANGUAGE plpgsql STABLE AS $$
DECLARE
  n numeric := 1;
  o numeric := 1;
  s record;
BEGIN
  FOR s IN
    SELECT sp.new_shares, sp.old_shares FROM splits sp JOIN accounts a ON a.user_id = sp.user_id
    WHERE a.id = p_account AND sp.symbol = p_symbol AND sp.effective_at > p_at
  LOOP
    n := n * s.new_shares;
    o := o * s.old_shares;
  END LOOP;
  RETURN ARRAY[n, o];
END;
$$;
--> statement-breakpoint
-- split_quantity / split_price(value, factor): a fill's quantity and price in today's shares (see split_factor).
CREATE OR REPLACE FUNCTION split_quantity(p_quantity numeric, p_factor numeric[]) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_factor[1] = p_factor[2] THEN p_quantity ELSE round(p_quantity * p_factor[1] / p_factor[2], 10) END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION split_price(p_price numeric, p_factor numeric[]) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_factor[1] = p_factor[2] THEN p_price ELSE round(p_price * p_factor[2] / p_factor[1], 10) END;
$$;
--> statement-breakpoint
-- account_has_splits(account, symbol): whether any split of the symbol applies to the account (the rebuilds
-- skip the per-fill factor when none does).
CREATE OR REPLACE FUNCTION account_has_splits(p_account uuid, p_symbol text) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM splits s JOIN accounts a ON a.user_id = s.user_id WHERE a.id = p_account AND s.symbol = p_symbol);
$$;
