-- journal_blank(journal): true when nothing is written in it: no notes, tags, setup, rating, plan (stop,
-- target, planned risk), playbook (or playbook answer), screenshot or comment (the trader's or a mentor's).
-- A blank journal that loses its trade is removed instead of kept as a detached note (nothing to keep).
CREATE OR REPLACE FUNCTION journal_blank(j trade_journals) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT (j.notes IS NULL OR btrim(j.notes) = '') AND cardinality(j.tags) = 0 AND j.setup IS NULL AND j.rating IS NULL
    AND j.stop_price IS NULL AND j.target_price IS NULL AND j.planned_risk IS NULL
    AND j.playbook_id IS NULL AND j.playbook_answers = '{}'::jsonb
    AND NOT EXISTS (SELECT 1 FROM trade_images i WHERE i.journal_id = j.id)
    AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.journal_id = j.id);
$$;
