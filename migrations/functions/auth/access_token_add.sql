-- access_token_add(user, name, hash, scopes, created, expires, max): adds a personal access token unless the user
-- already has `max` (lib/auth/tokens.ts). The user's row is locked first, and the count runs in its own
-- statement after the lock (a fresh snapshot), so racing requests cannot pass the cap. Returns the new row, or
-- nothing at the cap or for an unknown user.
CREATE OR REPLACE FUNCTION access_token_add(p_user uuid, p_name text, p_hash text, p_scopes text[], p_created timestamptz,
  p_expires timestamptz, p_max integer) RETURNS SETOF access_tokens
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM users WHERE id = p_user FOR UPDATE;
  IF NOT FOUND OR (SELECT count(*) FROM access_tokens WHERE user_id = p_user) >= p_max THEN
    RETURN;
  END IF;
  RETURN QUERY INSERT INTO access_tokens (user_id, name, token_hash, scopes, created_at, expires_at)
    VALUES (p_user, p_name, p_hash, p_scopes, p_created, p_expires) RETURNING *;
END;
$$;
