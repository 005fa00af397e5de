-- payment_event_record(event, type, outcome, detail): records that a payment-provider event was handled.
-- Returns false when it already was (the event id is the key): the caller then does nothing more, so a
-- retried or replayed delivery is handled once. Concurrent deliveries of one event: the second waits for
-- the first's transaction and then sees it.
CREATE OR REPLACE FUNCTION payment_event_record(p_event text, p_type text, p_outcome text, p_detail jsonb) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  inserted integer;
BEGIN
  INSERT INTO payment_events (id, type, outcome, detail) VALUES (p_event, p_type, p_outcome, p_detail)
  ON CONFLICT (id) DO NOTHING;
  GET DIAGNOSTICS inserted = ROW_COUNT;
  RETURN inserted = 1;
END;
$$;
