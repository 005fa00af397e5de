-- trade_journal_delete(user, journal): the trader deletes a journal (a detached note, or everything written on
-- a trade) with its screenshots. Returns the object-storage keys of those screenshots (already queued for
-- deletion by their trigger), or NULL when the journal is not the user's. A detached journal that had lost
-- its trade to this one may then take it (journals_follow). Locks the account row FOR UPDATE.
-- Atomic: one statement for the caller.
CREATE OR REPLACE FUNCTION trade_journal_delete(p_user uuid, p_journal uuid) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  acct uuid;
  sym text;
  keys text[];
BEGIN
  SELECT j.account_id INTO acct FROM trade_journals j JOIN accounts a ON a.id = j.account_id WHERE j.id = p_journal AND a.user_id = p_user;
  IF acct IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM accounts WHERE id = acct FOR UPDATE;
  SELECT coalesce(array_agg(storage_key) FILTER (WHERE storage_key IS NOT NULL), '{}') INTO keys FROM trade_images WHERE journal_id = p_journal;
  DELETE FROM trade_journals WHERE id = p_journal RETURNING symbol INTO sym;
  IF sym IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM journals_follow(acct, ARRAY[sym]);
  RETURN keys;
END;
$$;
