-- archive_restore(user, data, cap, restore, extras): writes a complete archive (lib/archive/restore.ts, checked
-- there first) into the user's data: journal.json through account_restore (same refusals), then, by the ids it
-- returns, the detached notes, the images staged under `restore` in archive_restore_images (each becomes the
-- trade_images row of the same id, on its trade, playbook, day or detached note), the advisor conversations
-- with their messages, the import history, each import holding again the fills it wrote (so it can still
-- be undone), and the bars the trader uploaded (bars_store, as their upload). `extras` is {detachedNotes,
-- screenshots, conversations, imports} as the archive holds them, and bars: [{symbol, resolution, bars, days}]
-- as bars_store takes them, comments (comments.json), and settings: {baseCurrency, privacyMode, digest, fxOverrides} (settings.json). Returns account_restore's counts (without its ids) and {screenshots, detachedNotes,
-- conversations, imports, bars, comments}.
-- Guarantees: all or nothing; an image whose owner is not in the archive raises ARCHIVE_OWNER:<file>, one the
-- archive's index does not name raises ARCHIVE_UNLISTED:<file>. The staged rows are taken (their object keys
-- cleared first, so their objects are not queued for deletion).
-- Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION archive_restore(p_user uuid, p_data jsonb, p_cap integer, p_restore uuid, p_extras jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  summary jsonb;
  ids jsonb;
  by_name jsonb;
  note jsonb;
  note_ids jsonb := '{}'::jsonb;
  img record;
  conv jsonb;
  imp jsonb;
  acct uuid;
  k integer;
  pos uuid;
  jid uuid;
  cid uuid;
  iid uuid;
  n_images integer := 0;
  n_notes integer := 0;
  n_conversations integer := 0;
  n_imports integer := 0;
  bar jsonb;
  n_bars integer := 0;
  com jsonb;
  cday date;
  n_comments integer := 0;
BEGIN
  summary := account_restore(p_user, p_data, p_cap);
  ids := summary->'ids';
  -- The archive names accounts by their place in journal.json (images) or by name (notes, imports).
  SELECT coalesce(jsonb_object_agg(x->>'name', o - 1), '{}'::jsonb) INTO by_name
  FROM jsonb_array_elements(p_data->'accounts') WITH ORDINALITY AS t(x, o);

  FOR note IN SELECT * FROM jsonb_array_elements(coalesce(p_extras->'detachedNotes', '[]'::jsonb)) LOOP
    k := (by_name->>(note->>'account'))::integer;
    INSERT INTO trade_journals (account_id, notes, tags, setup, rating, stop_price, target_price, planned_risk, playbook_id, playbook_answers,
      symbol, direction, opened_at, closed_at, net_pnl, detached_at)
    VALUES ((ids->'accounts'->>k)::uuid, note->>'notes', coalesce((SELECT array_agg(t) FROM jsonb_array_elements_text(note->'tags') t), '{}'),
      note->>'setup', (note->>'rating')::smallint, (note->>'stopPrice')::numeric, (note->>'targetPrice')::numeric, (note->>'plannedRisk')::numeric,
      (ids->'playbooks'->>(note->>'playbook'))::uuid, coalesce(note->'playbookAnswers', '{}'::jsonb),
      note->>'symbol', note->>'direction', (note->>'openedAt')::timestamptz, (note->>'closedAt')::timestamptz, (note->>'netPnl')::numeric,
      coalesce((note->>'detachedAt')::timestamptz, now()))
    RETURNING id INTO jid;
    note_ids := note_ids || jsonb_build_object(note->>'ref', jid);
    n_notes := n_notes + 1;
  END LOOP;

  FOR img IN
    SELECT s.*, x.owner FROM archive_restore_images s
    LEFT JOIN jsonb_to_recordset(coalesce(p_extras->'screenshots', '[]'::jsonb)) AS x(file text, owner jsonb) ON x.file = s.file
    WHERE s.restore_id = p_restore AND s.user_id = p_user
    ORDER BY s.created_at, s.id
  LOOP
    IF img.owner IS NULL THEN
      RAISE EXCEPTION 'ARCHIVE_UNLISTED:%', img.file USING ERRCODE = 'P0001';
    END IF;
    jid := NULL;
    IF img.owner ? 'trade' THEN
      k := (img.owner->'trade'->>'account')::integer;
      SELECT p.id INTO pos FROM positions p
      WHERE p.account_id = (ids->'accounts'->>k)::uuid AND p.open_fill_id = (ids->'fills'->k->>(img.owner->'trade'->>'openFill'))::uuid;
      IF pos IS NULL THEN
        RAISE EXCEPTION 'ARCHIVE_OWNER:%', img.file USING ERRCODE = 'P0001';
      END IF;
      jid := trade_journal_ensure(pos);
    ELSIF img.owner ? 'detachedNote' THEN
      jid := (note_ids->>(img.owner->>'detachedNote'))::uuid;
      IF jid IS NULL THEN
        RAISE EXCEPTION 'ARCHIVE_OWNER:%', img.file USING ERRCODE = 'P0001';
      END IF;
    ELSIF img.owner ? 'day' THEN
      acct := (ids->'accounts'->>((img.owner->'day'->>'account')::integer))::uuid;
      IF acct IS NULL THEN
        RAISE EXCEPTION 'ARCHIVE_OWNER:%', img.file USING ERRCODE = 'P0001';
      END IF;
      INSERT INTO day_journals (account_id, day) VALUES (acct, (img.owner->'day'->>'date')::date) ON CONFLICT (account_id, day) DO NOTHING;
    ELSIF (ids->'playbooks'->>(img.owner->>'playbook')) IS NULL THEN
      RAISE EXCEPTION 'ARCHIVE_OWNER:%', img.file USING ERRCODE = 'P0001';
    END IF;
    INSERT INTO trade_images (id, journal_id, playbook_id, day_account_id, day, user_id, content_type, bytes, width, height, data, storage_key, created_at)
    VALUES (img.id, jid, (ids->'playbooks'->>(img.owner->>'playbook'))::uuid,
      CASE WHEN img.owner ? 'day' THEN acct END, CASE WHEN img.owner ? 'day' THEN (img.owner->'day'->>'date')::date END,
      p_user, img.content_type, img.bytes, img.width, img.height, img.data, img.storage_key, img.created_at);
    n_images := n_images + 1;
  END LOOP;
  -- Taken: the objects now belong to trade_images, so their keys must not be queued for deletion.
  UPDATE archive_restore_images SET storage_key = NULL WHERE restore_id = p_restore AND storage_key IS NOT NULL;
  DELETE FROM archive_restore_images WHERE restore_id = p_restore;

  -- The comments (comments.json): on a trade (by its opening fill), a detached note or a day. The trader's own
  -- are theirs again; a mentor's keep the mentor's email as their author.
  FOR com IN SELECT * FROM jsonb_array_elements(coalesce(p_extras->'comments', '[]'::jsonb)) LOOP
    jid := NULL;
    acct := NULL;
    cday := NULL;
    IF com->'owner' ? 'trade' THEN
      k := (com->'owner'->'trade'->>'account')::integer;
      acct := (ids->'accounts'->>k)::uuid;
      SELECT p.id INTO pos FROM positions p
      WHERE p.account_id = acct AND p.open_fill_id = (ids->'fills'->k->>(com->'owner'->'trade'->>'openFill'))::uuid;
      IF pos IS NOT NULL THEN
        jid := trade_journal_ensure(pos);
      END IF;
    ELSIF com->'owner' ? 'detachedNote' THEN
      jid := (note_ids->>(com->'owner'->>'detachedNote'))::uuid;
      SELECT account_id INTO acct FROM trade_journals WHERE id = jid;
    ELSIF com->'owner' ? 'day' THEN
      acct := (ids->'accounts'->>((com->'owner'->'day'->>'account')::integer))::uuid;
      cday := (com->'owner'->'day'->>'date')::date;
    END IF;
    IF acct IS NULL OR (jid IS NULL AND cday IS NULL) THEN
      RAISE EXCEPTION 'ARCHIVE_OWNER:comments.json' USING ERRCODE = 'P0001';
    END IF;
    INSERT INTO comments (owner_id, account_id, journal_id, day, author_id, author_label, body, created_at)
    VALUES (p_user, acct, jid, cday, CASE WHEN com->>'author' = 'you' THEN p_user END, CASE WHEN com->>'author' <> 'you' THEN com->>'author' END,
      com->>'body', (com->>'createdAt')::timestamptz);
    n_comments := n_comments + 1;
  END LOOP;

  FOR conv IN SELECT * FROM jsonb_array_elements(coalesce(p_extras->'conversations', '[]'::jsonb)) LOOP
    INSERT INTO advisor_conversations (user_id, title, provider, model, created_at, updated_at)
    VALUES (p_user, conv->>'title', conv->>'provider', conv->>'model', (conv->>'createdAt')::timestamptz,
      coalesce((SELECT max((m->>'createdAt')::timestamptz) FROM jsonb_array_elements(conv->'messages') m), (conv->>'createdAt')::timestamptz))
    RETURNING id INTO cid;
    INSERT INTO advisor_messages (id, conversation_id, role, text, tool_calls, status, created_at)
    SELECT gen_random_uuid(), cid, m.role, coalesce(m.text, ''), coalesce(m."toolCalls", '[]'::jsonb), m.status, m."createdAt"
    FROM jsonb_to_recordset(conv->'messages') AS m(role text, text text, "toolCalls" jsonb, status text, "createdAt" timestamptz);
    n_conversations := n_conversations + 1;
  END LOOP;

  FOR imp IN SELECT * FROM jsonb_array_elements(coalesce(p_extras->'imports', '[]'::jsonb)) LOOP
    k := (by_name->>(imp->>'account'))::integer;
    acct := (ids->'accounts'->>k)::uuid;
    INSERT INTO csv_imports (user_id, account_id, status, file_name, preset_id, created_at, expires_at, committed_at, undone_at, summary, fills_created)
    VALUES (p_user, acct, imp->>'status', imp->>'fileName', imp->>'format', (imp->>'createdAt')::timestamptz, (imp->>'createdAt')::timestamptz,
      (imp->>'committedAt')::timestamptz, (imp->>'undoneAt')::timestamptz, coalesce(imp->'summary', '{}'::jsonb), (imp->>'fillsCreated')::integer)
    RETURNING id INTO iid;
    UPDATE fills SET import_id = iid
    WHERE account_id = acct AND id IN (SELECT (ids->'fills'->k->>r)::uuid FROM jsonb_array_elements_text(coalesce(imp->'fills', '[]'::jsonb)) r);
    n_imports := n_imports + 1;
  END LOOP;

  -- The bars the trader uploaded, stored as their upload was (bars_store, source "upload").
  FOR bar IN SELECT * FROM jsonb_array_elements(coalesce(p_extras->'bars', '[]'::jsonb)) LOOP
    n_bars := n_bars + bars_store(p_user, bar->>'symbol', bar->>'resolution', 'upload', bar->'bars',
      ARRAY(SELECT jsonb_array_elements_text(bar->'days')));
  END LOOP;

  -- The trader's settings, where theirs here are not set yet (a restore never changes a choice made here), and
  -- their own exchange rates, where they have none for that date and currency (docs/currencies.md).
  IF p_extras ? 'settings' THEN
    INSERT INTO user_settings AS s (user_id, base_currency, privacy_mode, digest)
    VALUES (p_user, p_extras->'settings'->>'baseCurrency', coalesce((p_extras->'settings'->>'privacyMode')::boolean, false),
      nullif(p_extras->'settings'->'digest', 'null'::jsonb))
    ON CONFLICT (user_id) DO UPDATE SET
      base_currency = coalesce(s.base_currency, excluded.base_currency),
      digest = coalesce(s.digest, excluded.digest),
      privacy_mode = s.privacy_mode OR excluded.privacy_mode;
    INSERT INTO fx_overrides (user_id, day, currency, base, rate)
    SELECT p_user, o.date, o.currency, o.base, o.rate
    FROM jsonb_to_recordset(coalesce(p_extras->'settings'->'fxOverrides', '[]'::jsonb)) AS o(date date, currency text, base text, rate numeric)
    ON CONFLICT DO NOTHING;
    -- The brokers' own rates, of the account named (a rate is what 1 of its currency is in the base, as the broker gives it).
    INSERT INTO fx_broker_rates (user_id, account_id, day, currency, base, k)
    SELECT p_user, (ids->'accounts'->>((by_name->>b.account)::integer))::uuid, b.date, b.currency, b.base, b.rate
    FROM jsonb_to_recordset(coalesce(p_extras->'settings'->'brokerRates', '[]'::jsonb)) AS b(account text, date date, currency text, base text, rate numeric)
    WHERE by_name ? b.account
    ON CONFLICT DO NOTHING;
    -- The accounts' prop-firm evaluations, each on the account named (docs/prop-firms.md).
    INSERT INTO prop_evaluations (account_id, user_id, firm, phase, start_date, rules, warn_floor, warn_daily, warn_email)
    SELECT (ids->'accounts'->>((by_name->>v.account)::integer))::uuid, p_user, v.firm, v.phase, v."startDate", v.rules,
      (v.warnings->>'floorDistance')::numeric, (v.warnings->>'dailyLossLeft')::numeric, coalesce((v.warnings->>'email')::boolean, false)
    FROM jsonb_to_recordset(coalesce(p_extras->'settings'->'evaluations', '[]'::jsonb)) AS v(account text, firm text, phase text, "startDate" date, rules jsonb, warnings jsonb)
    WHERE by_name ? v.account
    ON CONFLICT DO NOTHING;
    -- The trader's decisions on possible wash sales through options (docs/tax.md).
    INSERT INTO tax_wash_decisions (user_id, symbol, loss_sold_at, replacement_symbol, replacement_at, decision)
    SELECT p_user, w.symbol, w."lossSoldAt", w."replacementSymbol", w."replacementAt", w.decision
    FROM jsonb_to_recordset(coalesce(p_extras->'settings'->'washDecisions', '[]'::jsonb)) AS w(symbol text, "lossSoldAt" date, "replacementSymbol" text, "replacementAt" date, decision text)
    WHERE w.decision IN ('wash', 'not_wash')
    ON CONFLICT DO NOTHING;
  END IF;

  RETURN (summary - 'ids') || jsonb_build_object('screenshots', n_images, 'detachedNotes', n_notes, 'conversations', n_conversations, 'imports', n_imports, 'bars', n_bars,
    'comments', n_comments);
END;
$$;
