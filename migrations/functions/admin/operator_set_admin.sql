-- operator_set_admin(email, is_admin, source, verified_only, first_only): the instance's operator (not a signed-in admin:
-- the CLI, or SEED_ADMIN_EMAIL at start) makes a user an administrator or not, and writes the audit entry in
-- this same statement, the actor named by `source` ("operator (CLI)") with no actor id. verified_only: only
-- an address whose owner confirmed it is promoted (SEED_ADMIN_EMAIL when email is on); first_only: nothing
-- happens when the instance already has an admin (SEED_ADMIN_EMAIL), decided under the admins' locks.
-- Returns the user after the change; no row when no such user (or not verified when asked). Guarantees, as
-- admin_update_user: never the last admin demoted (LAST_ADMIN; every admin row is locked, then counted), and
-- a change that changes nothing writes no entry. Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION operator_set_admin(p_email text, p_is_admin boolean, p_source text, p_verified_only boolean, p_first_only boolean)
RETURNS SETOF users
LANGUAGE plpgsql AS $$
DECLARE
  before users;
  after users;
BEGIN
  PERFORM 1 FROM users WHERE is_admin ORDER BY id FOR UPDATE;
  IF p_first_only AND FOUND THEN
    RETURN;
  END IF;
  SELECT * INTO before FROM users WHERE email = lower(btrim(p_email)) FOR UPDATE;
  IF NOT FOUND OR (p_verified_only AND NOT before.email_verified) THEN
    RETURN;
  END IF;
  IF NOT p_is_admin AND before.is_admin AND (SELECT count(*) FROM users WHERE is_admin) <= 1 THEN
    RAISE EXCEPTION 'LAST_ADMIN' USING ERRCODE = 'P0001';
  END IF;
  UPDATE users SET is_admin = p_is_admin, updated_at = now() WHERE id = before.id RETURNING * INTO after;
  IF after.is_admin <> before.is_admin THEN
    INSERT INTO admin_audit (actor_id, actor_email, action, target_user_id, target_email, reason, at)
    VALUES (NULL, p_source, CASE WHEN after.is_admin THEN 'promote' ELSE 'demote' END, after.id, after.email, NULL, clock_timestamp());
  END IF;
  RETURN NEXT after;
END;
$$;
