-- Supports the expired-session purge job. A post-migration because building it on a large sessions
-- table is the kind of work hosted operators schedule out of band (SKIP_POST_MIGRATIONS=true).
CREATE INDEX IF NOT EXISTS sessions_expires_at_idx ON sessions (expires_at);
