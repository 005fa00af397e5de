-- fx_on(user, base, currency, day): the rate that turns an amount in `currency` on `day` into the user's base
-- currency (docs/currencies.md): one row (k, rate, rate_day, source), none when the instance has no such rate.
-- - rate: units of `currency` per 1 base (10 decimals); k = 1 / rate (14 decimals, from the rates as published),
--   what an amount is multiplied by (a product
--   of numerics is exact, so a sum converted equals the converted parts summed: the maintained figures equal
--   the journal's);
-- - source: 'same' (the base itself, 1), 'override' (the trader's own rate, fx_overrides, for this base),
--   'reference' (the rate service's daily rates, fx_rates, per 1 EUR, crossed through EUR).
-- A date without a rate of its own (a weekend, a holiday) takes the latest earlier date's, at most 7 days back,
-- an override winning over a reference rate of the same date; a reference rate counts only once `day` was asked
-- of the rate service (fx_rate_days), so an earlier rate is never taken for a date whose own is merely unfetched.
CREATE OR REPLACE FUNCTION fx_on(p_user uuid, p_base text, p_currency text, p_day date)
RETURNS TABLE (k numeric, rate numeric, rate_day date, source text)
LANGUAGE sql STABLE AS $$
  SELECT round(x.k, 14), round(x.rate, 10), x.day, x.source FROM (
    SELECT p_day AS day, 1::numeric AS rate, 1::numeric AS k, 'same'::text AS source, 0 AS pri WHERE p_currency = p_base
    UNION ALL
    SELECT o.day, o.rate, 1 / o.rate, 'override', 1 FROM fx_overrides o
    WHERE p_currency <> p_base AND o.user_id = p_user AND o.currency = p_currency AND o.base = p_base
      AND o.day <= p_day AND o.day >= p_day - 7
    UNION ALL
    SELECT c.day, c.per_eur / b.per_eur, b.per_eur / c.per_eur, 'reference', 2
    FROM fx_rates c JOIN fx_rates b ON b.currency = p_base AND b.day = c.day
    WHERE p_currency <> p_base AND c.currency = p_currency AND c.day <= p_day AND c.day >= p_day - 7
      AND EXISTS (SELECT 1 FROM fx_rate_days d WHERE d.day = p_day)
  ) x
  ORDER BY x.pri = 0 DESC, x.day DESC, x.pri
  LIMIT 1
$$;
