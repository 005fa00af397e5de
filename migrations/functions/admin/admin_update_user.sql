-- admin_update_user(actor, target, is_admin, plan, reason): an administrator changes another user's (or their
-- own) admin flag and/or plan; NULL leaves that field as it is. Each change that changes something is written
-- to admin_audit in this same statement (promote, demote, set_plan), with the reason.
-- Guarantees: the instance never loses its last admin, even when admins demote each other at the same time
-- (every admin row is locked first, then counted: LAST_ADMIN); the actor must still be an admin when the
-- change is made (FORBIDDEN). Returns the user after the change; no row when the target does not exist.
-- Entries are stamped with clock_timestamp(), so those of one action keep the order they were written in.
-- Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION admin_update_user(
  p_actor uuid, p_target uuid, p_is_admin boolean, p_plan text, p_reason text
) RETURNS SETOF users
LANGUAGE plpgsql AS $$
DECLARE
  actor_email text;
  before users;
  after users;
BEGIN
  PERFORM 1 FROM users WHERE is_admin ORDER BY id FOR UPDATE;
  SELECT * INTO before FROM users WHERE id = p_target FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF p_is_admin = false AND before.is_admin AND (SELECT count(*) FROM users WHERE is_admin) <= 1 THEN
    RAISE EXCEPTION 'LAST_ADMIN' USING ERRCODE = 'P0001';
  END IF;
  actor_email := admin_actor(p_actor);
  UPDATE users SET is_admin = coalesce(p_is_admin, is_admin), plan = coalesce(p_plan, plan), updated_at = now()
  WHERE id = p_target
  RETURNING * INTO after;
  IF after.is_admin <> before.is_admin THEN
    INSERT INTO admin_audit (actor_id, actor_email, action, target_user_id, target_email, reason, at)
    VALUES (p_actor, actor_email, CASE WHEN after.is_admin THEN 'promote' ELSE 'demote' END, p_target, after.email, p_reason, clock_timestamp());
  END IF;
  IF after.plan <> before.plan THEN
    INSERT INTO admin_audit (actor_id, actor_email, action, target_user_id, target_email, reason, details, at)
    VALUES (p_actor, actor_email, 'set_plan', p_target, after.email, p_reason, jsonb_build_object('from', before.plan, 'to', after.plan), clock_timestamp());
  END IF;
  RETURN NEXT after;
END;
$$;
