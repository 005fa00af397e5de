-- import_apply(import, include_duplicates, staged): writes a claimed ('committing') import's staged fills
-- into its account: the fills, their ledger entries and the rebuilt positions of each symbol touched, then
-- marks the import committed. p_staged: the fills read from object storage by the caller (NULL means the
-- inline csv_imports.staged, or the preview's parts in csv_import_parts); each holds one array per fill (symbol, asset class, multiplier, side, quantity,
-- price, fees, executed_at, execution id, duplicate, true when the fees were estimated from the account's
-- fee schedule, and the stop and target the row gives its trade) or, staged by an older version, one object
-- per fill with the first ten. A row's stop and target go onto the trade its fill joins (import_apply_plans). Returns the number of fills written, or NULL when the import is not claimed.
-- Guarantees: exactly once (the row must be 'committing' and is locked; it leaves as 'committed'); a fill
-- whose execution id the account already has is skipped; so, unless duplicates are included, is one that
-- matches an existing fill on symbol, time to the second, side, quantity and price, unless both carry
-- (different) execution ids: the same executions imported from two formats, one with ids and one without,
-- are recognised. Futures fills' cash settles after the positions are rebuilt, so the ledger is renumbered
-- from the first futures fill (or the first backdated one). The journal's generated fills of the symbols
-- written (options' expiry closes) are dropped, so the file's expiration, assignment or exercise rows take
-- their place, and asked for again after (options_expire). Atomic: one statement for the caller. Locks the
-- import, then the account.

CREATE OR REPLACE FUNCTION import_apply(p_import uuid, p_include_duplicates boolean, p_staged jsonb DEFAULT NULL) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  imp csv_imports;
  written integer;
  first_at timestamptz;
  last_at timestamptz;
  last_day date;
  base_rank bigint;
  base_balance numeric;
  symbols text[];
  firsts timestamptz[];
  first_future_at timestamptz;
  renumber_from timestamptz;
  has_fills boolean;
  dropped timestamptz;
  plans jsonb;
  appended boolean;
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
  -- The entries, then each futures symbol's settlement: their days made right once, at the end.
  PERFORM ledger_batch_begin();
  SELECT occurred_at, day INTO last_at, last_day
  FROM ledger_entries WHERE account_id = imp.account_id ORDER BY occurred_at DESC, id DESC LIMIT 1;
  SELECT entries, total INTO base_rank, base_balance FROM ledger_days WHERE account_id = imp.account_id AND day = last_day;
  -- An account without fills (the usual first import) has nothing to match: the per-fill probes are skipped.
  has_fills := EXISTS (SELECT 1 FROM fills WHERE account_id = imp.account_id);

  WITH src AS (
    SELECT coalesce(p_staged, imp.staged) AS j
  ),
  elements AS (
    SELECT e FROM src, jsonb_array_elements(src.j) AS e
    UNION ALL
    -- A preview's parts (csv_import_parts), when the fills are neither passed nor inline.
    SELECT e FROM csv_import_parts p, jsonb_array_elements(p.fills) AS e
    WHERE p_staged IS NULL AND imp.staged IS NULL AND p.import_id = p_import
  ),
  staged AS (
    -- One array per fill, in lib/imports/imports.ts stagedJson's order (what a preview stages).
    SELECT e->>0 AS symbol, e->>1 AS asset_class, (e->>2)::numeric AS multiplier, e->>3 AS side, (e->>4)::numeric AS quantity,
      (e->>5)::numeric AS price, (e->>6)::numeric AS fees, (e->>7)::timestamptz AS executed_at, e->>8 AS execution_id,
      (e->>9)::boolean AS duplicate, coalesce((e->>10)::boolean, false) AS fees_estimated,
      (e->>11)::numeric AS stop_price, (e->>12)::numeric AS target_price, left(e->>13, 100) AS order_id,
      e->>14 AS notes, CASE WHEN jsonb_typeof(e->15) = 'array' THEN e->15 END AS tags
    FROM elements
    WHERE jsonb_typeof(e) = 'array'
    UNION ALL
    -- One object per fill: what previews staged before the arrays (still staged when the function changed).
    SELECT x.*, false, NULL::numeric, NULL::numeric, NULL::text, NULL::text, NULL::jsonb FROM src, jsonb_to_recordset(CASE WHEN jsonb_typeof(src.j->0) = 'object' THEN src.j ELSE '[]'::jsonb END) AS x(
      symbol text, asset_class text, multiplier numeric, side text, quantity numeric, price numeric, fees numeric,
      executed_at timestamptz, execution_id text, duplicate boolean)
  ),
  todo AS (
    SELECT gen_random_uuid() AS id, s.* FROM staged s
    WHERE (p_include_duplicates OR NOT coalesce(s.duplicate, false))
      AND (NOT has_fills OR NOT EXISTS (
        SELECT 1 FROM fills f
        WHERE f.account_id = imp.account_id AND s.execution_id IS NOT NULL AND f.execution_id = s.execution_id
      ))
      AND (NOT has_fills OR p_include_duplicates OR NOT EXISTS (
        SELECT 1 FROM fills f
        WHERE f.account_id = imp.account_id AND f.symbol = s.symbol
          AND f.executed_at >= date_trunc('second', s.executed_at) AND f.executed_at < date_trunc('second', s.executed_at) + interval '1 second'
          AND f.side = s.side AND f.quantity = s.quantity AND f.price = s.price
          AND (f.execution_id IS NULL OR s.execution_id IS NULL OR f.execution_id = s.execution_id)
      ))
  ),
  inserted AS (
    INSERT INTO fills (id, account_id, symbol, asset_class, multiplier, side, quantity, price, fees, fees_estimated, executed_at, execution_id, order_id, import_id)
    SELECT id, imp.account_id, symbol, asset_class, multiplier, side, quantity, price, fees, fees_estimated, executed_at, execution_id, order_id, p_import FROM todo
    RETURNING id, symbol, asset_class, side, quantity, price, multiplier, fees, executed_at
  ),
  -- A futures fill's realised P&L is known once its positions are rebuilt (below); until then it moves cash
  -- by its fees.
  entries AS (
    SELECT gen_random_uuid() AS entry_id, id, executed_at, fill_cash(asset_class, side, quantity, price, multiplier, fees, 0) AS amount
    FROM inserted
  ),
  -- When every new entry comes after the account's last one (the usual import into a fresh or current
  -- account) each entry's place and running sum in its day are computed here (the last day's count and
  -- total carried on), so the trigger that keeps the days (ledger_days_follow) finds them right and writes
  -- no entry twice.
  appending AS (SELECT last_at IS NULL OR min(executed_at) > last_at AS ok FROM entries),
  ledger AS (
    INSERT INTO ledger_entries (id, account_id, type, amount, occurred_at, fill_id, day_rank, day_balance)
    SELECT e.entry_id, imp.account_id, 'fill', e.amount, e.executed_at, e.id,
      CASE WHEN a.ok THEN (CASE WHEN e.day = last_day THEN coalesce(base_rank, 0) ELSE 0 END) + row_number() OVER w ELSE 0 END,
      CASE WHEN a.ok THEN (CASE WHEN e.day = last_day THEN coalesce(base_balance, 0) ELSE 0 END)
        + sum(e.amount) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) ELSE 0 END
    FROM (SELECT *, (executed_at AT TIME ZONE 'UTC')::date AS day FROM entries) e CROSS JOIN appending a
    WINDOW w AS (PARTITION BY e.day ORDER BY e.executed_at, e.entry_id)
    RETURNING 1
  ),
  plan AS (
    SELECT jsonb_agg(jsonb_build_array(id, stop_price, target_price, notes, tags)) AS j FROM todo
    WHERE stop_price IS NOT NULL OR target_price IS NOT NULL OR notes IS NOT NULL OR tags IS NOT NULL
  ),
  per_symbol AS (
    SELECT symbol, min(executed_at) AS first_at, bool_or(asset_class = 'future') AS future FROM inserted GROUP BY symbol
  )
  SELECT (SELECT count(*) FROM ledger), array_agg(symbol), array_agg(per_symbol.first_at), min(per_symbol.first_at),
    min(per_symbol.first_at) FILTER (WHERE per_symbol.future), (SELECT j FROM plan), (SELECT ok FROM appending)
  INTO written, symbols, firsts, first_at, first_future_at, plans, appended
  FROM per_symbol;
  -- Entries that only appended were written with their places in their days: their days are counted, not
  -- renumbered (what the trigger noted for them so far is done).
  IF appended THEN
    DELETE FROM ledger_days_pending WHERE account_id = imp.account_id;
    PERFORM ledger_days_recount(imp.account_id, coalesce(last_day, '-infinity'::date));
  END IF;

  IF written > 0 THEN
    IF has_fills THEN
      dropped := fills_drop_generated(imp.account_id, symbols);
      first_at := least(first_at, dropped);
    END IF;
    FOR i IN 1 .. array_length(symbols, 1) LOOP
      PERFORM positions_rebuild_from(imp.account_id, symbols[i], least(firsts[i], dropped));
    END LOOP;
    -- Notes of trades the new fills join follow them; detached notes whose fills came back re-attach.
    PERFORM journals_follow(imp.account_id, symbols);
    IF plans IS NOT NULL THEN
      PERFORM import_apply_plans(plans);
    END IF;
    renumber_from := CASE WHEN last_at IS NOT NULL AND first_at <= last_at THEN first_at END;
    IF first_future_at IS NOT NULL THEN
      renumber_from := least(renumber_from, first_future_at);
    END IF;
    renumber_from := least(renumber_from, dropped);
    IF renumber_from IS NOT NULL THEN
      PERFORM ledger_renumber(imp.account_id, renumber_from, '00000000-0000-0000-0000-000000000000'::uuid);
    END IF;
    PERFORM options_expire(imp.account_id, symbols, now());
  END IF;

  PERFORM ledger_batch_end();
  UPDATE csv_imports SET status = 'committed', committed_at = now(), fills_created = written, staged = NULL, staged_bytes = 0,
    staged_key = NULL, staged_parts = NULL
  WHERE id = p_import;
  DELETE FROM csv_import_parts WHERE import_id = p_import;
  RETURN written;
