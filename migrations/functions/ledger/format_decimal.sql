-- format_decimal(v): lib/money.ts formatDecimal in SQL, for JSON built by Postgres (the ledger page):
-- trailing zeros after the point trimmed, but at least 2 decimals ("1000.5000000000" -> "1000.50",
-- "0" -> "0.00", "12.3456000000" -> "12.3456"). numeric has no negative zero and never prints an exponent.
-- A plain SQL expression, so the planner inlines it; immutable and parallel safe. Not STRICT: Postgres inlines a
-- STRICT function only when its body is strict too, which a CASE is not, and then runs the body as a function
-- call each time (about 4x slower here, and its set-up again in every statement). NULL still gives NULL.

CREATE OR REPLACE FUNCTION format_decimal(v numeric) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN scale(trim_scale(v)) < 2 THEN round(v, 2)::text ELSE trim_scale(v)::text END
$$;
