-- import_commit(import, user, now, include_duplicates, staged): claims a staged import and applies it
-- (import_apply) in one statement, so a commit never leaves a claim behind: whether the connection is lost,
-- the process dies or the statement fails, at any point, the import is either committed whole or still
-- 'staged', and a retry commits it. p_staged: the fills of an import staged in object storage, read by the
-- caller before the call (NULL for one staged inline in csv_imports.staged or in csv_import_parts). Returns
-- the number of fills written, or NULL when the import is not the user's, not staged, past its lifetime at
-- p_now, p_staged does not match where it is staged, or its parts are not all written: the caller then says
-- which.

CREATE OR REPLACE FUNCTION import_commit(p_import uuid, p_user uuid, p_now timestamptz, p_include_duplicates boolean, p_staged jsonb) RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE csv_imports SET status = 'committing', claimed_at = p_now
  WHERE id = p_import AND user_id = p_user AND status = 'staged' AND expires_at > p_now
    AND (staged_key IS NULL) = (p_staged IS NULL)
    -- Staged in parts: all of them (a preview writes its row first, then its parts).
    AND (staged_parts IS NULL OR staged_parts = (SELECT count(*) FROM csv_import_parts WHERE import_id = p_import));
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN import_apply(p_import, p_include_duplicates, p_staged);
END;
$$;
