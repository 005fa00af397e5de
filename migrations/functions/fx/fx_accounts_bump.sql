-- fx_accounts_bump: an account created or deleted changes every month of its user in the base currency
-- (docs/currencies.md): their rates' version (user_settings.fx_version) rises, so no month built before
-- (stats_base_months) is read again.
CREATE OR REPLACE FUNCTION fx_accounts_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_settings s SET fx_version = s.fx_version + 1
  WHERE s.user_id IN (SELECT user_id FROM changed);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER fx_accounts_bump_insert AFTER INSERT ON accounts
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION fx_accounts_bump();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER fx_accounts_bump_delete AFTER DELETE ON accounts
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION fx_accounts_bump();
