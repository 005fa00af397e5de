-- admin_actor(actor): the email of the acting administrator, for the audit entry. Raises FORBIDDEN when the
-- actor is not (or no longer) an admin, so an action of a just-demoted admin writes nothing.
CREATE OR REPLACE FUNCTION admin_actor(p_actor uuid) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  actor_email text;
BEGIN
  SELECT email INTO actor_email FROM users WHERE id = p_actor AND is_admin;
  IF actor_email IS NULL THEN
    RAISE EXCEPTION 'FORBIDDEN' USING ERRCODE = 'P0001';
  END IF;
  RETURN actor_email;
END;
$$;
