-- Money rules (DESIGN.md section 9), applied to what is already in the journal: every position is rebuilt
-- (its fill shares now carry what they realised, and futures fills' ledger entries become their fees and
-- realised P&L instead of their notional), and every ledger is renumbered, which also moves an opening entry
-- that older history had put out of first place. Account by account, each locked as the application locks
-- it. A post-migration because on a large journal it is the kind of work hosted operators schedule
-- (SKIP_POST_MIGRATIONS=true, then `npm run db:migrate -- --post`).
DO $$
DECLARE
  acct uuid;
  sym text;
BEGIN
  FOR acct IN SELECT id FROM accounts ORDER BY id LOOP
    PERFORM 1 FROM accounts WHERE id = acct FOR UPDATE;
    FOR sym IN SELECT DISTINCT symbol FROM fills WHERE account_id = acct LOOP
      PERFORM positions_rebuild(acct, sym);
    END LOOP;
    PERFORM ledger_renumber(acct, '-infinity', '00000000-0000-0000-0000-000000000000'::uuid);
  END LOOP;
END;
$$;
