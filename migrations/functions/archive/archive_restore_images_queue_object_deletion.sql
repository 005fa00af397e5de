-- archive_restore_images_queue_object_deletion: an image staged by an archive import in object storage that
-- loses its row without being taken (the archive refused, a leftover discarded, its user deleted) has its key
-- queued in object_deletions, in the same transaction. archive_restore clears the keys it takes before it
-- deletes their rows, so a taken object is never queued.

CREATE OR REPLACE FUNCTION archive_restore_images_queue_object_deletion() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.storage_key IS NOT NULL THEN
    INSERT INTO object_deletions (key) VALUES (OLD.storage_key) ON CONFLICT (key) DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER archive_restore_images_queue_object_deletion AFTER DELETE ON archive_restore_images
  FOR EACH ROW EXECUTE FUNCTION archive_restore_images_queue_object_deletion();
