-- sealed_secrets: every secret sealed under ENCRYPTION_KEY (lib/crypto/envelope.ts), one row each with the
-- "provider" its envelope's additional data names: the stored provider and market-data keys, the second
-- factor's TOTP secrets ('totp') and the broker connections' tokens ('broker:<account id>'). The key rotation (lib/advisor/rotation.ts) and the start-up check
-- (checkStoredKeys) read it, so a new kind of sealed secret is rotated and checked by adding it here.
CREATE OR REPLACE VIEW sealed_secrets AS
  SELECT user_id, provider, ciphertext, key_id, updated_at FROM stored_keys
  UNION ALL
  SELECT user_id, 'totp' AS provider, ciphertext, key_id, updated_at FROM user_totp
  UNION ALL
  SELECT user_id, 'broker:' || account_id AS provider, ciphertext, key_id, updated_at FROM broker_connections;
