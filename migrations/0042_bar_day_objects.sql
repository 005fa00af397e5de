-- Each stored day of bars as the chart answers them (bar_days.bars_json: [{"t":"<ISO 8601 UTC, milliseconds>",
-- "open":"<decimal>",...,"volume":"<decimal>"},...] in time order, compact, decimals as format_decimal writes
-- them), so a chart cuts the window out of a day's text and sends it without parsing or rewriting a bar
-- (docs/charts.md, "Speed"). Days stored before this are rewritten from their bars.
UPDATE "bar_days" d SET
  "bars_json" = (
    SELECT '[' || string_agg('{"t":"' || to_char(b.t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '","open":"' || format_decimal(b.open)
      || '","high":"' || format_decimal(b.high) || '","low":"' || format_decimal(b.low) || '","close":"' || format_decimal(b.close)
      || '","volume":"' || format_decimal(b.volume) || '"}', ',' ORDER BY b.t) || ']'
    FROM bars b
    WHERE b.user_id = d.user_id AND b.symbol = d.symbol AND b.resolution = d.resolution
      AND b.t >= (d.day::date)::timestamp AT TIME ZONE 'America/New_York'
      AND b.t < ((d.day::date)::timestamp + CASE WHEN d.resolution = '1d' THEN interval '1 month' ELSE interval '1 day' END) AT TIME ZONE 'America/New_York')
WHERE d."bars_json" IS NOT NULL;
