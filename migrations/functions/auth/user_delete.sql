-- user_delete(user): a user deletes their own account and everything in it (accounts, ledgers, fills,
-- trades, imports, keys, wallet, conversations, sessions: every table cascades from users; staged import
-- objects are queued for deletion by csv_imports_queue_object_deletion). Audit entries about the user keep
-- their emails with the ids set to null.
-- Guarantees: the instance keeps an administrator (LAST_ADMIN), even when admins delete themselves at the
-- same time (every admin row is locked before the count). Returns whether a user was deleted.
-- Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION user_delete(p_user uuid) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  target users;
BEGIN
  PERFORM 1 FROM users WHERE is_admin ORDER BY id FOR UPDATE;
  SELECT * INTO target FROM users WHERE id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  IF target.is_admin AND (SELECT count(*) FROM users WHERE is_admin) <= 1 THEN
    RAISE EXCEPTION 'LAST_ADMIN' USING ERRCODE = 'P0001';
  END IF;
  DELETE FROM users WHERE id = p_user;
  RETURN true;
END;
$$;
