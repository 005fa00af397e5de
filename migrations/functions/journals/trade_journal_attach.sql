-- trade_journal_attach(user, journal, trade): the trader puts a journal (usually a detached note) on a trade
-- of the same account. When the trade has no journal, it takes this one, which from now on remembers the
-- trade's fills. When it has one, this one is merged into it and removed: its notes are appended under a line
-- naming where they came from (with its setup, rating, stop, target and planned risk when the trade's
-- differ), its tags are added, its screenshots move, and the trade's own setup, rating and plan stay (taken
-- from this one where the trade has none).
-- Returns 'attached', 'merged', 'same' (already there), 'not_found' (journal or trade not the user's) or
-- 'other_account'. Locks the account row FOR UPDATE (as rebuilds do). Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION trade_journal_attach(p_user uuid, p_journal uuid, p_trade uuid) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  j trade_journals;
  target uuid;
  acct uuid;
  other trade_journals;
  heading text;
BEGIN
  SELECT j0.account_id INTO acct FROM trade_journals j0 JOIN accounts a ON a.id = j0.account_id
  WHERE j0.id = p_journal AND a.user_id = p_user;
  IF acct IS NULL THEN
    RETURN 'not_found';
  END IF;
  PERFORM 1 FROM accounts WHERE id = acct FOR UPDATE;
  SELECT * INTO j FROM trade_journals WHERE id = p_journal;
  SELECT p.account_id INTO target FROM positions p JOIN accounts a ON a.id = p.account_id WHERE p.id = p_trade AND a.user_id = p_user;
  IF j.id IS NULL OR target IS NULL THEN
    RETURN 'not_found';
  END IF;
  IF target <> j.account_id THEN
    RETURN 'other_account';
  END IF;
  IF j.position_id = p_trade THEN
    RETURN 'same';
  END IF;
  SELECT * INTO other FROM trade_journals WHERE position_id = p_trade;
  IF other.id IS NULL THEN
    UPDATE trade_journals SET position_id = NULL WHERE id = p_journal AND position_id IS NOT NULL;
    UPDATE trade_journals SET position_id = p_trade,
      former_position_ids = CASE WHEN last_position_id IS NOT NULL AND last_position_id <> p_trade AND NOT last_position_id = ANY(former_position_ids)
        THEN former_position_ids || last_position_id ELSE former_position_ids END,
      last_position_id = p_trade, detached_at = NULL, updated_at = now(),
      symbol = p.symbol, direction = p.direction, opened_at = p.opened_at, closed_at = p.closed_at, net_pnl = p.net_pnl,
      fill_count = (SELECT count(*) FROM position_fills pf WHERE pf.position_id = p.id), entry_price = position_entry_price(p.id)
    FROM positions p WHERE p.id = p_trade AND trade_journals.id = p_journal;
    DELETE FROM journal_fills WHERE journal_id = p_journal;
    INSERT INTO journal_fills (journal_id, fill_id, symbol, side, quantity, price, executed_at, execution_id)
    SELECT p_journal, f.id, f.symbol, f.side, f.quantity, f.price, date_trunc('second', f.executed_at), f.execution_id
    FROM position_fills pf JOIN fills f ON f.id = pf.fill_id WHERE pf.position_id = p_trade;
    RETURN 'attached';
  END IF;

  heading := format('— Merged from the notes of %s %s, opened %s UTC —', j.symbol, coalesce(j.direction, ''),
    coalesce(to_char(j.opened_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'), 'at an unknown time'));
  IF j.setup IS NOT NULL AND other.setup IS NOT NULL AND j.setup <> other.setup THEN
    heading := heading || E'\nSetup: ' || j.setup;
  END IF;
  IF j.rating IS NOT NULL AND other.rating IS NOT NULL AND j.rating <> other.rating THEN
    heading := heading || E'\nRating: ' || j.rating || '/5';
  END IF;
  IF j.stop_price IS NOT NULL AND other.stop_price IS NOT NULL AND j.stop_price <> other.stop_price THEN
    heading := heading || E'\nStop: ' || format_decimal(j.stop_price);
  END IF;
  IF j.target_price IS NOT NULL AND other.target_price IS NOT NULL AND j.target_price <> other.target_price THEN
    heading := heading || E'\nTarget: ' || format_decimal(j.target_price);
  END IF;
  IF j.planned_risk IS NOT NULL AND other.planned_risk IS NOT NULL AND j.planned_risk <> other.planned_risk THEN
    heading := heading || E'\nPlanned risk: ' || format_decimal(j.planned_risk);
  END IF;
  UPDATE trade_journals SET
    notes = CASE
      WHEN (j.notes IS NULL OR btrim(j.notes) = '') AND heading NOT LIKE '%' || E'\n' || '%' THEN notes
      ELSE concat_ws(E'\n\n', nullif(btrim(notes), ''), heading || coalesce(E'\n' || nullif(btrim(j.notes), ''), '')) END,
    tags = tags || ARRAY(SELECT DISTINCT x FROM unnest(j.tags) AS x WHERE NOT x = ANY(tags)),
    setup = coalesce(setup, j.setup),
    rating = coalesce(rating, j.rating),
    stop_price = coalesce(stop_price, j.stop_price),
    target_price = coalesce(target_price, j.target_price),
    planned_risk = coalesce(planned_risk, j.planned_risk),
    former_position_ids = ARRAY(SELECT DISTINCT x FROM unnest(former_position_ids || j.former_position_ids
      || CASE WHEN j.last_position_id IS NULL THEN '{}'::uuid[] ELSE ARRAY[j.last_position_id] END) AS x WHERE x <> p_trade),
    updated_at = now()
  WHERE id = other.id;
  UPDATE trade_images SET journal_id = other.id WHERE journal_id = p_journal;
  DELETE FROM trade_journals WHERE id = p_journal;
  RETURN 'merged';
END;
$$;
