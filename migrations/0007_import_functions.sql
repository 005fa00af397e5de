-- Applying and undoing a CSV import. The claim (staged -> committing) is a statement of its own, run by
-- the caller; import_apply then writes every fill, its ledger entry and the rebuilt positions in one
-- statement, so a commit is all-or-nothing and an interrupted one leaves only the claimed row (removed
-- by the recovery job after CSV_IMPORT_CLAIM_TIMEOUT_SECONDS).

-- Writes the staged fills of a claimed import, skipping fills already in the account (same broker
-- execution id; or, without one, same symbol, time, side, quantity and price) unless p_include_duplicates.
-- Returns the number of fills written, or NULL when the import is not in the committing state.
CREATE OR REPLACE FUNCTION import_apply(p_import uuid, p_include_duplicates boolean) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  imp csv_imports;
  written integer;
  first_at timestamptz;
  sym text;
BEGIN
  SELECT * INTO imp FROM csv_imports WHERE id = p_import AND status = 'committing' FOR UPDATE;
  IF imp.id IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM accounts WHERE id = imp.account_id FOR UPDATE;

  WITH staged AS (
    SELECT * FROM jsonb_to_recordset(imp.staged) AS x(
      symbol text, asset_class text, multiplier numeric, side text, quantity numeric, price numeric, fees numeric,
      executed_at timestamptz, execution_id text, duplicate boolean)
  ),
  todo AS (
    SELECT s.* FROM staged s
    WHERE (p_include_duplicates OR NOT coalesce(s.duplicate, false))
      AND NOT EXISTS (
        SELECT 1 FROM fills f
        WHERE f.account_id = imp.account_id AND s.execution_id IS NOT NULL AND f.execution_id = s.execution_id
      )
      AND (p_include_duplicates OR s.execution_id IS NOT NULL OR NOT EXISTS (
        SELECT 1 FROM fills f
        WHERE f.account_id = imp.account_id AND f.symbol = s.symbol AND f.executed_at = s.executed_at
          AND f.side = s.side AND f.quantity = s.quantity AND f.price = s.price
      ))
  ),
  inserted AS (
    INSERT INTO fills (account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at, execution_id, import_id)
    SELECT imp.account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at, execution_id, p_import FROM todo
    RETURNING id, side, quantity, price, multiplier, fees, executed_at
  )
  INSERT INTO ledger_entries (account_id, type, amount, occurred_at, fill_id)
  SELECT imp.account_id, 'fill', fill_cash(side, quantity, price, multiplier, fees), executed_at, id FROM inserted;
  GET DIAGNOSTICS written = ROW_COUNT;

  IF written > 0 THEN
    SELECT min(executed_at) INTO first_at FROM fills WHERE import_id = p_import;
    PERFORM ledger_renumber(imp.account_id, first_at, '00000000-0000-0000-0000-000000000000'::uuid);
    FOR sym IN SELECT DISTINCT symbol FROM fills WHERE import_id = p_import LOOP
      PERFORM positions_rebuild(imp.account_id, sym);
    END LOOP;
  END IF;

  UPDATE csv_imports SET status = 'committed', committed_at = now(), fills_created = written, staged = NULL, staged_bytes = 0
  WHERE id = p_import;
  RETURN written;
END;
$$;
--> statement-breakpoint

-- Removes exactly the fills (and their ledger entries) of a committed import of the user, and rebuilds the
-- affected positions. Returns the number of fills removed, or NULL when there is no such committed import.
CREATE OR REPLACE FUNCTION import_undo(p_user uuid, p_import uuid) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  imp csv_imports;
  removed integer;
  first_at timestamptz;
  syms text[];
  sym text;
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
  SELECT min(executed_at), array_agg(DISTINCT symbol) INTO first_at, syms FROM fills WHERE import_id = p_import;
  DELETE FROM ledger_entries WHERE account_id = imp.account_id AND fill_id IN (SELECT id FROM fills WHERE import_id = p_import);
  DELETE FROM fills WHERE import_id = p_import;
  GET DIAGNOSTICS removed = ROW_COUNT;
  IF removed > 0 THEN
    PERFORM ledger_renumber(imp.account_id, first_at, '00000000-0000-0000-0000-000000000000'::uuid);
    FOREACH sym IN ARRAY syms LOOP
      PERFORM positions_rebuild(imp.account_id, sym);
    END LOOP;
  END IF;
  UPDATE csv_imports SET status = 'undone', undone_at = now() WHERE id = p_import;
  RETURN removed;
END;
$$;
