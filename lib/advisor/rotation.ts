// Key rotation (`npm run cli -- rotate-encryption-key`, docs/operations.md): every sealed secret (the stored
// provider and market-data keys, the second factor's TOTP secrets and the broker tokens: the sealed_secrets view) sealed under
// ENCRYPTION_KEY_PREVIOUS is opened and sealed again under ENCRYPTION_KEY, in batches. Each batch is one
// statement, conditional on every row still holding the ciphertext that was read, so two runs at once (or a
// user saving a new key meanwhile) never overwrite anything newer: whichever writes first wins, the other
// counts the row as done by someone else. Safe to run again; it stops at nothing left to rotate.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import { additionalData, EnvelopeError, keyRing, open, seal, TOTP_AAD } from "../crypto/envelope.ts";

export type RotationReport = {
  /** Keys stored when the run began. */
  total: number;
  /** Already sealed under ENCRYPTION_KEY when the run began. */
  alreadyCurrent: number;
  /** Sealed again by this run. */
  rotated: number;
  /** Read by this run but rotated (or replaced) by another writer first. */
  byOthers: number;
};

export class RotationRefused extends Error {
  override name = "RotationRefused";
}

type Row = { user_id: string; provider: string; ciphertext: string };

export async function rotateStoredKeys(
  deps: { db: Db; config: { ENCRYPTION_KEY: string; ENCRYPTION_KEY_PREVIOUS?: string | undefined } },
  options: { batchSize?: number; onBatch?: (done: number) => void } = {},
): Promise<RotationReport> {
  const batchSize = options.batchSize ?? 500;
  const ring = await keyRing(deps.config);
  const counts = rowsOf<{ key_id: string; n: number }>(
    await deps.db.execute(sql`select key_id, count(*)::int as n from sealed_secrets group by key_id`),
  );
  const total = counts.reduce((s, c) => s + c.n, 0);
  const alreadyCurrent = counts.find((c) => c.key_id === ring.current.id)?.n ?? 0;
  const foreign = counts.filter((c) => c.key_id !== ring.current.id && c.key_id !== ring.previous?.id);
  if (foreign.length) {
    const which = foreign.map((c) => `${c.n} under key id ${c.key_id}`).join(", ");
    throw new RotationRefused(
      ring.previous
        ? `Stored keys are sealed under a key that is neither ENCRYPTION_KEY (${ring.current.id}) nor ENCRYPTION_KEY_PREVIOUS (${ring.previous.id}): ${which}. Nothing was changed.`
        : `Stored keys are sealed under another key (${which}): set ENCRYPTION_KEY_PREVIOUS to that key, then run this again. Nothing was changed.`,
    );
  }
  const report: RotationReport = { total, alreadyCurrent, rotated: 0, byOthers: 0 };
  if (!ring.previous) return report;

  // Refuse before writing anything when the previous key does not open what it claims to have sealed.
  const sample = rowsOf<Row>(
    await deps.db.execute(sql`select user_id::text, provider, ciphertext from sealed_secrets where key_id = ${ring.previous.id} limit 20`),
  );
  for (const row of sample) await openOrRefuse(ring, row);

  for (;;) {
    const batch = rowsOf<Row>(
      await deps.db.execute(sql`select user_id::text, provider, ciphertext from sealed_secrets
        where key_id = ${ring.previous.id} order by user_id, provider limit ${batchSize}`),
    );
    if (!batch.length) return report;
    const sealed = [];
    for (const row of batch) {
      const plaintext = await openOrRefuse(ring, row, report.rotated);
      sealed.push({ user_id: row.user_id, provider: row.provider, old: row.ciphertext, new: await seal(ring, plaintext, additionalData(row.user_id, row.provider)) });
    }
    const updated = rowsOf<{ n: number }>(
      await deps.db.execute(sql`with v as (
          select * from jsonb_to_recordset(${JSON.stringify(sealed)}::jsonb) as v(user_id uuid, provider text, old text, new text)
        ), keys as (
          update stored_keys s set ciphertext = v.new, key_id = ${ring.current.id}
          from v where s.user_id = v.user_id and s.provider = v.provider and s.ciphertext = v.old
          returning 1
        ), totp as (
          update user_totp t set ciphertext = v.new, key_id = ${ring.current.id}
          from v where v.provider = ${TOTP_AAD} and t.user_id = v.user_id and t.ciphertext = v.old
          returning 1
        ), brokers as (
          update broker_connections b set ciphertext = v.new, key_id = ${ring.current.id}
          from v where v.provider = 'broker:' || b.account_id and b.user_id = v.user_id and b.ciphertext = v.old
          returning 1
        ) select (select count(*) from keys)::int + (select count(*) from totp)::int + (select count(*) from brokers)::int as n`),
    )[0]!.n;
    report.rotated += updated;
    report.byOthers += batch.length - updated;
    options.onBatch?.(report.rotated);
  }
}

async function openOrRefuse(ring: Awaited<ReturnType<typeof keyRing>>, row: Row, rotatedSoFar = 0): Promise<string> {
  try {
    return await open(ring, row.ciphertext, additionalData(row.user_id, row.provider));
  } catch (err) {
    if (!(err instanceof EnvelopeError)) throw err;
    throw new RotationRefused(
      `ENCRYPTION_KEY_PREVIOUS cannot decrypt a stored ${row.provider === TOTP_AAD ? "second-factor secret" : row.provider.startsWith("broker:") ? "broker token" : `${row.provider} key`} (${err.message}). ` +
        `${rotatedSoFar ? `${rotatedSoFar} keys were rotated before it; the rest are unchanged.` : "Nothing was changed."}`,
    );
  }
}
