-- import_undo(user, import): removes the fills a committed import of the user wrote, with their ledger
-- entries, renumbers the ledger and rebuilds positions from the first removed fill of each symbol (journals
-- follow what is left, or are kept as detached notes: never deleted), then
-- marks the import undone. Generated fills of those symbols (options' expiry closes) are dropped and asked
-- for again (options_expire). Returns the number of fills removed, or NULL when it is not theirs or not committed.
-- Atomic: one statement for the caller. Locks the account row, then the import row.

CREATE OR REPLACE FUNCTION import_undo(p_user uuid, p_import uuid) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  imp csv_imports;
  removed integer;
  first_at timestamptz;
  symbols text[];
  firsts timestamptz[];
  dropped timestamptz;
BEGIN
  SELECT * INTO imp FROM csv_imports WHERE id = p_import AND user_id = p_user;
  IF imp.id IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM accounts WHERE id = imp.account_id FOR UPDATE;
  SELECT * INTO imp FROM csv_imports WHERE id = p_import AND status = 'committed' FOR UPDATE;
  IF imp.id IS NULL THEN
    RETURN NULL;
  END IF;
  -- The entries removed, then each futures symbol's settlement: their days made right once, at the end.
  PERFORM ledger_batch_begin();
  SELECT array_agg(symbol), array_agg(at), min(at) INTO symbols, firsts, first_at
  FROM (SELECT symbol, min(executed_at) AS at FROM fills WHERE account_id = imp.account_id AND import_id = p_import GROUP BY symbol) s;
  -- Entries by their fills (ledger_entries_fill_idx), not by the account: a plan that reads the account's
  -- ledger per fill (a misjudged nested loop) made undoing 10,000 fills take 10 s.
  DELETE FROM ledger_entries WHERE fill_id IN (SELECT id FROM fills WHERE account_id = imp.account_id AND import_id = p_import);
  DELETE FROM fills WHERE account_id = imp.account_id AND import_id = p_import;
  GET DIAGNOSTICS removed = ROW_COUNT;
  IF removed > 0 THEN
    dropped := fills_drop_generated(imp.account_id, symbols);
    FOR i IN 1 .. array_length(symbols, 1) LOOP
      PERFORM positions_rebuild_from(imp.account_id, symbols[i], least(firsts[i], dropped));
    END LOOP;
    -- The notes of trades built from the removed fills follow what is left, or are kept detached.
    PERFORM journals_follow(imp.account_id, symbols);
    PERFORM ledger_renumber(imp.account_id, least(first_at, dropped), '00000000-0000-0000-0000-000000000000'::uuid);
    PERFORM options_expire(imp.account_id, symbols, now());
  END IF;
  PERFORM ledger_batch_end();
  UPDATE csv_imports SET status = 'undone', undone_at = now() WHERE id = p_import;
  RETURN removed;
END;
$$;
