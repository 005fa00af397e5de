-- stats_version_bump(users): the users' maintained statistics (stats_groups, stats_drawdown_days) changed.
-- Every function that writes those tables calls it in the same transaction (stats_refresh,
-- stats_account_rebuild, stats_follow_accounts): figures kept by version (lib/maintained/cache.ts) are then never
-- read again. A user deleted meanwhile is skipped (their rows went with them).
CREATE OR REPLACE FUNCTION stats_version_bump(p_users uuid[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO stats_versions AS v (user_id, version)
  SELECT DISTINCT u.id, 1 FROM users u WHERE u.id = ANY (p_users)
  ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1;
$$;
