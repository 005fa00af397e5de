-- stats_keys(dims, symbol, direction, local opening time, setup, tags): the groups a trade counts in, one row
-- per (dimension, key) asked for: '' (the totals), symbol, direction, weekday (ISO, 1 Monday) and hour of
-- its entry in its account's zone, setup ('' without one) and each of its tags (none without tags).
CREATE OR REPLACE FUNCTION stats_keys(p_dims text[], p_symbol text, p_direction text, p_opened timestamp, p_setup text, p_tags text[])
RETURNS TABLE (dim text, key text)
LANGUAGE sql IMMUTABLE AS $$
  SELECT '', '' WHERE '' = ANY (p_dims)
  UNION ALL SELECT 'symbol', p_symbol WHERE 'symbol' = ANY (p_dims)
  UNION ALL SELECT 'direction', p_direction WHERE 'direction' = ANY (p_dims)
  UNION ALL SELECT 'weekday', extract(isodow FROM p_opened)::int::text WHERE 'weekday' = ANY (p_dims)
  UNION ALL SELECT 'hour', extract(hour FROM p_opened)::int::text WHERE 'hour' = ANY (p_dims)
  UNION ALL SELECT 'setup', coalesce(p_setup, '') WHERE 'setup' = ANY (p_dims)
  UNION ALL SELECT 'tag', t FROM unnest(p_tags) AS t WHERE 'tag' = ANY (p_dims)
$$;