END;
$$;
--> statement-breakpoint
-- import_apply_plans(plans): [[fill id, stop, target, notes, tags], ...] of an import's rows that gave their
-- trade a plan (mapping.stopPrice / targetPrice) or what another journal held of it (mapping.notes / tags):
-- each trade holding one of those fills takes the stop, target and notes of its earliest such row where it
-- has none of its own (what the trader set stays), and the row's tags beside its own; a stop on the wrong
-- side of the trade's entry is not written. The caller holds the account row.
CREATE OR REPLACE FUNCTION import_apply_plans(p_plans jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  jid uuid;
  entry numeric;
  stop numeric;
BEGIN
  FOR r IN
    SELECT DISTINCT ON (pf.position_id) pf.position_id, p.direction, (x->>1)::numeric AS stop, (x->>2)::numeric AS target,
      x->>3 AS notes, CASE WHEN jsonb_typeof(x->4) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(x->4)) END AS tags
    FROM jsonb_array_elements(p_plans) AS x
    JOIN position_fills pf ON pf.fill_id = (x->>0)::uuid
    JOIN positions p ON p.id = pf.position_id
    ORDER BY pf.position_id, pf.executed_at, pf.fill_id
  LOOP
    entry := position_entry_price(r.position_id);
    stop := CASE WHEN (r.direction = 'long' AND r.stop < entry) OR (r.direction = 'short' AND r.stop > entry) THEN r.stop END;
    CONTINUE WHEN stop IS NULL AND r.target IS NULL AND r.notes IS NULL AND r.tags IS NULL;
    jid := trade_journal_ensure(r.position_id);
    UPDATE trade_journals SET stop_price = coalesce(stop_price, stop), target_price = coalesce(target_price, r.target),
      notes = coalesce(notes, r.notes),
      tags = CASE WHEN r.tags IS NULL THEN tags ELSE (tags || ARRAY(SELECT t FROM unnest(r.tags) AS t WHERE lower(t) <> ALL (SELECT lower(o) FROM unnest(tags) AS o)))[1:20] END,
      updated_at = now()
    WHERE id = jid;
  END LOOP;
END;
$$;
