// Rotating ENCRYPTION_KEY: every stored key sealed again under the new key in batches, safe with two runs at
// once; a wrong or missing previous key refuses before writing; the start-up canary stops a process whose key
// cannot open what is stored. On a database of its own (rotation touches every stored key).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkStoredKeys } from "../../lib/keys/keys.ts";
import { rotateStoredKeys, RotationRefused } from "../../lib/advisor/rotation.ts";
import { readProcessEnv } from "../../lib/config/index.ts";
import { additionalData, keyRing, open, TOTP_AAD } from "../../lib/crypto/envelope.ts";
import { enableTotp, startTotpSetup, totpCode } from "../../lib/auth/two-factor.ts";
import type { DbHandle } from "../../lib/db/client.ts";
import { createNodeDb } from "../../lib/db/node.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startEntrypoint } from "../support/entrypoint.ts";
import { captureLogger } from "../support/deps.ts";
import { baseTestEnv } from "../support/env.ts";
import { seedStoredKeys } from "../support/stored-keys.ts";
import { startTcpProxy } from "../support/tcp-proxy.ts";
import pg from "pg";

const KEY_A = randomBytes(32).toString("hex");
const KEY_B = randomBytes(32).toString("hex");
const KEY_C = randomBytes(32).toString("hex");

let db: { name: string; url: string };
let handle: DbHandle;
beforeAll(async () => {
  db = await createMigratedDatabase("journal_rotation");
  handle = await createNodeDb(db.url, { poolSize: 4, transactionPooler: false });
});
afterEach(async () => {
  await handle.db.execute(sql`delete from users where email like 'rot-%'`);
});
afterAll(async () => {
  await handle?.close();
  if (db) await dropDatabase(db.name);
});

const seedKeys = (users: number, rawKey: string) => seedStoredKeys(handle.db, users, rawKey);

async function allOpen(rawKey: string, plaintexts: Map<string, string>): Promise<void> {
  const ring = await keyRing({ ENCRYPTION_KEY: rawKey });
  const rows = rowsOf<{ user_id: string; provider: string; ciphertext: string; key_id: string }>(
    await handle.db.execute(sql`select user_id::text, provider, ciphertext, key_id from stored_keys`),
  );
  expect(rows).toHaveLength(plaintexts.size);
  for (const r of rows) {
    expect(r.key_id).toBe(ring.current.id);
    expect(await open(ring, r.ciphertext, additionalData(r.user_id, r.provider))).toBe(plaintexts.get(`${r.user_id}:${r.provider}`));
  }
}

