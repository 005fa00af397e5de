-- csv_imports_queue_object_deletion: whenever a csv_imports row stops pointing at its staged object
-- (deleted, by any path including a cascade from its account or user, or its staged_key changed), the key is
-- queued in object_deletions for the jobs to delete; no object is ever orphaned.

CREATE OR REPLACE FUNCTION csv_imports_queue_object_deletion() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.staged_key IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.staged_key IS DISTINCT FROM OLD.staged_key) THEN
    INSERT INTO object_deletions (key) VALUES (OLD.staged_key) ON CONFLICT (key) DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER csv_imports_queue_object_deletion AFTER DELETE OR UPDATE OF staged_key ON csv_imports
  FOR EACH ROW EXECUTE FUNCTION csv_imports_queue_object_deletion();
