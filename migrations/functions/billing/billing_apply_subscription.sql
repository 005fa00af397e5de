-- billing_apply_subscription(event, type, subscription, user, status, event_created): records what a
-- subscription event says and moves users.plan: 'pro' while any of the user's subscriptions is active,
-- trialing or past_due (the provider is still retrying the payment), else 'free'. An event older than the
-- newest one applied to the subscription changes nothing (events can arrive out of order). Once per event id.
-- Returns the user's plan after it, 'duplicate_event' or 'unknown_user'.
-- Atomic: one statement for the caller. Locks the user row.
CREATE OR REPLACE FUNCTION billing_apply_subscription(
  p_event text, p_type text, p_subscription text, p_user uuid, p_status text, p_created timestamptz
) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  plan_now text;
BEGIN
  IF NOT payment_event_record(p_event, p_type, 'subscription', jsonb_build_object('subscription', p_subscription, 'status', p_status)) THEN
    RETURN 'duplicate_event';
  END IF;
  PERFORM 1 FROM users WHERE id = p_user FOR UPDATE;
  IF NOT FOUND THEN
    UPDATE payment_events SET outcome = 'unknown_user' WHERE id = p_event;
    RETURN 'unknown_user';
  END IF;
  INSERT INTO subscriptions AS s (id, user_id, status, event_created_at) VALUES (p_subscription, p_user, p_status, p_created)
  ON CONFLICT (id) DO UPDATE SET status = excluded.status, event_created_at = excluded.event_created_at, updated_at = now()
  WHERE s.event_created_at <= excluded.event_created_at;
  plan_now := CASE WHEN EXISTS (
    SELECT 1 FROM subscriptions WHERE user_id = p_user AND status IN ('active', 'trialing', 'past_due')
  ) THEN 'pro' ELSE 'free' END;
  UPDATE users SET plan = plan_now, updated_at = now() WHERE id = p_user AND plan <> plan_now;
  RETURN plan_now;
END;
$$;
