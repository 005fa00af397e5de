-- billing_credit_purchase(event, type, session, user, pack, credits, amount_cents, currency, payment_intent):
-- credits a paid checkout session's pack. Exactly once per event id AND per checkout session id: a replayed
-- event answers 'duplicate_event', a second event for a session already credited (completed, then
-- async_payment_succeeded) 'duplicate_session', a user who no longer exists 'unknown_user'; otherwise
-- 'credited'. The caller has checked that the session is paid and matches its metadata.
-- Atomic: one statement for the caller (event, purchase, wallet and movement together). Locks the wallet.
CREATE OR REPLACE FUNCTION billing_credit_purchase(
  p_event text, p_type text, p_session text, p_user uuid, p_pack text, p_credits bigint, p_amount bigint, p_currency text,
  p_payment_intent text
) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  inserted integer;
BEGIN
  IF NOT payment_event_record(p_event, p_type, 'credited', jsonb_build_object('session', p_session, 'credits', p_credits)) THEN
    RETURN 'duplicate_event';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM users WHERE id = p_user) THEN
    UPDATE payment_events SET outcome = 'unknown_user' WHERE id = p_event;
    RETURN 'unknown_user';
  END IF;
  INSERT INTO credit_purchases (checkout_session_id, user_id, pack_id, credits, amount_cents, currency, payment_intent_id)
  VALUES (p_session, p_user, p_pack, p_credits, p_amount, p_currency, p_payment_intent)
  ON CONFLICT (checkout_session_id) DO NOTHING;
  GET DIAGNOSTICS inserted = ROW_COUNT;
  IF inserted = 0 THEN
    UPDATE payment_events SET outcome = 'duplicate_session' WHERE id = p_event;
    RETURN 'duplicate_session';
  END IF;
  PERFORM wallet_lock(p_user);
  PERFORM wallet_apply(p_user, 'purchase', p_credits, 0, NULL, p_session, p_pack);
  RETURN 'credited';
END;
$$;
