-- import_commit_inline(import, user, now, include_duplicates): claims an import staged inline
-- (csv_imports.staged) and applies it (import_apply) in one statement, so such a commit never leaves a claim
-- behind: whether the connection is lost, the process dies or the statement fails, at any point, the import
-- is either committed whole or still 'staged', and a retry commits it. Returns the number of fills written,
-- or NULL when the import is not the user's, not staged, past its lifetime at p_now or staged in object
-- storage: the caller then takes the two-step path (claim, read the object, apply), which also says why.

CREATE OR REPLACE FUNCTION import_commit_inline(p_import uuid, p_user uuid, p_now timestamptz, p_include_duplicates boolean) RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE csv_imports SET status = 'committing', claimed_at = p_now
  WHERE id = p_import AND user_id = p_user AND status = 'staged' AND expires_at > p_now AND staged_key IS NULL;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN import_apply(p_import, p_include_duplicates);
END;
$$;
