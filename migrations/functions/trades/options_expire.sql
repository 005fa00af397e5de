-- Option expiry (docs/trading.md, "Option expiry and assignment"). An option position still open after its
-- expiry is closed at 0 by a fill the journal generates (fills.generated = 'expiry'). Such a fill is
-- provisional: any other change to the symbol's fills (a fill added, edited or deleted, an import or its undo)
-- drops it first (fills_drop_generated) and then asks again (options_expire), so the broker's own
-- expiration, assignment or exercise rows replace it. The trader may delete it: the option is then kept
-- open (option_expiry_kept, written by fill_delete) and never closed again by the journal.

-- option_expiry_at(symbol): when an OCC option symbol (root padded to 6, YYMMDD, C|P, strike) expires:
-- 16:00 New York on its date, the close of its last trading day. NULL for any other symbol.
CREATE OR REPLACE FUNCTION option_expiry_at(p_symbol text) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p_symbol ~ '^[A-Z0-9 ]{6}[0-9]{6}[CP][0-9]{8}$'
    THEN (to_date('20' || substr(p_symbol, 7, 6), 'YYYYMMDD') + time '16:00') AT TIME ZONE 'America/New_York' END;
$$;
--> statement-breakpoint
-- fills_drop_generated(account, symbols): deletes the generated fills of those symbols of the account with
-- their ledger entries; returns the earliest time removed (NULL: none). The caller holds the account row and
-- rebuilds the symbols from that time.
CREATE OR REPLACE FUNCTION fills_drop_generated(p_account uuid, p_symbols text[]) RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE
  first_at timestamptz;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM fills WHERE account_id = p_account AND symbol = ANY(p_symbols) AND generated IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  WITH gone AS (
    DELETE FROM fills WHERE account_id = p_account AND symbol = ANY(p_symbols) AND generated IS NOT NULL RETURNING id, executed_at
  ),
  entries AS (
    DELETE FROM ledger_entries l USING gone WHERE l.fill_id = gone.id RETURNING 1
  )
  SELECT min(gone.executed_at) INTO first_at FROM gone;
  RETURN first_at;
END;
$$;
--> statement-breakpoint
-- options_expire(account, symbols, now): closes each option position of the account (of `symbols`; NULL:
-- all) still open at `now` after its expiry with a generated fill: the other side, its open quantity, at 0
-- without fees, at the expiry instant. The positions are rebuilt, journals follow, the ledger is renumbered
-- (the fills move no cash). Skips options the trader keeps open and any with a fill after the expiry
-- instant (the broker's history says what happened then). Returns how many it closed.
-- Locks the account row first (a caller holding it loses nothing).
CREATE OR REPLACE FUNCTION options_expire(p_account uuid, p_symbols text[], p_now timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  pos record;
  added fills;
  n integer := 0;
  first_at timestamptz;
  syms text[] := '{}';
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account FOR UPDATE;
  FOR pos IN
    SELECT p.symbol, p.direction, p.open_quantity, p.multiplier, option_expiry_at(p.symbol) AS at
    FROM positions p
    WHERE p.account_id = p_account AND p.closed_at IS NULL AND p.asset_class = 'option'
      AND (p_symbols IS NULL OR p.symbol = ANY(p_symbols))
      AND option_expiry_at(p.symbol) <= p_now
      AND NOT EXISTS (SELECT 1 FROM option_expiry_kept k WHERE k.account_id = p_account AND k.symbol = p.symbol)
      AND NOT EXISTS (SELECT 1 FROM fills f WHERE f.account_id = p_account AND f.symbol = p.symbol AND f.executed_at > option_expiry_at(p.symbol))
    ORDER BY p.symbol
  LOOP
    INSERT INTO fills (account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at, generated)
    VALUES (p_account, pos.symbol, 'option', pos.multiplier, CASE WHEN pos.direction = 'long' THEN 'sell' ELSE 'buy' END,
      pos.open_quantity, 0, 0, pos.at, 'expiry')
    RETURNING * INTO added;
    INSERT INTO ledger_entries (account_id, type, amount, occurred_at, fill_id)
    VALUES (p_account, 'fill', fill_cash('option', added.side, added.quantity, 0, added.multiplier, 0, 0), pos.at, added.id);
    PERFORM positions_rebuild_from(p_account, pos.symbol, pos.at);
    first_at := least(first_at, pos.at);
    syms := syms || pos.symbol;
    n := n + 1;
  END LOOP;
  IF n > 0 THEN
    PERFORM journals_follow(p_account, syms);
    PERFORM ledger_renumber(p_account, first_at, '00000000-0000-0000-0000-000000000000'::uuid);
  END IF;
  RETURN n;
END;
$$;
--> statement-breakpoint
-- options_expire_due(now): the accounts holding an option position still open after its expiry (the
-- expire-options job then calls options_expire for each, one transaction per account).
CREATE OR REPLACE FUNCTION options_expire_due(p_now timestamptz) RETURNS SETOF uuid
LANGUAGE sql STABLE AS $$
  SELECT DISTINCT p.account_id FROM positions p
  WHERE p.closed_at IS NULL AND p.asset_class = 'option' AND option_expiry_at(p.symbol) <= p_now
    AND NOT EXISTS (SELECT 1 FROM option_expiry_kept k WHERE k.account_id = p.account_id AND k.symbol = p.symbol);
$$;
