-- trade_chart(user, trade, resolution, before, after, now): everything a trade's chart reads (lib/market/chart.ts),
-- in one row, or none when the trade is not the user's. `chart`, a JSON text: the trade with its fills, stop and target; the
-- chart's resolution (the one asked, else the one the trade is best read at: 1-minute within 6 hours, 5-minute
-- within 2 days, else daily) and window (`before` steps before the open's, `after` after the close's, on the
-- epoch's multiples of the step; the close is `now` while the trade is open); whether the user has a bar
-- provider key; and the stored days the window touches up to `now` (New York days, or months for daily bars), in
-- order, with their state. `bars`: those days' bars as stored (bar_days.bars_json, '' for none), in the same
-- order, separated by the record separator U+001E (which JSON text never holds): the caller cuts its window out
-- of them, never parsing them. A window over more than 45 calendar days of minute bars (the caller refuses more
-- than 30 trading days) gets no bars. A function, so its plans are kept per connection.
CREATE OR REPLACE FUNCTION trade_chart(p_user uuid, p_trade uuid, p_resolution text, p_before integer, p_after integer, p_now timestamptz)
RETURNS TABLE (chart text, bars text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  iso constant text := 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';
  t record;
  closed timestamptz;
  res text;
  step bigint;
  w_from timestamptz;
  w_to timestamptz;
  base text;
  key_format text;
  lo text;
  hi text;
  days json;
  day_bars text;
BEGIN
  SELECT p.id, p.symbol, p.asset_class, p.direction, p.opened_at, p.closed_at, p.multiplier, j.stop_price, j.target_price
  INTO t
  FROM positions p JOIN accounts a ON a.id = p.account_id LEFT JOIN trade_journals j ON j.position_id = p.id
  WHERE p.id = p_trade AND a.user_id = p_user;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  closed := coalesce(t.closed_at, p_now);
  res := coalesce(p_resolution, CASE WHEN closed - t.opened_at <= interval '6 hours' THEN '1m'
    WHEN closed - t.opened_at <= interval '2 days' THEN '5m' ELSE '1d' END);
  step := CASE res WHEN '1m' THEN 60 WHEN '5m' THEN 300 WHEN '15m' THEN 900 WHEN '1h' THEN 3600 ELSE 86400 END;
  w_from := to_timestamp(floor(extract(epoch FROM t.opened_at) / step) * step - p_before * step);
  w_to := to_timestamp(floor(extract(epoch FROM closed) / step) * step + (p_after + 1) * step);
  base := CASE WHEN res = '1d' THEN '1d' ELSE '1m' END;
  key_format := CASE WHEN base = '1d' THEN 'YYYY-MM-01' ELSE 'YYYY-MM-DD' END;
  lo := to_char(w_from AT TIME ZONE 'America/New_York', key_format);
  hi := to_char(least(w_to, p_now) AT TIME ZONE 'America/New_York', key_format);

  SELECT coalesce(json_agg(json_build_object('day', d.day, 'status', d.status, 'detail', d.detail, 'source', d.source) ORDER BY d.day), '[]'),
    string_agg(CASE WHEN base = '1m' AND hi::date - lo::date > 45 THEN '' ELSE coalesce(d.bars_json, '') END, E'\x1e' ORDER BY d.day)
  INTO days, day_bars
  FROM bar_days d
  WHERE d.user_id = p_user AND d.symbol = t.symbol AND d.resolution = base AND d.day BETWEEN lo AND hi;

  chart := json_build_object('id', t.id, 'symbol', t.symbol, 'assetClass', t.asset_class, 'direction', t.direction,
      'openedAt', to_char(t.opened_at AT TIME ZONE 'UTC', iso), 'closedAt', to_char(t.closed_at AT TIME ZONE 'UTC', iso),
      'multiplier', format_decimal(t.multiplier), 'stopPrice', format_decimal(t.stop_price), 'targetPrice', format_decimal(t.target_price),
      'resolution', res, 'from', to_char(w_from AT TIME ZONE 'UTC', iso), 'to', to_char(w_to AT TIME ZONE 'UTC', iso),
      'key', EXISTS (SELECT 1 FROM stored_keys k WHERE k.user_id = p_user AND k.provider = 'bars'),
      'fills', (SELECT json_agg(json_build_object('id', f.id, 't', to_char(pf.executed_at AT TIME ZONE 'UTC', iso), 'side', f.side,
          'quantity', format_decimal(pf.quantity), 'price', format_decimal(f.price), 'role', pf.role) ORDER BY pf.executed_at, f.id)
        FROM position_fills pf JOIN fills f ON f.id = pf.fill_id WHERE pf.position_id = t.id),
      'days', days)::text;
  bars := coalesce(day_bars, '');
  RETURN NEXT;
END;
$$;
