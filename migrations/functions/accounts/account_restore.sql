-- account_restore(user, data, cap): writes a whole-account JSON export (lib/archive/data-export.ts, format
-- version 1, already validated by its schema) into the user's data: brokerages (an existing one of the same
-- name is reused), accounts with their opening entry, manual ledger entries and fills (with their ledger
-- entries), trades rebuilt from the fills, then the trades' journals with their plans (matched by the fill
-- that opened them) and playbook answers, the option strategies grouped by hand or written on (their legs by the
-- fills that open them), each account's daily journal and trading rules, and the tags' kinds. The file's stock splits come first
-- (split_add, so the user's other accounts are rebuilt with them too); a split the user already has at that
-- instant is kept as it is. A playbook the user already has by name is reused, and gets the file's checklist
-- items it lacks (by item id, appended), so every imported answer keeps its question; the others are created
-- with their item ids.
-- Returns {accounts, fills, entries, journaled, ids}; ids are the new rows by the file's references (for
-- archive_restore): {accounts: [id in the file's order], fills: [{fill ref: id} per account], playbooks: {ref: id}}.
-- Guarantees: all or nothing; an account name the user already has raises ACCOUNT_EXISTS:<name> before
-- anything is written, and so does TIER_LIMIT_ACCOUNTS when the user would then have more than `cap` accounts
-- (NULL: no cap); the user row is locked first, so a racing create cannot slip in.
-- Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION account_restore(p_user uuid, p_data jsonb, p_cap integer) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  b jsonb;
  a jsonb;
  bid uuid;
  brokerage_ids jsonb := '{}'::jsonb;
  acct_id uuid;
  fill_ids jsonb;
  starting numeric;
  sym text;
  n_accounts integer := 0;
  n_fills integer := 0;
  n_entries integer := 0;
  n_journal integer := 0;
  written integer;
  taken text;
  jr record;
  jid uuid;
  sp record;
  st jsonb;
  sid uuid;
  pb jsonb;
  pid uuid;
  playbook_ids jsonb := '{}'::jsonb;
  account_ids jsonb := '[]'::jsonb;
  fill_maps jsonb := '[]'::jsonb;
BEGIN
  PERFORM 1 FROM users WHERE id = p_user FOR UPDATE;
  SELECT x->>'name' INTO taken
  FROM jsonb_array_elements(p_data->'accounts') x
  JOIN accounts existing ON existing.user_id = p_user AND lower(existing.name) = lower(x->>'name')
  LIMIT 1;
  IF taken IS NOT NULL THEN
    RAISE EXCEPTION 'ACCOUNT_EXISTS:%', taken USING ERRCODE = 'P0001';
  END IF;
  IF p_cap IS NOT NULL AND (SELECT count(*) FROM accounts WHERE user_id = p_user) + jsonb_array_length(p_data->'accounts') > p_cap THEN
    RAISE EXCEPTION 'TIER_LIMIT_ACCOUNTS' USING ERRCODE = 'P0001';
  END IF;
  -- Every account's entries, fills and settlements: their ledger days made right once, at the end.
  PERFORM ledger_batch_begin();

  FOR sp IN
    SELECT * FROM jsonb_to_recordset(coalesce(p_data->'splits', '[]'::jsonb)) AS x(symbol text, "effectiveAt" timestamptz, "newShares" numeric, "oldShares" numeric)
  LOOP
    IF NOT EXISTS (SELECT 1 FROM splits WHERE user_id = p_user AND symbol = sp.symbol AND effective_at = sp."effectiveAt") THEN
      PERFORM split_add(p_user, sp.symbol, sp."effectiveAt", sp."newShares", sp."oldShares");
    END IF;
  END LOOP;

  FOR b IN SELECT * FROM jsonb_array_elements(p_data->'brokerages') LOOP
    SELECT id INTO bid FROM brokerages WHERE user_id = p_user AND lower(name) = lower(b->>'name');
    IF bid IS NULL THEN
      INSERT INTO brokerages (user_id, name) VALUES (p_user, b->>'name') RETURNING id INTO bid;
    END IF;
    brokerage_ids := brokerage_ids || jsonb_build_object(b->>'ref', bid);
  END LOOP;

  -- Tag kinds: the user's own kind of a tag is kept.
  INSERT INTO tag_kinds (user_id, tag, kind)
  SELECT p_user, x.tag, x.kind FROM jsonb_to_recordset(coalesce(p_data->'tagKinds', '[]'::jsonb)) AS x(tag text, kind text)
  ON CONFLICT (user_id, tag) DO NOTHING;

  FOR pb IN SELECT * FROM jsonb_array_elements(coalesce(p_data->'playbooks', '[]'::jsonb)) LOOP
    SELECT id INTO pid FROM playbooks WHERE user_id = p_user AND lower(name) = lower(pb->>'name');
    IF pid IS NULL THEN
      INSERT INTO playbooks (user_id, name, description, entry_criteria, exit_criteria, items, archived_at)
      VALUES (p_user, pb->>'name', pb->>'description', pb->>'entryCriteria', pb->>'exitCriteria', pb->'items',
        CASE WHEN (pb->>'archived')::boolean THEN now() END)
      RETURNING id INTO pid;
    ELSE
      UPDATE playbooks b SET items = b.items || coalesce((SELECT jsonb_agg(i) FROM jsonb_array_elements(pb->'items') i
          WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(b.items) o WHERE o->>'id' = i->>'id')), '[]'::jsonb),
        updated_at = now()
      WHERE b.id = pid;
    END IF;
    playbook_ids := playbook_ids || jsonb_build_object(pb->>'ref', pid);
  END LOOP;

  FOR a IN SELECT * FROM jsonb_array_elements(p_data->'accounts') LOOP
    starting := (a->>'startingBalance')::numeric;
    -- clock_timestamp(): the accounts keep the file's order (lists are ordered by creation).
    INSERT INTO accounts (user_id, name, currency, starting_balance, timezone, brokerage_id, created_at, default_risk, fee_schedule, tax_status)
    VALUES (p_user, a->>'name', a->>'currency', starting, a->>'timezone', (brokerage_ids->>(a->>'brokerage'))::uuid, clock_timestamp(),
      (a->>'defaultRisk')::numeric, CASE WHEN jsonb_typeof(a->'feeSchedule') = 'object' THEN a->'feeSchedule' END,
      coalesce(a->>'taxStatus', 'taxable'))
    RETURNING id INTO acct_id;
    n_accounts := n_accounts + 1;
    IF starting <> 0 THEN
      INSERT INTO ledger_entries (account_id, type, amount, occurred_at)
      VALUES (acct_id, 'opening', starting, coalesce((a->>'startingBalanceAt')::timestamptz, now()));
    END IF;

    INSERT INTO ledger_entries (account_id, type, amount, occurred_at, note)
    SELECT acct_id, x.type, x.amount, x."occurredAt", x.note
    FROM jsonb_to_recordset(a->'ledger') AS x(type text, amount numeric, "occurredAt" timestamptz, note text);
    GET DIAGNOSTICS written = ROW_COUNT;
    n_entries := n_entries + written;

    -- The new id of each exported fill, by its reference in the file (journal entries name the opening fill).
    SELECT coalesce(jsonb_object_agg(x.ref, gen_random_uuid()), '{}'::jsonb) INTO fill_ids
    FROM jsonb_to_recordset(a->'fills') AS x(ref text);
    account_ids := account_ids || to_jsonb(acct_id);
    fill_maps := fill_maps || jsonb_build_array(fill_ids);

    INSERT INTO fills (id, account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at, execution_id, order_id, fees_estimated, generated)
    SELECT (fill_ids->>x.ref)::uuid, acct_id, x.symbol, x."assetClass", x.multiplier, x.side, x.quantity, x.price, x.fees, x."executedAt", x."executionId",
      x."orderId", coalesce(x."feesEstimated", false), x.generated
    FROM jsonb_to_recordset(a->'fills') AS x(ref text, symbol text, "assetClass" text, multiplier numeric, side text, quantity numeric,
      price numeric, fees numeric, "executedAt" timestamptz, "executionId" text, "orderId" text, "feesEstimated" boolean, generated text);
    GET DIAGNOSTICS written = ROW_COUNT;
    n_fills := n_fills + written;

    INSERT INTO ledger_entries (account_id, type, amount, occurred_at, fill_id)
    SELECT acct_id, 'fill', fill_cash(f.asset_class, f.side, f.quantity, f.price, f.multiplier, f.fees, 0), f.executed_at, f.id
    FROM fills f WHERE f.account_id = acct_id;

    FOR sym IN SELECT DISTINCT symbol FROM fills WHERE account_id = acct_id LOOP
      PERFORM positions_rebuild(acct_id, sym);
    END LOOP;
    PERFORM ledger_renumber(acct_id, '-infinity'::timestamptz, '00000000-0000-0000-0000-000000000000'::uuid);
    INSERT INTO option_expiry_kept (account_id, symbol)
    SELECT DISTINCT acct_id, k FROM jsonb_array_elements_text(coalesce(a->'expiryKept', '[]'::jsonb)) AS k;
    PERFORM options_expire(acct_id, NULL, now());

    FOR jr IN
      SELECT p.id AS position_id, j.notes, coalesce(j.tags, '{}') AS tags, j.setup, j.rating, j."stopPrice", j."targetPrice", j."plannedRisk",
        (playbook_ids->>j.playbook)::uuid AS playbook_id, coalesce(j."playbookAnswers", '{}'::jsonb) AS answers
      FROM jsonb_to_recordset(a->'journal') AS j("openFill" text, notes text, tags text[], setup text, rating smallint,
        "stopPrice" numeric, "targetPrice" numeric, "plannedRisk" numeric, playbook text, "playbookAnswers" jsonb)
      JOIN positions p ON p.account_id = acct_id AND p.open_fill_id = (fill_ids->>j."openFill")::uuid
    LOOP
      jid := trade_journal_ensure(jr.position_id);
      UPDATE trade_journals SET notes = jr.notes, tags = jr.tags, setup = jr.setup, rating = jr.rating,
        stop_price = jr."stopPrice", target_price = jr."targetPrice", planned_risk = jr."plannedRisk",
        playbook_id = jr.playbook_id, playbook_answers = jsonb_strip_nulls(jr.answers)
      WHERE id = jid;
      n_journal := n_journal + 1;
    END LOOP;

    -- Option strategies: what the settle would not make again by itself (the rest it groups when next read).
    FOR st IN SELECT * FROM jsonb_array_elements(coalesce(a->'strategies', '[]'::jsonb)) LOOP
      INSERT INTO strategies (account_id, underlying, source, notes, tags, setup, rating, planned_risk, playbook_id, opened_at)
      VALUES (acct_id, st->>'underlying', st->>'source', st->>'notes',
        coalesce(array(SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(st->'tags') = 'array' THEN st->'tags' ELSE '[]'::jsonb END)), '{}'),
        st->>'setup', (st->>'rating')::smallint, (st->>'plannedRisk')::numeric, (playbook_ids->>(st->>'playbook'))::uuid,
        (SELECT min(f.executed_at) FROM jsonb_array_elements_text(st->'legs') r JOIN fills f ON f.id = (fill_ids->>r)::uuid))
      RETURNING id INTO sid;
      INSERT INTO strategy_legs (strategy_id, fill_id, symbol, side, quantity, price, executed_at, execution_id)
      SELECT sid, f.id, f.symbol, f.side, f.quantity, f.price, f.executed_at, f.execution_id
      FROM jsonb_array_elements_text(st->'legs') r JOIN fills f ON f.id = (fill_ids->>r)::uuid
      ON CONFLICT (fill_id) DO NOTHING;
    END LOOP;

    INSERT INTO day_journals (account_id, day, plan, review, mood, tags)
    SELECT acct_id, d.day, d.plan, d.review, d.mood, coalesce(d.tags, '{}')
    FROM jsonb_to_recordset(coalesce(a->'days', '[]'::jsonb)) AS d(day date, plan text, review text, mood smallint, tags text[]);

    -- clock_timestamp(): the rules keep the file's order.
    INSERT INTO trading_rules (account_id, type, params, weight, enabled, created_at)
    SELECT acct_id, r.rule->>'type', r.rule, CASE r.weight WHEN 'critical' THEN 3 WHEN 'nice' THEN 1 ELSE 2 END, r.enabled, clock_timestamp()
    FROM jsonb_to_recordset(coalesce(a->'rules', '[]'::jsonb)) AS r(rule jsonb, weight text, enabled boolean);
  END LOOP;

  PERFORM ledger_batch_end();
  RETURN jsonb_build_object('accounts', n_accounts, 'fills', n_fills, 'entries', n_entries, 'journaled', n_journal,
    'ids', jsonb_build_object('accounts', account_ids, 'fills', fill_maps, 'playbooks', playbook_ids));
END;
$$;
