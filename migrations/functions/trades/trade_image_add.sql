-- trade_image_add(image, trade, user, type, bytes, width, height, data_base64, storage_key, cap): adds one
-- screenshot to the journal of a trade of the user (made on the first write), inline (data) or as a
-- reference to an object (storage_key). Returns 'added', 'not_found' (no such trade of this user) or 'full'
-- (the journal already holds `cap`).
-- Guarantees: the cap holds under racing uploads (the journal's row is locked before the count, and the count
-- is a statement of its own, so it sees what a racing upload committed while this one waited). The account
-- row is held FOR KEY SHARE, as journal writes hold it, so no rebuild replaces the trade meanwhile.
-- Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION trade_image_add(
  p_image uuid, p_trade uuid, p_user uuid, p_type text, p_bytes integer, p_width integer, p_height integer,
  p_data text, p_storage_key text, p_cap integer
) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  acct uuid;
  jid uuid;
BEGIN
  SELECT p.account_id INTO acct FROM positions p JOIN accounts a ON a.id = p.account_id WHERE p.id = p_trade AND a.user_id = p_user;
  IF acct IS NULL THEN
    RETURN 'not_found';
  END IF;
  PERFORM 1 FROM accounts WHERE id = acct FOR KEY SHARE;
  IF NOT EXISTS (SELECT 1 FROM positions WHERE id = p_trade) THEN
    RETURN 'not_found';
  END IF;
  jid := trade_journal_ensure(p_trade);
  PERFORM 1 FROM trade_journals WHERE id = jid FOR NO KEY UPDATE;
  IF (SELECT count(*) FROM trade_images WHERE journal_id = jid) >= p_cap THEN
    RETURN 'full';
  END IF;
  INSERT INTO trade_images (id, journal_id, user_id, content_type, bytes, width, height, data, storage_key)
  VALUES (p_image, jid, p_user, p_type, p_bytes, p_width, p_height,
          CASE WHEN p_data IS NULL THEN NULL ELSE decode(p_data, 'base64') END, p_storage_key);
  RETURN 'added';
END;
$$;
