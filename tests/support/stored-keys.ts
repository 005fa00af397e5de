// Stored keys in bulk for rotation tests and benchmarks: users, each with a key per provider, sealed under
// a given raw key exactly as the application seals them.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { additionalData, keyRing, seal } from "../../lib/crypto/envelope.ts";
import type { Db } from "../../lib/db/client.ts";
import { rowsOf } from "../../lib/db/rows.ts";

export const KEY_PROVIDERS = ["openai", "anthropic", "gemini", "openrouter", "market-data"] as const;

/** `users` users (emails starting "rot-") with a key for each of the five providers; the plaintexts by "user:provider". */
export async function seedStoredKeys(db: Db, users: number, rawKey: string): Promise<Map<string, string>> {
  const userIds = rowsOf<{ id: string }>(
    await db.execute(sql`insert into users (email, password_hash)
      select 'rot-' || gen_random_uuid() || '@example.com', 'x' from generate_series(1, ${users}) returning id::text`),
  ).map((r) => r.id);
  const ring = await keyRing({ ENCRYPTION_KEY: rawKey });
  const plaintexts = new Map<string, string>();
  const rows = [];
  for (const userId of userIds) {
    for (const provider of KEY_PROVIDERS) {
      const plaintext = `sk-${provider}-${randomBytes(12).toString("hex")}`;
      plaintexts.set(`${userId}:${provider}`, plaintext);
      rows.push({ user_id: userId, provider, ciphertext: await seal(ring, plaintext, additionalData(userId, provider)), key_id: ring.current.id, key_hint: plaintext.slice(-4) });
    }
  }
  await db.execute(sql`insert into stored_keys (user_id, provider, ciphertext, key_id, key_hint)
    select user_id, provider, ciphertext, key_id, key_hint
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(user_id uuid, provider text, ciphertext text, key_id text, key_hint text)`);
  return plaintexts;
}
