-- trade_images_queue_object_deletion: whenever a trade image stored in object storage loses its row (deleted
-- by the user, or by a cascade from its trade, account or user), its key is queued in object_deletions for
-- the jobs to delete, in the same transaction; no object is orphaned by any path that removes rows.

CREATE OR REPLACE FUNCTION trade_images_queue_object_deletion() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.storage_key IS NOT NULL THEN
    INSERT INTO object_deletions (key) VALUES (OLD.storage_key) ON CONFLICT (key) DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER trade_images_queue_object_deletion AFTER DELETE ON trade_images
  FOR EACH ROW EXECUTE FUNCTION trade_images_queue_object_deletion();
