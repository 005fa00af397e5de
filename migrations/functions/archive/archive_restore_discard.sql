-- archive_restore_discard(restore, before): drops the images staged by one archive import (`restore`: it was
-- refused or failed) or by every import staged before `before` (leftovers of a stopped process); their objects
-- are queued for deletion by the table's trigger. Returns how many rows went.
-- Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION archive_restore_discard(p_restore uuid, p_before timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  gone integer;
BEGIN
  DELETE FROM archive_restore_images WHERE (p_restore IS NOT NULL AND restore_id = p_restore) OR (p_before IS NOT NULL AND staged_at < p_before);
  GET DIAGNOSTICS gone = ROW_COUNT;
  RETURN gone;
END;
$$;
