-- credit_holds_expire(now, limit): releases (as 'expired') up to `limit` holds whose time ran out: a turn
-- whose process died between hold and settle gives its credits back here (the cron job and the scheduler).
-- Holds being settled right now are skipped (SKIP LOCKED) and left to their settle. Returns how many ended.
CREATE OR REPLACE FUNCTION credit_holds_expire(p_now timestamptz, p_limit integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  hold_id uuid;
  ended integer := 0;
BEGIN
  FOR hold_id IN
    SELECT id FROM credit_holds WHERE status = 'held' AND expires_at < p_now ORDER BY expires_at LIMIT p_limit FOR UPDATE SKIP LOCKED
  LOOP
    PERFORM credit_hold_end(hold_id, 0, 'expired');
    ended := ended + 1;
  END LOOP;
  RETURN ended;
END;
$$;
