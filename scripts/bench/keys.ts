// Stored keys: rotation throughput over 10,000 keys beside the bare crypto of the same keys (open + seal, no
// database), and a provider-key save through the real entrypoint beside the probe it makes (the stand-in
// answering at once), both medians measured in the same run.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { rotateStoredKeys } from "../../lib/advisor/rotation.ts";
import { additionalData, keyRing, open, seal } from "../../lib/crypto/envelope.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { startProviderServer } from "../../tests/support/provider-server.ts";
import { seedStoredKeys } from "../../tests/support/stored-keys.ts";
import { registerBenchUser, request } from "./http.ts";
import { timeInterleaved } from "./startup.ts";

export const ROTATED_KEYS = 10_000;

export async function measureKeys(env: Record<string, string>, databaseUrl: string) {
  const oldKey = randomBytes(32).toString("hex");
  const newKey = randomBytes(32).toString("hex");
  const handle = await createNodeDb(databaseUrl, { poolSize: 2, transactionPooler: false });
  try {
    await seedStoredKeys(handle.db, ROTATED_KEYS / 5, oldKey);
    let started = performance.now();
    const report = await rotateStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_PREVIOUS: oldKey } });
    const rotationMs = performance.now() - started;
    if (report.rotated !== ROTATED_KEYS) throw new Error(`rotated ${report.rotated} of ${ROTATED_KEYS}`);
    // The floor: the same opens and seals in this process, no database (after the rotation, so neither pays
    // for the first compilation of the crypto path).
    const rows = rowsOf<{ user_id: string; provider: string; ciphertext: string }>(
      await handle.db.execute(sql`select user_id::text, provider, ciphertext from stored_keys`),
    );
    const ring = await keyRing({ ENCRYPTION_KEY: oldKey, ENCRYPTION_KEY_PREVIOUS: newKey });
    started = performance.now();
    for (const r of rows) await seal(ring, await open(ring, r.ciphertext, additionalData(r.user_id, r.provider)), additionalData(r.user_id, r.provider));
    const cryptoMs = performance.now() - started;
    await handle.db.execute(sql`delete from users where email like 'rot-%'`);

    const stand = await startProviderServer();
    const server = await startEntrypoint({ ...env, ...stand.env, DATABASE_URL: databaseUrl });
    try {
      // Ten saves an hour per user: a user per ten saves.
      const users = await Promise.all([0, 1, 2, 3].map((i) => registerBenchUser(server.url, `keys-${i}`)));
      let saves = 0;
      const apiKey = `sk-bench-${randomBytes(16).toString("hex")}`;
      const times = await timeInterleaved(
        7,
        {
          save: async () => {
            const { cookie } = users[Math.floor(saves++ / 10)]!;
            const res = await request(`${server.url}/api/advisor/provider-keys/openai`, {
              method: "PUT",
              headers: { "Content-Type": "application/json", Cookie: cookie },
              body: JSON.stringify({ apiKey }),
            });
            if (res.status !== 200) throw new Error(`save answered ${res.status}`);
          },
          probe: async () => {
            const res = await request(`${stand.env.OPENAI_BASE_URL}/models`, { headers: { Authorization: `Bearer ${apiKey}` } });
            if (res.status !== 200) throw new Error(`probe answered ${res.status}`);
          },
        },
        3,
      );
      return { rotationMs, cryptoMs, saveMs: times.save, probeMs: times.probe };
    } finally {
      await server.stop();
      await stand.close();
    }
  } finally {
    await handle.close();
  }
}
