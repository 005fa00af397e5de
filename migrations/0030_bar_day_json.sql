-- Each day of bars also as one JSON text (bar_days.bars_json, written by bars_store), so a chart reads a day in
-- one row; and who wrote it (provider or upload). Days stored before this get theirs here.
ALTER TABLE "bar_days" ADD COLUMN "bars_json" text;--> statement-breakpoint
ALTER TABLE "bar_days" ADD COLUMN "source" text;--> statement-breakpoint
UPDATE "bar_days" d SET
  "bars_json" = (
    SELECT json_agg(json_build_array(extract(epoch from b.t)::bigint, trim_scale(b.open)::text, trim_scale(b.high)::text, trim_scale(b.low)::text,
      trim_scale(b.close)::text, trim_scale(b.volume)::text) ORDER BY b.t)::text
    FROM bars b
    WHERE b.user_id = d.user_id AND b.symbol = d.symbol AND b.resolution = d.resolution
      AND b.t >= (d.day::date)::timestamp AT TIME ZONE 'America/New_York'
      AND b.t < ((d.day::date)::timestamp + CASE WHEN d.resolution = '1d' THEN interval '1 month' ELSE interval '1 day' END) AT TIME ZONE 'America/New_York'),
  "source" = (SELECT min(b.source) FROM bars b WHERE b.user_id = d.user_id AND b.symbol = d.symbol AND b.resolution = d.resolution)
WHERE d.status = 'ok';
