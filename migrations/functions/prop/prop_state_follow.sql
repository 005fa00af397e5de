-- prop_state_follow: every fill written, changed or deleted in an account with an evaluation raises its
-- state_v, so a status run meanwhile does not keep its state; one at or before where the kept state stops
-- (prop_evaluations.through_at) also drops that state, so the next status runs every fill again
-- (docs/prop-firms.md). Fills after it need nothing more: the next status runs them from the state.
CREATE OR REPLACE FUNCTION prop_state_drop(p_changed jsonb) RETURNS void
LANGUAGE sql AS $$
  UPDATE prop_evaluations e SET state_v = e.state_v + 1,
    state = CASE WHEN e.through_at IS NOT NULL AND c.at <= e.through_at THEN NULL ELSE e.state END,
    through_id = CASE WHEN e.through_at IS NOT NULL AND c.at <= e.through_at THEN NULL ELSE e.through_id END,
    through_at = CASE WHEN e.through_at IS NOT NULL AND c.at <= e.through_at THEN NULL ELSE e.through_at END
  FROM (SELECT (x->>'account_id')::uuid AS account_id, min((x->>'at')::timestamptz) AS at FROM jsonb_array_elements(p_changed) x GROUP BY 1) c
  WHERE e.account_id = c.account_id;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION prop_state_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM prop_evaluations) THEN
    PERFORM prop_state_drop((SELECT jsonb_agg(jsonb_build_object('account_id', account_id, 'at', at)) FROM (
      SELECT account_id, min(executed_at) AS at FROM changed GROUP BY account_id) x));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER prop_state_follow_insert AFTER INSERT ON fills
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION prop_state_follow();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER prop_state_follow_delete AFTER DELETE ON fills
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION prop_state_follow();
--> statement-breakpoint
-- An update: where the fill was (its old time) counts, and where it went, as an insert's does.
CREATE OR REPLACE FUNCTION prop_state_follow_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM prop_evaluations) THEN
    PERFORM prop_state_drop((SELECT jsonb_agg(jsonb_build_object('account_id', account_id, 'at', at)) FROM (
      SELECT account_id, min(executed_at) AS at FROM (SELECT account_id, executed_at FROM before_rows UNION ALL SELECT account_id, executed_at FROM after_rows) y
      GROUP BY account_id) x));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER prop_state_follow_update AFTER UPDATE ON fills
  REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION prop_state_follow_update();
--> statement-breakpoint
-- Bars written (uploaded or fetched) for a time at or before where a kept state stops: the intraday modes read
-- them, so that state is dropped too (and state_v raised, as for a fill).
CREATE OR REPLACE FUNCTION prop_state_follow_bars() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM prop_evaluations) THEN
    PERFORM prop_state_drop((SELECT jsonb_agg(jsonb_build_object('account_id', e.account_id, 'at', c.at))
      FROM prop_evaluations e JOIN (SELECT user_id, min(t) AS at FROM changed WHERE resolution = '1m' GROUP BY user_id) c ON c.user_id = e.user_id));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER prop_state_follow_bars_insert AFTER INSERT ON bars
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION prop_state_follow_bars();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER prop_state_follow_bars_update AFTER UPDATE ON bars
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION prop_state_follow_bars();
