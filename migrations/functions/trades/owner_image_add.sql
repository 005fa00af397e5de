-- owner_image_add(image, user, playbook, account, day, type, bytes, width, height, data_base64, storage_key, cap):
-- adds one image to a playbook of the user (p_playbook) or to the user's account's day (p_account, p_day: the
-- daily journal entry is made when there is none), inline (data) or as a reference to an object
-- (storage_key). Returns 'added', 'not_found' (no such playbook or account of this user) or 'full' (the owner
-- already holds `cap`).
-- Guarantees: the cap holds under racing uploads (the owner's row is locked before the count, which is a
-- statement of its own).
-- Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION owner_image_add(
  p_image uuid, p_user uuid, p_playbook uuid, p_account uuid, p_day date, p_type text, p_bytes integer, p_width integer,
  p_height integer, p_data text, p_storage_key text, p_cap integer
) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  IF p_playbook IS NOT NULL THEN
    PERFORM 1 FROM playbooks WHERE id = p_playbook AND user_id = p_user FOR NO KEY UPDATE;
    IF NOT FOUND THEN
      RETURN 'not_found';
    END IF;
    IF (SELECT count(*) FROM trade_images WHERE playbook_id = p_playbook) >= p_cap THEN
      RETURN 'full';
    END IF;
  ELSE
    IF NOT EXISTS (SELECT 1 FROM accounts WHERE id = p_account AND user_id = p_user) THEN
      RETURN 'not_found';
    END IF;
    INSERT INTO day_journals (account_id, day) VALUES (p_account, p_day) ON CONFLICT (account_id, day) DO NOTHING;
    PERFORM 1 FROM day_journals WHERE account_id = p_account AND day = p_day FOR NO KEY UPDATE;
    IF (SELECT count(*) FROM trade_images WHERE day_account_id = p_account AND day = p_day) >= p_cap THEN
      RETURN 'full';
    END IF;
  END IF;
  INSERT INTO trade_images (id, playbook_id, day_account_id, day, user_id, content_type, bytes, width, height, data, storage_key)
  VALUES (p_image, p_playbook, CASE WHEN p_playbook IS NULL THEN p_account END, CASE WHEN p_playbook IS NULL THEN p_day END, p_user,
          p_type, p_bytes, p_width, p_height, CASE WHEN p_data IS NULL THEN NULL ELSE decode(p_data, 'base64') END, p_storage_key);
  RETURN 'added';
END;
$$;