describe("rotate-encryption-key", () => {
  it("seals 10,000 keys again under the new key with two runs at once, each key once; then the old key can go", async () => {
    const plaintexts = await seedKeys(2000, KEY_A);
    const second = await createNodeDb(db.url, { poolSize: 2, transactionPooler: false });
    const config = { ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_A };
    const [one, two] = await Promise.all([
      rotateStoredKeys({ db: handle.db, config }),
      rotateStoredKeys({ db: second.db, config }),
    ]).finally(() => second.close());
    expect(one.total).toBe(10_000);
    // Each key sealed again exactly once between the two runs.
    expect(one.rotated + two.rotated).toBe(10_000);
    // Without ENCRYPTION_KEY_PREVIOUS, every key still opens, and a run finds nothing to do.
    await allOpen(KEY_B, plaintexts);
    expect(await rotateStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: KEY_B } })).toEqual({ total: 10_000, alreadyCurrent: 10_000, rotated: 0, byOthers: 0 });
  }, 120_000);

  it("refuses, changing nothing, when a key is sealed under neither key or the previous key cannot open one", async () => {
    const plaintexts = await seedKeys(3, KEY_A);
    const before = rowsOf(await handle.db.execute(sql`select * from stored_keys order by user_id, provider`));
    // No previous key given.
    await expect(rotateStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: KEY_B } })).rejects.toThrow(/set ENCRYPTION_KEY_PREVIOUS/);
    // The wrong previous key.
    await expect(rotateStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_C } })).rejects.toBeInstanceOf(RotationRefused);
    // The right key id, but a row that does not open (tampered).
    await handle.db.execute(sql`update stored_keys set ciphertext = overlay(ciphertext placing 'AAAA' from 30 for 4)
      where ctid = (select ctid from stored_keys limit 1)`);
    const tampered = rowsOf(await handle.db.execute(sql`select * from stored_keys order by user_id, provider`));
    await expect(rotateStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_A } })).rejects.toThrow(
      /ENCRYPTION_KEY_PREVIOUS cannot decrypt a stored .* key .* Nothing was changed/,
    );
    expect(rowsOf(await handle.db.execute(sql`select * from stored_keys order by user_id, provider`))).toEqual(tampered);
    expect(before).toHaveLength(plaintexts.size);
  });

  it("as the operator runs it: the CLI reports its counts; a process started with the wrong key stops, naming it", async () => {
    await seedKeys(4, KEY_A);
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    const env = { PATH: PATH ?? "", ...baseTestEnv(), DATABASE_URL: db.url };
    const cli = (extra: Record<string, string>) =>
      new Promise<{ code: number | null; out: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [fileURLToPath(new URL("../../scripts/cli.ts", import.meta.url)), "rotate-encryption-key"], {
          cwd: "/tmp",
          env: { ...env, ...extra },
        });
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, out }));
      });

    // Started with the new key while the stored keys are still under the old one: the canary stops it.
    await expect(startEntrypoint({ ...env, ENCRYPTION_KEY: KEY_B })).rejects.toThrow(/ENCRYPTION_KEY: stored provider keys encrypted under key id/);
    const refused = await cli({ ENCRYPTION_KEY: KEY_B });
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/set ENCRYPTION_KEY_PREVIOUS/);

    const done = await cli({ ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_A });
    expect(done.code).toBe(0);
    expect(done.out).toContain("Stored keys: 20. Already under ENCRYPTION_KEY: 0. Rotated now: 20.");
    for (const key of [KEY_A, KEY_B]) expect(done.out).not.toContain(key);
    // Now it starts with the new key alone.
    const server = await startEntrypoint({ ...env, ENCRYPTION_KEY: KEY_B });
    await server.stop();
  }, 60_000);

  it("the database cut in the middle of a batch's statement: the run fails, nothing is half-sealed, a second run finishes", async () => {
    const plaintexts = await seedKeys(300, KEY_A); // 1,500 keys: three batches of 500
    const proxy = await startTcpProxy();
    const through = new URL(db.url);
    through.port = String(proxy.port);
    const cut = await createNodeDb(through.toString(), { poolSize: 1, transactionPooler: false });
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    const config = { ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_A };
    try {
      let cutDone: Promise<void> | undefined;
      const run = rotateStoredKeys(
        { db: cut.db, config },
        {
          // After the first batch: rows of the second one locked, so its update waits inside Postgres; the
          // connection is cut while it waits, then the lock goes and the statement finishes on its own.
          onBatch: (done) => {
            if (done !== 500 || cutDone) return;
            cutDone = (async () => {
              await blocker.query("begin");
              await blocker.query("select 1 from stored_keys where key_id = (select key_id from stored_keys order by user_id desc limit 1) for update");
              const waiting = await waitingBehind(blocker);
              await proxy.cut();
              await blocker.query("commit");
              await gone(waiting);
            })();
          },
        },
      );
      await expect(run).rejects.toThrow();
      await cutDone;
    } finally {
      await blocker.end();
      await cut.close().catch(() => undefined);
      await proxy.close();
    }
    // Every key opens under one of the two keys: none half-written.
    const mid = rowsOf<{ key_id: string; n: number }>(await handle.db.execute(sql`select key_id, count(*)::int as n from stored_keys group by 1`));
    expect(mid.reduce((s, r) => s + r.n, 0)).toBe(1500);
    const second = await rotateStoredKeys({ db: handle.db, config });
    expect(second.alreadyCurrent + second.rotated).toBe(1500);
    expect(second.alreadyCurrent).toBeGreaterThanOrEqual(500);
    await allOpen(KEY_B, plaintexts);
  }, 60_000);

  it("the CLI killed (kill -9) after its first batch: the next run finishes and every key opens under the new key", async () => {
    const plaintexts = await seedKeys(400, KEY_A); // 2,000 keys: four batches
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    const child = spawn(process.execPath, [fileURLToPath(new URL("../../scripts/cli.ts", import.meta.url)), "rotate-encryption-key"], {
      cwd: "/tmp",
      env: { PATH: PATH ?? "", ...baseTestEnv(), DATABASE_URL: db.url, ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_A },
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    child.stderr.on("data", (d: Buffer) => {
      if (d.toString().includes("rotated")) child.kill("SIGKILL");
    });
    expect(await exited).toBe("SIGKILL");
    const second = await rotateStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_A } });
    expect(second.total).toBe(2000);
    expect(second.alreadyCurrent).toBeGreaterThanOrEqual(500);
    expect(second.alreadyCurrent + second.rotated).toBe(2000);
    await allOpen(KEY_B, plaintexts);
  }, 60_000);

  it("second-factor secrets rotate with the keys, and the canary names them", async () => {
    const [user] = rowsOf<{ id: string }>(
      await handle.db.execute(sql`insert into users (email, password_hash) values (${`rot-totp-${crypto.randomUUID()}@example.com`}, 'x') returning id::text`),
    );
    const now = new Date();
    const deps = { db: handle.db, config: { ENCRYPTION_KEY: KEY_A }, now: () => now };
    const { secret } = await startTotpSetup(deps, { id: user!.id, email: "rot@example.com" });
    await enableTotp(deps, user!.id, totpCode(secret, now));
    const { log } = captureLogger();
    expect(await checkStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: KEY_C }, log })).toEqual([
      expect.stringMatching(/^stored second-factor secrets encrypted under key id .* neither ENCRYPTION_KEY nor ENCRYPTION_KEY_PREVIOUS/),
    ]);
    expect(await rotateStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_A } })).toEqual({
      total: 1,
      alreadyCurrent: 0,
      rotated: 1,
      byOthers: 0,
    });
    const ring = await keyRing({ ENCRYPTION_KEY: KEY_B });
    const [row] = rowsOf<{ ciphertext: string; key_id: string }>(await handle.db.execute(sql`select ciphertext, key_id from user_totp where user_id = ${user!.id}::uuid`));
    expect(row!.key_id).toBe(ring.current.id);
    expect(await open(ring, row!.ciphertext, additionalData(user!.id, TOTP_AAD))).toBe(secret);
    expect(await checkStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: KEY_B }, log })).toEqual([]);
  });

  it("the canary: one damaged row beside good ones is logged and start goes on; a key that opens none of its rows stops it", async () => {
    await seedKeys(3, KEY_A);
    const { log, lines } = captureLogger();
    const check = () => checkStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: KEY_A }, log });
    expect(await check()).toEqual([]);
    // A row moved to another user (its ciphertext is bound to the first): one row, logged by count, no key material.
    const [a, b] = rowsOf<{ user_id: string }>(await handle.db.execute(sql`select distinct user_id::text from stored_keys order by 1 limit 2`));
    await handle.db.execute(sql`update stored_keys set ciphertext = (select ciphertext from stored_keys where user_id = ${a!.user_id} and provider = 'openai')
      where user_id = ${b!.user_id} and provider = 'openai'`);
    expect(await check()).toEqual([]);
    const warning = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.message === "stored keys that do not open");
    expect(warning).toMatchObject({ kind: "provider", failed: 1 });
    expect(lines.join("")).not.toContain(KEY_A);
    // Every market-data row under that key id damaged: the key cannot be the one they were sealed with.
    await handle.db.execute(sql`update stored_keys set ciphertext = (select ciphertext from stored_keys where user_id = ${a!.user_id} and provider = 'openai')
      where provider = 'market-data'`);
    expect(await check()).toEqual([expect.stringMatching(/^stored market-data keys does not decrypt under key id/)]);
    // Under a key that is not loaded at all.
    expect(await checkStoredKeys({ db: handle.db, config: { ENCRYPTION_KEY: KEY_C }, log })).toEqual([
      expect.stringMatching(/^stored provider keys encrypted under key id .* neither ENCRYPTION_KEY nor ENCRYPTION_KEY_PREVIOUS/),
      expect.stringMatching(/^stored market-data keys encrypted under key id/),
    ]);
  });
});

/** The backend waiting behind `blocker`'s locks (polled until one is), by pid. */
async function waitingBehind(blocker: pg.Client): Promise<number> {
  const { rows } = await blocker.query<{ pid: number }>("select pg_backend_pid() as pid");
  const me = rows[0]!.pid;
  for (let i = 0; i < 200; i++) {
    const waiting = await handle.db.execute(sql`select pid from pg_stat_activity where ${me} = any(pg_blocking_pids(pid))`);
    const [row] = rowsOf<{ pid: number }>(waiting);
    if (row) return row.pid;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("no statement came to wait behind the lock");
}

/** Polls until that backend has ended (it finishes its statement, then finds its client gone). */
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const [row] = rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from pg_stat_activity where pid = ${pid}`));
    if (row!.n === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`backend ${pid} is still there`);
}
