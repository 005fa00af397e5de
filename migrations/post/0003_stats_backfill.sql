-- Statistics at any depth (migration 0047): every account's maintained statistics (stats_groups) and its
-- user's days over each currency (stats_drawdown_days) computed from the journal already there, account by
-- account. From now on the triggers in migrations/functions/stats keep them. A post-migration because the
-- functions that compute them are defined after the versioned migrations, and because on a large journal it
-- is work hosted operators schedule (SKIP_POST_MIGRATIONS=true, then `npm run db:migrate -- --post`); until
-- it has run, the statistics of existing history read as empty.
DO $$
DECLARE
  acct uuid;
  usr uuid;
BEGIN
  FOR acct IN SELECT id FROM accounts ORDER BY id LOOP
    PERFORM stats_account_rebuild(acct);
  END LOOP;
  FOR usr IN SELECT DISTINCT user_id FROM accounts ORDER BY 1 LOOP
    PERFORM stats_settle(usr);
  END LOOP;
END;
$$;
