-- trade_journal_write(user, trade, patch): writes the fields a patch names (notes, tags, setup, rating,
-- stopPrice, targetPrice, plannedRisk, playbookId; a key present with null clears it, a key absent keeps it;
-- playbookAnswers is merged by item id, an answer of null removing that item's) on the
-- journal of a trade of the user, making the journal on the first write. A stop on the wrong side of the
-- trade's entry (at or above it for a long, at or below it for a short) raises STOP_WRONG_SIDE:<direction>:<entry>
-- and writes nothing; a playbook that is not the user's raises PLAYBOOK_NOT_FOUND (its row is locked FOR KEY
-- SHARE, so it cannot be deleted under the write). Returns the journal as this write left it ({id, notes, tags,
-- setup, rating, playbookId, playbookAnswers}; id null when the write left it blank and without screenshots,
-- which removes it), or NULL when the trade is not the user's (or was rebuilt away while this waited).
-- Locks the trade's account row FOR KEY SHARE: rebuilds (FOR UPDATE) wait for it and it for them, so a
-- journal is never written on a trade a rebuild is replacing; writes of journals do not wait for each other.
-- Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION trade_journal_write(p_user uuid, p_trade uuid, p_patch jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  acct uuid;
  jid uuid;
  j trade_journals;
  pos positions;
  entry numeric;
  stop numeric;
BEGIN
  SELECT p.account_id INTO acct FROM positions p JOIN accounts a ON a.id = p.account_id WHERE p.id = p_trade AND a.user_id = p_user;
  IF acct IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM accounts WHERE id = acct FOR KEY SHARE;
  IF NOT EXISTS (SELECT 1 FROM positions WHERE id = p_trade) THEN
    RETURN NULL;
  END IF;
  IF p_patch->>'playbookId' IS NOT NULL THEN
    PERFORM 1 FROM playbooks WHERE id = (p_patch->>'playbookId')::uuid AND user_id = p_user FOR KEY SHARE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'PLAYBOOK_NOT_FOUND' USING ERRCODE = 'P0001';
    END IF;
  END IF;
  stop := (p_patch->>'stopPrice')::numeric;
  IF stop IS NOT NULL THEN
    SELECT * INTO pos FROM positions WHERE id = p_trade;
    entry := position_entry_price(p_trade);
    IF (pos.direction = 'long' AND stop >= entry) OR (pos.direction = 'short' AND stop <= entry) THEN
      RAISE EXCEPTION 'STOP_WRONG_SIDE:%:%', pos.direction, format_decimal(entry) USING ERRCODE = 'P0001';
    END IF;
  END IF;
  jid := trade_journal_ensure(p_trade);
  UPDATE trade_journals SET
    notes = CASE WHEN p_patch ? 'notes' THEN p_patch->>'notes' ELSE notes END,
    tags = CASE WHEN p_patch ? 'tags' THEN coalesce(ARRAY(SELECT jsonb_array_elements_text(p_patch->'tags')), '{}') ELSE tags END,
    setup = CASE WHEN p_patch ? 'setup' THEN p_patch->>'setup' ELSE setup END,
    rating = CASE WHEN p_patch ? 'rating' THEN (p_patch->>'rating')::smallint ELSE rating END,
    stop_price = CASE WHEN p_patch ? 'stopPrice' THEN stop ELSE stop_price END,
    target_price = CASE WHEN p_patch ? 'targetPrice' THEN (p_patch->>'targetPrice')::numeric ELSE target_price END,
    planned_risk = CASE WHEN p_patch ? 'plannedRisk' THEN (p_patch->>'plannedRisk')::numeric ELSE planned_risk END,
    playbook_id = CASE WHEN p_patch ? 'playbookId' THEN (p_patch->>'playbookId')::uuid ELSE playbook_id END,
    playbook_answers = CASE WHEN p_patch ? 'playbookAnswers'
      THEN jsonb_strip_nulls(playbook_answers || (p_patch->'playbookAnswers')) ELSE playbook_answers END,
    updated_at = now()
  WHERE id = jid
  RETURNING * INTO j;
  IF journal_blank(j) THEN
    DELETE FROM trade_journals WHERE id = jid;
    jid := NULL;
  END IF;
  RETURN jsonb_build_object('id', jid, 'notes', j.notes, 'tags', to_jsonb(j.tags), 'setup', j.setup, 'rating', j.rating,
    'playbookId', j.playbook_id, 'playbookAnswers', j.playbook_answers);
END;
$$;
