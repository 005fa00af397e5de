-- admin_end_sessions(actor, target, reason): an administrator ends every session of a user and writes the
-- audit entry in this same statement, revokes every access token of the user and deletes their unused
-- password-reset links (a token made from a stolen session, or a link mailed before, must not let anyone back in). Returns how many sessions ended; NULL when the target does not exist.
-- The actor must be an admin (FORBIDDEN). Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION admin_end_sessions(p_actor uuid, p_target uuid, p_reason text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  actor_email text;
  target_email text;
  ended integer;
BEGIN
  actor_email := admin_actor(p_actor);
  SELECT email INTO target_email FROM users WHERE id = p_target;
  IF target_email IS NULL THEN
    RETURN NULL;
  END IF;
  DELETE FROM sessions WHERE user_id = p_target;
  GET DIAGNOSTICS ended = ROW_COUNT;
  DELETE FROM email_tokens WHERE user_id = p_target AND purpose = 'reset_password' AND used_at IS NULL;
  DELETE FROM access_tokens WHERE user_id = p_target;
  INSERT INTO admin_audit (actor_id, actor_email, action, target_user_id, target_email, reason, details, at)
  VALUES (p_actor, actor_email, 'end_sessions', p_target, target_email, p_reason, jsonb_build_object('sessions', ended), clock_timestamp());
  RETURN ended;
END;
$$;
