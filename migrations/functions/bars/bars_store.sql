-- bars_store(user, symbol, resolution, source, bars, days): writes a user's bars of a symbol (bars: a JSON
-- array of [t, open, high, low, close, volume], t ISO 8601), replacing those at the same instants; marks the
-- days they cover `ok` (days: the New York trading days, or months for "1d", as lib/market/bars.ts keys
-- them; a fetched day that had no bars is marked `empty` by the caller passing it with no bars), each with
-- all its bars as one JSON text for the chart (bars_json: [{"t":"<ISO 8601 UTC, milliseconds>","open":"<decimal>",
-- ...,"volume":"<decimal>"},...] in time order, compact, decimals as format_decimal writes them: the chart cuts
-- its window out of this text, lib/market/chart.ts); and deletes the
-- excursions of the user's trades of the symbol whose life the bars overlap, so they are computed again.
-- Returns the number of bars written. Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION bars_store(p_user uuid, p_symbol text, p_resolution text, p_source text, p_bars jsonb, p_days text[])
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  written integer;
  first_t timestamptz;
  last_t timestamptz;
BEGIN
  WITH incoming AS (
    SELECT (x->>0)::timestamptz AS t, (x->>1)::numeric AS o, (x->>2)::numeric AS h, (x->>3)::numeric AS l, (x->>4)::numeric AS c,
      coalesce((x->>5)::numeric, 0) AS v
    FROM jsonb_array_elements(p_bars) AS x
  ),
  stored AS (
    INSERT INTO bars (user_id, symbol, resolution, t, open, high, low, close, volume, source)
    SELECT p_user, p_symbol, p_resolution, t, o, h, l, c, v, p_source FROM incoming
    ON CONFLICT (user_id, symbol, resolution, t) DO UPDATE
      SET open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume, source = excluded.source
    RETURNING t
  )
  SELECT count(*), min(t), max(t) INTO written, first_t, last_t FROM stored;

  INSERT INTO bar_days (user_id, symbol, resolution, day, status, attempts, next_attempt_at, detail, updated_at, source, bars_json)
  SELECT p_user, p_symbol, p_resolution, d, CASE WHEN written > 0 THEN 'ok' ELSE 'empty' END, 0, now(), NULL, now(), p_source,
    (SELECT '[' || string_agg('{"t":"' || to_char(b.t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '","open":"' || format_decimal(b.open)
        || '","high":"' || format_decimal(b.high) || '","low":"' || format_decimal(b.low) || '","close":"' || format_decimal(b.close)
        || '","volume":"' || format_decimal(b.volume) || '"}', ',' ORDER BY b.t) || ']'
      FROM bars b
      WHERE b.user_id = p_user AND b.symbol = p_symbol AND b.resolution = p_resolution
        AND b.t >= (d::date)::timestamp AT TIME ZONE 'America/New_York'
        AND b.t < ((d::date)::timestamp + CASE WHEN p_resolution = '1d' THEN interval '1 month' ELSE interval '1 day' END) AT TIME ZONE 'America/New_York')
  FROM unnest(p_days) AS d
  ON CONFLICT (user_id, symbol, resolution, day) DO UPDATE
    SET status = CASE WHEN bar_days.status = 'ok' OR excluded.status = 'ok' THEN 'ok' ELSE excluded.status END,
      detail = NULL, updated_at = now(), source = excluded.source, bars_json = coalesce(excluded.bars_json, bar_days.bars_json);

  IF written > 0 THEN
    DELETE FROM trade_excursions x USING positions p, accounts a
    WHERE x.position_id = p.id AND a.id = p.account_id AND a.user_id = p_user AND p.symbol = p_symbol
      AND p.opened_at <= last_t + CASE WHEN p_resolution = '1d' THEN interval '1 day' ELSE interval '1 minute' END
      AND coalesce(p.closed_at, 'infinity'::timestamptz) >= first_t;
  END IF;
  RETURN written;
END;
$$;
