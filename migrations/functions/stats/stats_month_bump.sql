-- stats_month_bump: every write of maintained day rows (stats_groups, by stats_refresh, a rebuild or a follow)
-- raises the change count of each user month it touched (stats_month_versions), so a month in the base
-- currency built before (stats_base_months) is no longer read. Statement-level, from the rows written or
-- removed. Rows that go with their account (its deletion) are the accounts trigger's (fx_accounts_bump).
CREATE OR REPLACE FUNCTION stats_month_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_month_versions AS v (user_id, month, v)
  SELECT DISTINCT a.user_id, date_trunc('month', t.day)::date, 1
  FROM changed t JOIN accounts a ON a.id = t.account_id
  WHERE t.grain = 'day'
  ON CONFLICT (user_id, month) DO UPDATE SET v = v.v + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_month_bump_insert AFTER INSERT ON stats_groups
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION stats_month_bump();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER stats_month_bump_delete AFTER DELETE ON stats_groups
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION stats_month_bump();
