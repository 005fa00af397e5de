-- archive_restore_images_queue_object_deletion: an image staged by an archive import in object storage that
-- loses its row without being taken (the archive refused, a leftover discarded, its user deleted) has its key
-- queued in object_deletions, in the same transaction, by the trade images' own function (the same column).
-- archive_restore clears the keys it takes before it deletes their rows, so a taken object is never queued.
CREATE OR REPLACE TRIGGER archive_restore_images_queue_object_deletion AFTER DELETE ON archive_restore_images
  FOR EACH ROW EXECUTE FUNCTION trade_images_queue_object_deletion();
