-- A restored comment whose author is not a user here keeps their email (issue 59, docs/sharing.md).
ALTER TABLE "comments" ADD COLUMN "author_label" text;