-- Object storage staging: with the four OBJECT_STORAGE_ variables set, a preview's fills live in an object
-- (csv_imports.staged_key) instead of csv_imports.staged. object_deletions queues keys whose object is no
-- longer needed; a trigger fills it whenever a row stops pointing at its object, so no path that removes
-- rows (discard, purge, recovery, a cascade from a deleted account or user) can orphan an object.
CREATE TABLE "object_deletions" (
	"key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "csv_imports" ADD COLUMN "staged_key" text;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION csv_imports_queue_object_deletion() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.staged_key IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.staged_key IS DISTINCT FROM OLD.staged_key) THEN
    INSERT INTO object_deletions (key) VALUES (OLD.staged_key) ON CONFLICT (key) DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER csv_imports_queue_object_deletion AFTER DELETE OR UPDATE OF staged_key ON csv_imports
FOR EACH ROW EXECUTE FUNCTION csv_imports_queue_object_deletion();
--> statement-breakpoint
-- import_apply as in 0009, plus p_staged: the fills read from object storage by the caller (NULL means the
-- inline csv_imports.staged). The committed row also lets go of its object (staged_key = NULL queues it).
-- The two-argument version is dropped so a call with two arguments is not ambiguous.
DROP FUNCTION IF EXISTS import_apply(uuid, boolean);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION import_apply(p_import uuid, p_include_duplicates boolean, p_staged jsonb DEFAULT NULL) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  imp csv_imports;
  written integer;
  first_at timestamptz;
  last_at timestamptz;
  base_rank bigint;
  base_balance numeric;
  sym text;
BEGIN
  SELECT * INTO imp FROM csv_imports WHERE id = p_import AND status = 'committing' FOR UPDATE;
  IF imp.id IS NULL THEN
    RETURN NULL;
  END IF;
  -- Committing an object-staged import without its fills would silently write nothing.
  IF p_staged IS NULL AND imp.staged_key IS NOT NULL THEN
    RAISE EXCEPTION 'import % is staged in object storage; pass its fills', p_import;
  END IF;
  PERFORM 1 FROM accounts WHERE id = imp.account_id FOR UPDATE;
  SELECT rank, balance_after, occurred_at INTO base_rank, base_balance, last_at
  FROM ledger_entries WHERE account_id = imp.account_id ORDER BY rank DESC LIMIT 1;

  WITH staged AS (
    SELECT * FROM jsonb_to_recordset(coalesce(p_staged, imp.staged)) AS x(
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
  ),
  entries AS (
    SELECT gen_random_uuid() AS entry_id, id, executed_at, fill_cash(side, quantity, price, multiplier, fees) AS amount FROM inserted
  ),
  -- When every new entry comes after the account's last one (the usual import into a fresh or current
  -- account) the rank and running balance are computed here and no renumbering pass is needed.
  appending AS (SELECT last_at IS NULL OR min(executed_at) > last_at AS ok FROM entries)
  INSERT INTO ledger_entries (id, account_id, type, amount, occurred_at, fill_id, rank, balance_after)
  SELECT e.entry_id, imp.account_id, 'fill', e.amount, e.executed_at, e.id,
    CASE WHEN a.ok THEN coalesce(base_rank, 0) + row_number() OVER w ELSE 0 END,
    CASE WHEN a.ok THEN coalesce(base_balance, 0) + sum(e.amount) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) ELSE 0 END
  FROM entries e CROSS JOIN appending a
  WINDOW w AS (ORDER BY e.executed_at, e.entry_id);
  GET DIAGNOSTICS written = ROW_COUNT;

  IF written > 0 THEN
    SELECT min(executed_at) INTO first_at FROM fills WHERE import_id = p_import;
    IF last_at IS NOT NULL AND first_at <= last_at THEN
      PERFORM ledger_renumber(imp.account_id, first_at, '00000000-0000-0000-0000-000000000000'::uuid);
    END IF;
    FOR sym IN SELECT DISTINCT symbol FROM fills WHERE import_id = p_import LOOP
      PERFORM positions_rebuild(imp.account_id, sym);
    END LOOP;
  END IF;

  UPDATE csv_imports SET status = 'committed', committed_at = now(), fills_created = written, staged = NULL, staged_bytes = 0,
    staged_key = NULL
  WHERE id = p_import;
  RETURN written;
END;
$$;
