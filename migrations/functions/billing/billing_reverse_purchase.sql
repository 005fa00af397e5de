-- billing_reverse_purchase(event, type, payment_intent, reversed_cents, kind, reference): takes back the
-- credits of a refunded or disputed payment, in proportion: when `reversed_cents` of the purchase's amount
-- is refunded (cumulative, as the provider reports it) or disputed, floor(credits x reversed / amount) credits
-- should be gone; only what was not taken back before is taken now (a partial refund, then the rest; a
-- refund, then a dispute of the same payment). The wallet never goes below what holds reserve: what it cannot
-- give is added to the wallet's shortfall. Once per event id. Returns the outcome ('reversed',
-- 'nothing_to_take', 'unknown_payment', 'duplicate_event').
-- Atomic: one statement for the caller. Locks the purchase, then the wallet.
CREATE OR REPLACE FUNCTION billing_reverse_purchase(
  p_event text, p_type text, p_payment_intent text, p_reversed_cents bigint, p_kind text, p_reference text
) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  p credit_purchases;
  w wallets;
  reversed bigint;
  target bigint;
  take bigint;
  can bigint;
BEGIN
  IF NOT payment_event_record(p_event, p_type, p_kind, jsonb_build_object('payment_intent', p_payment_intent, 'reversed_cents', p_reversed_cents)) THEN
    RETURN 'duplicate_event';
  END IF;
  SELECT * INTO p FROM credit_purchases WHERE payment_intent_id = p_payment_intent FOR UPDATE;
  IF p.checkout_session_id IS NULL THEN
    UPDATE payment_events SET outcome = 'unknown_payment' WHERE id = p_event;
    RETURN 'unknown_payment';
  END IF;
  reversed := greatest(p.reversed_cents, least(greatest(p_reversed_cents, 0), p.amount_cents));
  target := CASE WHEN p.amount_cents = 0 THEN p.credits ELSE (p.credits * reversed) / p.amount_cents END;
  take := target - p.credits_reversed;
  UPDATE credit_purchases SET reversed_cents = reversed, credits_reversed = greatest(credits_reversed, target)
  WHERE checkout_session_id = p.checkout_session_id;
  IF take <= 0 THEN
    UPDATE payment_events SET outcome = 'nothing_to_take' WHERE id = p_event;
    RETURN 'nothing_to_take';
  END IF;
  w := wallet_lock(p.user_id);
  can := least(take, w.balance - w.reserved);
  IF can > 0 THEN
    PERFORM wallet_apply(p.user_id, p_kind, -can, 0, NULL, p_reference, NULL);
  END IF;
  IF take > can THEN
    UPDATE wallets SET shortfall = shortfall + (take - can) WHERE user_id = p.user_id;
  END IF;
  UPDATE payment_events SET detail = detail || jsonb_build_object('taken', can, 'shortfall', take - can) WHERE id = p_event;
  RETURN 'reversed';
END;
$$;
